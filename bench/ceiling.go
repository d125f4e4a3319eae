package bench

import (
	"errors"

	"github.com/memharness/memharness/family"
)

// exitCeiling is the exit status of a run stopped at eval.max_cost or
// eval.max_tokens: not a failure (nothing went wrong, the work left is
// resumable), not an interruption.
const exitCeiling = 3

// isCeilingStop reports whether err is a run stopped at a ceiling.
func isCeilingStop(err error) bool {
	var cs *family.CeilingStop
	return errors.As(err, &cs)
}
