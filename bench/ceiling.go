package bench

import (
	"errors"
	"fmt"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/tokens"
)

// exitCeiling is the exit status of a run stopped at eval.max_cost or
// eval.max_tokens: not a failure (nothing went wrong, the work left is
// resumable), not an interruption.
const exitCeiling = 3

// statusCeiling is the summaries' status of such a run.
const statusCeiling = "stopped at ceiling"

// openBudget is the run's spending guard (nil when the config sets no
// ceiling), counting prompts with the run's token counter.
func openBudget(cfg *config.Config, count tokens.Counter) (*llm.Budget, error) {
	b, err := llm.NewBudget(llm.Ceilings{
		MaxCost: cfg.Eval.MaxCost, MaxTokens: cfg.Eval.MaxTokens,
		CostName: "eval.max_cost", TokensName: "eval.max_tokens",
	}, pricesOf(cfg), count.Count)
	if err != nil {
		return nil, fmt.Errorf("eval ceilings: %w", err)
	}
	return b, nil
}

// ceilingStop is what a run stopped at a ceiling returns: the ceiling,
// what was spent, how much of the work is done and how to go on.
type ceilingStop struct {
	cause         *llm.CeilingError
	done, planned int
	unit          string // "samples", "methods"
	detail        string // e.g. the method in progress; "" for none
}

func (e *ceilingStop) Error() string {
	key := e.cause.Name
	// A suggestion that at least admits the refused call.
	more := fmt.Sprintf("%d", max(2*int(e.cause.Limit), 2*(e.cause.Spent.PromptTokens+e.cause.Spent.CompletionTokens+e.cause.Next.PromptTokens+e.cause.Next.CompletionTokens)))
	if e.cause.Which == "cost" {
		more = fmt.Sprintf("%.4g", max(2*e.cause.Limit, 2*(e.cause.Spent.Cost+e.cause.Next.Cost)))
	}
	left := fmt.Sprintf("%d of %d %s done, %d left", e.done, e.planned, e.unit, e.planned-e.done)
	if e.detail != "" {
		left += " (" + e.detail + ")"
	}
	return fmt.Sprintf("%s: %v; %s; re-run the same command with a higher ceiling (e.g. --set %s=%s) to resume",
		statusCeiling, e.cause, left, key, more)
}

// Unwrap makes errors.Is(err, llm.ErrCeiling) hold.
func (e *ceilingStop) Unwrap() error { return e.cause }

// stoppedAtCeiling is the run's ceiling stop, or nil when the budget did
// not stop it.
func stoppedAtCeiling(b *llm.Budget, done, planned int, unit, detail string) error {
	ce := b.Stopped()
	if ce == nil {
		return nil
	}
	return &ceilingStop{cause: ce, done: done, planned: planned, unit: unit, detail: detail}
}

// isCeilingStop reports whether err is a run stopped at a ceiling.
func isCeilingStop(err error) bool {
	var cs *ceilingStop
	return errors.As(err, &cs)
}
