package conversation

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/memharness/memharness/backbone"
	"github.com/memharness/memharness/behaviorrun"
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/tokens"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// answering is what answering the pending questions needs.
type answering struct {
	cfg     *config.Config
	back    *backbone.Backbone
	convs   []*conv
	methods []method
	names   []string
	release []*releaseAnswer
	scorer  *scorer
	bench   string
	// count is the run's token counter (what an answer prompt shows is
	// counted in it).
	count tokens.Counter
}

// built is one (method, conversation) memory built before the questions:
// the calls it made, journalled with the first pending question of the
// pair in plan order (the sample that carried them when memories were
// built at the first question, so the sample log is unchanged), and its
// error, which that question reports.
type built struct {
	calls []llm.CallRecord
	err   error
	// first is the job (index in plan order) that carries them.
	first int
}

// answerAll answers every pending question on eval.concurrency workers in
// the send order (order.go) and appends each sample with its calls as it
// finishes. It returns the error that stopped the run early (a ceiling, an
// endpoint down, an interruption: the questions not answered stay for the
// next run) and, apart, a sample that could not be written.
func answerAll(ctx context.Context, st *runstore.Store, a answering) (stopped, failed error) {
	draws := a.cfg.Eval.Draws()
	var jobs []sendJob
	for mi := range a.methods {
		for ci, c := range a.convs {
			for i := range len(c.Questions) * draws {
				if !st.Done(llm.RepeatName(sampleID(a.names[mi], c.Questions[i/draws]), i%draws)) {
					jobs = append(jobs, sendJob{method: mi, conv: ci, question: i / draws, draw: i % draws})
				}
			}
		}
	}
	workers := max(1, a.cfg.Eval.Concurrency)
	runCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	// Every call is numbered in send order, after the calls of earlier
	// processes, so the order can be replayed from the journal.
	runCtx = llm.WithSendOrder(runCtx, llm.NewSendOrder(st.Usage()))
	var once sync.Once
	halt := func(err error) {
		once.Do(func() { stopped = err; stop(err) })
	}

	// The memories first, conversation by conversation, workers at once.
	units := map[[2]int]*built{}
	var unitKeys [][2]int
	for i, j := range jobs {
		k := [2]int{j.method, j.conv}
		if _, ok := a.methods[j.method].(builder); !ok || units[k] != nil {
			continue
		}
		units[k] = &built{first: i}
		unitKeys = append(unitKeys, k)
	}
	users := make([]string, len(unitKeys))
	ms := make([]string, len(unitKeys))
	for i, k := range unitKeys {
		users[i], ms[i] = a.convs[k[1]].SampleID, a.names[k[0]]
	}
	buildOrder := behaviorrun.BuildOrder(users, ms)
	// Each method's first construction goes ahead and the method's others
	// wait for it, so its instructions are computed once (buildWaits).
	waits := buildWaits(ms, buildOrder)
	done := make([]chan struct{}, len(unitKeys))
	for u := range done {
		done[u] = make(chan struct{})
	}
	slots := llm.NewSlots(workers)
	slots.Go(runCtx, len(unitKeys), func(jctx context.Context, slot *llm.Slot, n int) {
		u := buildOrder[n]
		defer close(done[u])
		if w := waits[u]; w >= 0 {
			// Waiting is no live work: the slot serves another build.
			_ = slot.Await(runCtx, done[w])
		}
		k := unitKeys[u]
		if runCtx.Err() != nil {
			return
		}
		var log llm.CallLog
		bctx := llm.WithRetryBudget(llm.WithCallLog(jctx, &log), a.cfg.Backbone.RetryBudget.Duration)
		b := units[k]
		b.err = a.methods[k[0]].(builder).Build(bctx, a.convs[k[1]])
		b.calls = log.Take()
		if errors.Is(b.err, llm.ErrStopRun) {
			halt(b.err)
		}
	})
	if runCtx.Err() != nil {
		return stopCause(ctx, runCtx, stopped), nil
	}

	convIDs := make([]string, len(a.convs))
	for i, c := range a.convs {
		convIDs[i] = c.SampleID
	}
	serialMethod := make([]bool, len(a.methods))
	for i, m := range a.methods {
		_, serialMethod[i] = m.(serial)
	}
	order, after := sendOrder(jobs, convIDs, a.names, serialMethod, workers, prefixClasses(a.cfg), holdsFollowers(a.cfg))
	answered := make([]chan struct{}, len(jobs))
	for _, l := range after {
		if l >= 0 && answered[l] == nil {
			answered[l] = make(chan struct{})
		}
	}
	// A held question waits for its leader's judges too (their prompts
	// share the question and the gold answer), unless the judges go
	// through provider batches: then only for its answer.
	judgeAfter := judgesHeld(a.cfg, a.scorer.judges)
	var failOnce sync.Once
	slots.Go(runCtx, len(order), func(jctx context.Context, slot *llm.Slot, n int) {
		i := order[n]
		j := jobs[i]
		release, atAnswer := func() {}, func() {}
		if ch := answered[i]; ch != nil {
			var o sync.Once
			release = func() { o.Do(func() { close(ch) }) }
			if !judgeAfter {
				atAnswer = release
			}
		}
		defer release()
		if l := after[i]; l >= 0 {
			// Waiting for the leader is no live work: the slot serves
			// another question meanwhile.
			_ = slot.Await(runCtx, answered[l])
		}
		if runCtx.Err() != nil {
			return
		}
		c := a.convs[j.conv]
		q := c.Questions[j.question]
		var log llm.CallLog
		var pre *built
		if u := units[[2]int{j.method, j.conv}]; u != nil && u.first == i {
			pre = u
		}
		qctx := llm.WithRetryBudget(llm.WithCallLog(jctx, &log), a.cfg.Backbone.RetryBudget.Duration)
		// A later draw asks the answer and its judge again, keyed and
		// seeded apart (llm.WithRepeat).
		sc := a.scorer.withRepeat(j.draw, a.cfg.RepeatSeed())
		var rec runrecord.Sample
		var err error
		if pre != nil && pre.err != nil {
			// The build failed: its question reports it, as it did when it
			// built the memory itself.
			rec = sampleOf(c, j.question, a.names[j.method], a.bench)
			err = fmt.Errorf("method %s: %s: %w", a.names[j.method], q.ID, pre.err)
		} else {
			rec, err = answerOne(qctx, llm.WithRepeat(a.back.Model, j.draw, a.cfg.RepeatSeed()), sc, c, j.question,
				a.methods[j.method], a.names[j.method], a.cfg.Methods[j.method].Params, a.release[j.method], a.bench, a.count, atAnswer)
		}
		rec.ID, rec.Repeat = llm.RepeatName(sampleID(a.names[j.method], q), j.draw), j.draw
		if errors.Is(err, llm.ErrStopRun) || runCtx.Err() != nil {
			if runCtx.Err() == nil {
				halt(err)
			}
			return
		}
		if err != nil {
			rec.Error = err.Error()
		}
		calls := log.Take()
		if pre != nil {
			calls = append(append([]llm.CallRecord(nil), pre.calls...), calls...)
		}
		for _, c := range calls {
			if c.Tool != nil {
				continue // a tool call (an MCP server's), journalled, not a model call
			}
			rec.Calls++
			if c.Cached {
				rec.CachedCalls++
			}
			rec.PromptTokens += c.Usage.PromptTokens
			rec.CompletionTokens += c.Usage.CompletionTokens
			rec.Cost += c.Usage.Cost
			rec.LatencyMS += float64(c.LatencyNS) / 1e6
		}
		if err := st.AppendWith(rec, calls); err != nil {
			failOnce.Do(func() {
				failed = fmt.Errorf("stopped: %w; re-run the same command to resume", err)
				stop(failed)
			})
		}
	})
	if failed != nil {
		return nil, failed
	}
	if runCtx.Err() != nil {
		return stopCause(ctx, runCtx, stopped), nil
	}
	return nil, nil
}

// stopCause is why the answering stopped early: the caller's context's
// error (an interruption), else the error that halted it.
func stopCause(ctx, runCtx context.Context, stopped error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if stopped != nil {
		return stopped
	}
	return context.Cause(runCtx)
}
