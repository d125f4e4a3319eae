package external

import "github.com/memharness/memharness/llm"

// Unwrap lets errors.Is find both llm.ErrStopRun (the runner then stops
// and leaves the rest for a re-run) and the cause.
func (e *ChildError) Unwrap() []error { return []error{llm.ErrStopRun, e.Err} }
