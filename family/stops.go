package family

import (
	"context"
	"fmt"

	"github.com/memharness/memharness/llm"
)

// StatusCeiling is the summaries' status of such a run.
const StatusCeiling = "stopped at ceiling"

// CeilingStop is what a run stopped at a ceiling returns: the ceiling,
// what was spent, how much of the work is done and how to go on.
type CeilingStop struct {
	Cause         *llm.CeilingError
	Done, Planned int
	Unit          string // "samples", "methods"
	Detail        string // e.g. the method in progress; "" for none
}

func (e *CeilingStop) Error() string {
	key := e.Cause.Name
	// A suggestion that at least admits the refused call.
	more := fmt.Sprintf("%d", max(2*int(e.Cause.Limit), 2*(e.Cause.Spent.PromptTokens+e.Cause.Spent.CompletionTokens+e.Cause.Next.PromptTokens+e.Cause.Next.CompletionTokens)))
	if e.Cause.Which == "cost" {
		more = fmt.Sprintf("%.4g", max(2*e.Cause.Limit, 2*(e.Cause.Spent.Cost+e.Cause.Next.Cost)))
	}
	left := fmt.Sprintf("%d of %d %s done, %d left", e.Done, e.Planned, e.Unit, e.Planned-e.Done)
	if e.Detail != "" {
		left += " (" + e.Detail + ")"
	}
	return fmt.Sprintf("%s: %v; %s; re-run the same command with a higher ceiling (e.g. --set %s=%s) to resume",
		StatusCeiling, e.Cause, left, key, more)
}

// Unwrap makes errors.Is(err, llm.ErrCeiling) hold.
func (e *CeilingStop) Unwrap() error { return e.Cause }

// StoppedAtCeiling is the run's ceiling stop, or nil when the budget did
// not stop it.
func StoppedAtCeiling(b *llm.Budget, done, planned int, unit, detail string) error {
	ce := b.Stopped()
	if ce == nil {
		return nil
	}
	return &CeilingStop{Cause: ce, Done: done, Planned: planned, Unit: unit, Detail: detail}
}

// Interrupted is what a run stopped by Ctrl-C (or SIGTERM) returns: how
// far it got, said plainly, and that re-running resumes.
type Interrupted struct {
	Done, Planned int
	Unit          string // "samples", "configs"
}

func (e *Interrupted) Error() string {
	return fmt.Sprintf("interrupted after %d/%d %s; re-run the same command to resume", e.Done, e.Planned, e.Unit)
}

// Unwrap makes errors.Is(err, context.Canceled) hold, as for any other
// cancelled work.
func (e *Interrupted) Unwrap() error { return context.Canceled }
