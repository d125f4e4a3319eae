package behaviorrun

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runrecord"
)

// PredictOptions configure the predict stage.
type PredictOptions struct {
	// Workers computes up to this many samples at once (at least 1).
	Workers int
	// RetryBudget bounds the retry waits of one sample (0: unbounded).
	RetryBudget time.Duration
	// Meter is the evaluation model's meter; read only to say how many
	// calls were in flight when a write failed. nil: not said.
	Meter *llm.Meter
	// OnSample is called after each computed sample is handed to the store
	// (the caller's progress and live counts); nil: nothing. It may be
	// called from several goroutines at once.
	OnSample func(runrecord.Sample)
	// OnStop is called once, when the endpoint goes down or a spending
	// ceiling is reached (llm.ErrStopRun) and the run stops early; nil:
	// nothing.
	OnStop func(error)
	// PlanOrder issues the jobs in plan order instead of the prefix-aware
	// issueOrder (tests compare the two).
	PlanOrder bool
	// PrefixClasses maps a method to its prefix class for issueOrder
	// (methods whose prompts start alike); nil: each method its own.
	PrefixClasses map[string]string
	// BatchedQuestions says the questions' calls go through provider
	// batches (backbone.batch names predict): they keep the prefix-aware
	// order, but no question waits for another's answer (see issueOrder):
	// the wait lets a live server's prefix cache hold the shared prompt;
	// in a batch it would only split one wave into three.
	BatchedQuestions bool
}

// PredictResult is how the predict stage ended short of an error.
type PredictResult struct {
	// Stopped is the llm.ErrStopRun error that ended the stage early; the
	// samples not yet attempted stay unattempted, so a re-run resumes them.
	Stopped error
}

// Predict computes the plan's jobs on a worker pool, building every memory
// the jobs need before the first question goes out (under PlanOrder, each
// at its first sample), and stores every sample as it finishes. A
// cancelled ctx leaves the unfinished samples for the next run. The error
// is a failed write: the store is closed for writing and no more calls are
// paid for samples that cannot be saved (usage is then not accounted).
func (r *Run) Predict(ctx context.Context, plan Plan, o PredictOptions) (PredictResult, error) {
	var res PredictResult
	// A failed write stops the run: the store is closed for writing, and
	// work is cancelled so no more calls are paid for samples that cannot
	// be saved.
	runCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	// Every call is numbered in send order, after the calls of earlier
	// processes, so the order can be replayed from the journal.
	runCtx = llm.WithSendOrder(runCtx, llm.NewSendOrder(r.st.Usage()))
	var stopOnce sync.Once
	// endpointDown ends the run early: samples not yet attempted stay
	// unattempted, so a re-run resumes them.
	endpointDown := func(err error) {
		stopOnce.Do(func() {
			res.Stopped = err
			if o.OnStop != nil {
				o.OnStop(err)
			}
			stop(err)
		})
	}
	calls := func() int {
		if o.Meter == nil {
			return 0
		}
		return o.Meter.Snapshot().Total.Calls
	}
	var appendErr error
	var appendOnce sync.Once
	var callsAtFailure int
	// A job runs on its own goroutine once it holds one of the pool's
	// slots; a job whose call parks in a provider batch (or that waits for
	// its leader) gives its slot back, so the next job starts and its call
	// can join the same wave (llm.Slots). Jobs start lazily, in issue order.
	slots := llm.NewSlots(o.Workers)
	work := func(jctx context.Context, slot *llm.Slot, j Job) {
		if j.Inst == nil { // a memory to build before the questions
			if r.st.Err() == nil && runCtx.Err() == nil {
				if err := r.build(jctx, j.u); errors.Is(err, llm.ErrStopRun) {
					endpointDown(err)
				}
				// A build whose records could not be written (a full
				// disk) stops the run as a failed sample write does.
				if err := r.st.Err(); err != nil {
					appendOnce.Do(func() {
						appendErr = err
						callsAtFailure = calls()
						stop(err)
					})
				}
			}
			return
		}
		if j.answered != nil {
			defer close(j.answered)
		}
		if j.wait != nil && !o.BatchedQuestions {
			// Waiting for the leader is no live work: the slot serves
			// another sample meanwhile (a leader whose call parks must
			// not be stuck behind its followers).
			_ = slot.Await(runCtx, j.wait)
		}
		if r.st.Err() != nil || runCtx.Err() != nil {
			return
		}
		var log llm.CallLog
		jctx = llm.WithRetryBudget(llm.WithCallLog(jctx, &log), o.RetryBudget)
		rec, ok, err := r.predictOne(jctx, j)
		if errors.Is(err, llm.ErrStopRun) {
			endpointDown(err)
			return
		}
		if !ok { // cancelled: leave the sample for the next run
			return
		}
		if err := r.st.AppendWith(rec, log.Take()); err != nil {
			appendOnce.Do(func() {
				appendErr = err
				callsAtFailure = calls()
				stop(err)
			})
		}
		if o.OnSample != nil {
			o.OnSample(rec)
		}
	}
	// Outside plan order every memory is built before the first question
	// goes out (a construction sent between questions would push their
	// shared history out of the server's cache): the builds are fed first
	// and the questions wait until the last build has finished.
	first, jobs := []Job(nil), plan.Jobs
	if !o.PlanOrder {
		first, jobs = buildJobs(jobs), issueOrder(jobs, max(1, o.Workers), o.PrefixClasses, o.BatchedQuestions)
	}
	// Go returns once the jobs it started are done (a follower waits only
	// for a leader sent before it, so no started job waits on one never
	// started): every build is finished before the first question goes.
	feed := func(js []Job) bool {
		return slots.Go(runCtx, len(js), func(jctx context.Context, slot *llm.Slot, k int) { work(jctx, slot, js[k]) }) == len(js)
	}
	if feed(first) {
		feed(jobs)
	}
	if appendErr != nil {
		return res, fmt.Errorf("stopped: %w (%d model calls were in flight at the failure and finished after it; "+
			"free the space or fix the cause and re-run the same command to resume)",
			appendErr, calls()-callsAtFailure)
	}
	return res, nil
}

// build builds u's memory once (a question waits for a build under way)
// and returns the build's error.
func (r *Run) build(ctx context.Context, u *unit) error {
	u.once.Do(func() {
		u.mem, u.err = BuildMemory(ctx, r.st, u.method, u.env, *u.user, u.retryBudget)
	})
	return u.err
}

// predictOne computes one sample. ok is false when the context was
// cancelled before the sample finished, or when the endpoint is down (err
// tells).
func (r *Run) predictOne(ctx context.Context, j Job) (runrecord.Sample, bool, error) {
	inst := j.Inst
	u := j.u
	rec := runrecord.Sample{
		ID: j.ID, Repeat: j.Repeat, Method: u.method.Name(), Dataset: inst.Dataset, User: inst.User, Index: inst.Index,
		Scene: inst.Target.Scene, Field: inst.Question.Field, Kind: inst.Question.Kind, Label: inst.Question.Label,
	}
	if r.build(ctx, u) != nil {
		if errors.Is(u.err, llm.ErrStopRun) {
			return rec, false, u.err
		}
		if ctx.Err() != nil {
			return rec, false, nil
		}
		rec.Error = "memory: " + u.err.Error()
		return rec, true, nil
	}
	env := u.env
	env.Model = llm.WithRepeat(env.Model, j.Repeat, r.draws.Seed)
	out, err := u.method.Predict(ctx, env, u.mem, *inst)
	if err != nil {
		if errors.Is(err, llm.ErrStopRun) {
			return rec, false, err
		}
		if ctx.Err() != nil {
			return rec, false, nil
		}
		rec.Error = err.Error()
		return rec, true, nil
	}
	rec.Pred, rec.Valid, rec.Attempts, rec.Raw, rec.Prompt = out.Pred, out.Valid, out.Attempts, out.Raw, out.Prompt
	rec.Calls, rec.CachedCalls = out.Calls, out.CachedCalls
	rec.PromptTokens, rec.CompletionTokens, rec.Cost = out.Usage.PromptTokens, out.Usage.CompletionTokens, out.Usage.Cost
	// Per call, so runs with redraws compare with runs without.
	rec.LatencyMS = float64(out.Latency.Microseconds()) / 1000 / float64(max(1, out.Calls))
	rec.HistoryRecords, rec.HistoryTokens, rec.MemoryTokens = out.HistoryRecords, out.HistoryTokens, out.MemoryTokens
	return rec, true, nil
}
