package planner

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/internal/prefixcache"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/tokens"
	"github.com/memharness/memharness/methods/predict"
)

// errPlanned ends a method's call once the planner has recorded it: the
// request is all a plan needs.
var errPlanned = errors.New("planner: call recorded, not sent")

// recorder is the model a planned method sees: it records each request
// and, when next is nil, refuses it (nothing is sent anywhere).
type recorder struct {
	next  llm.Model
	calls []llm.Request
}

func (r *recorder) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	r.calls = append(r.calls, req)
	if r.next == nil {
		return llm.Response{}, errPlanned
	}
	return r.next.Generate(ctx, req)
}

// Predict is what a behaviour-prediction plan is built from: the run's
// methods, users (a shard's or all) and env, as the runner would use them.
type Predict struct {
	Methods []predict.Method
	Users   []behavior.UserSet
	// Env is the run's env; its Model and BuildModel are replaced.
	Env predict.Env
	// EvalModel and BuildModel name the models answering predictions and
	// memory construction (for prices and the table).
	EvalModel, BuildModel string
	// Stand-in answers a rehearsal's construction calls: the offline sim
	// backbone (no endpoint is called). Memory construction depends on the
	// answers, so the construction of Rehearse users per method is played
	// through on it and scaled to every user; nil leaves construction out.
	StandIn  llm.Model
	Rehearse int
	// Counter counts prompt tokens as the meter sees them (tokens.Approx on
	// the sim backbone); nil means tokens.Approx.
	Counter tokens.Counter
	// Block is the prefix-cache block size the chains are cut at.
	Block int
	// NoPrefix leaves the prompts' block chains out (the prefix-cache
	// model then sees nothing): a plan that only counts is much cheaper.
	NoPrefix bool
	// Order, when set, is the harness's issue order of the samples given
	// each sample's user, test record and method (indices into the file
	// order: method, user, instance); nil keeps the file order.
	Order func(users []string, records []int, methods []string) []int
}

// Calls lists the plan's calls in the harness's order and the file order
// as indices into them, with the estimate notes.
func (p Predict) Calls(ctx context.Context) (calls []Call, file []int, notes []string, err error) {
	count := p.Counter
	if count == nil {
		count = tokens.Approx{}
	}
	rehearse := max(1, p.Rehearse)
	attempts := p.Env.MaxAttempts
	if attempts <= 0 {
		attempts = predict.DefaultMaxAttempts
	}
	// Per sample (file order): its predict call, preceded by the user's
	// construction calls on the user's first sample.
	type sample struct {
		user, method string
		record       int
		calls        []Call
	}
	var samples []sample
	rehearsed := false
	picks := rehearsalPicks(p.Users, rehearse)
	saved := memCheckpoints{}
	for _, m := range p.Methods {
		// Construction calls and memory of the rehearsed users, by index.
		mems := map[int]predict.Memory{}
		build := map[int][]Call{}
		// The rehearsed users come first so the others can borrow theirs.
		users := make([]int, 0, len(p.Users))
		for ui := range p.Users {
			if _, ok := picks.rehearsed[ui]; ok {
				users = append(users, ui)
			}
		}
		for ui := range p.Users {
			if _, ok := picks.rehearsed[ui]; !ok {
				users = append(users, ui)
			}
		}
		perUser := make([][]sample, len(p.Users))
		for _, ui := range users {
			u := p.Users[ui]
			// A probe with a model that refuses every call: a method that
			// asks none builds its memory exactly here (memory-less methods,
			// BM25 retrieval).
			rec := &recorder{}
			env := p.Env
			env.Model, env.BuildModel, env.Checkpoints = rec, nil, nil
			mem, err := m.PrepareUser(ctx, env, u)
			exact := err == nil && len(rec.calls) == 0
			if err != nil && !errors.Is(err, errPlanned) {
				return nil, nil, nil, fmt.Errorf("plan %s: user %s: %w", m.Name(), u.User, err)
			}
			var userBuild []Call
			switch {
			case exact:
			case p.StandIn == nil:
				mem = predict.Memory{}
			case picks.isRehearsed(ui):
				rec := &recorder{next: p.StandIn}
				env.Model, env.Checkpoints = rec, saved
				mem, err = m.PrepareUser(ctx, env, u)
				if err != nil {
					return nil, nil, nil, fmt.Errorf("plan %s: rehearsing user %s: %w", m.Name(), u.User, err)
				}
				rehearsed = true
				for _, r := range rec.calls {
					userBuild = append(userBuild, p.call(m.Name(), p.BuildModel, r, count, true, false))
				}
				mems[ui], build[ui] = mem, userBuild
			default:
				// Not rehearsed: the rehearsed user nearest in practice
				// history lends its memory block.
				// Memory answers vary from user to user, so its calls are
				// the mean of every rehearsed user's (each weighted 1/n).
				k := picks.standIn[ui]
				mem = mems[k]
				for _, calls := range build {
					for _, c := range calls {
						c.Weight = c.weight() / float64(len(build))
						userBuild = append(userBuild, c)
					}
				}
			}
			for ii := range u.Instances {
				inst := u.Instances[ii]
				s := sample{user: inst.User, record: inst.Index, method: m.Name()}
				if ii == 0 {
					s.calls = append(s.calls, userBuild...)
				}
				rec := &recorder{next: p.StandIn}
				env := p.Env
				env.Model, env.BuildModel, env.Checkpoints = &purposeGate{rec: rec, stop: predict.PurposePredict}, nil, nil
				_, err := m.Predict(ctx, env, mem, inst)
				if err != nil && !errors.Is(err, errPlanned) {
					return nil, nil, nil, fmt.Errorf("plan %s: %s: %w", m.Name(), inst.ID, err)
				}
				for _, r := range rec.calls {
					isPredict := r.Purpose == predict.PurposePredict && !p.NoPrefix
					s.calls = append(s.calls, p.call(m.Name(), p.EvalModel, r, count, !exact || r.Purpose != predict.PurposePredict, isPredict))
				}
				perUser[ui] = append(perUser[ui], s)
			}
		}
		for _, ss := range perUser {
			samples = append(samples, ss...)
		}
	}
	users := make([]string, len(samples))
	methods := make([]string, len(samples))
	records := make([]int, len(samples))
	for i, s := range samples {
		users[i], records[i], methods[i] = s.user, s.record, s.method
	}
	order := make([]int, len(samples))
	for i := range order {
		order[i] = i
	}
	if p.Order != nil {
		order = p.Order(users, records, methods)
	}
	// file[i] is the position in calls of the i-th call in file order.
	start := make([]int, len(samples))
	for _, si := range order {
		start[si] = len(calls)
		calls = append(calls, samples[si].calls...)
	}
	for si, s := range samples {
		for k := range s.calls {
			file = append(file, start[si]+k)
		}
	}
	notes = append(notes, fmt.Sprintf("predict: one call per sample; an invalid answer is redrawn up to %d times (eval.max_attempts), which the plan does not count", attempts))
	if rehearsed {
		notes = append(notes, fmt.Sprintf("memory construction (and the memory block it puts into prompts) depends on model answers: "+
			"played through for up to %d user(s) per method on the offline sim backbone (no endpoint called) and scaled to every user", rehearse))
	}
	return calls, file, notes, nil
}

// call turns a recorded request into a planned call.
func (p Predict) call(method, model string, r llm.Request, count tokens.Counter, estimated, chained bool) Call {
	c := Call{Method: method, Purpose: r.Purpose, Model: model, MaxCompletion: r.Params.MaxTokens, Estimated: estimated}
	if c.Purpose == "" {
		c.Purpose = llm.NoPurpose
	}
	ch := prefixcache.Chainer{Block: max(1, p.blockOr())}
	var w float64
	for _, m := range r.Messages {
		c.PromptTokens += count.Count(m.Content)
		if chained {
			approxChain(&ch, m.Content, &w)
		}
	}
	if chained {
		c.Chain = slices.Clip(ch.Chain)
		if c.Chain == nil {
			c.Chain = prefixcache.Chain{}
		}
	}
	return c
}

func (p Predict) blockOr() int {
	if p.Block <= 0 {
		return prefixcache.DefaultBlock
	}
	return p.Block
}

// purposeGate records every request; the prediction itself (purpose stop)
// is refused, any other (a retrieval step at answer time) goes on to the
// stand-in so the prediction is reached.
type purposeGate struct {
	rec  *recorder
	stop string
}

func (g *purposeGate) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	if req.Purpose == g.stop || g.rec.next == nil {
		g.rec.calls = append(g.rec.calls, req)
		return llm.Response{}, errPlanned
	}
	return g.rec.Generate(ctx, req)
}

// picks are the users whose construction is rehearsed and, for every
// other user, the rehearsed one standing in for it.
type picks struct {
	rehearsed map[int]struct{}
	standIn   map[int]int
}

func (p picks) isRehearsed(ui int) bool { _, ok := p.rehearsed[ui]; return ok }

// practiceSize is what a user's memory construction reads: the records
// before the first test action.
func practiceSize(u behavior.UserSet) int {
	if len(u.Instances) == 0 {
		return 0
	}
	return u.Instances[0].PracticeCut
}

// rehearsalPicks chooses n users at evenly spaced quantiles of practice
// history size (construction cost grows with it), and maps every other
// user to the pick nearest in size.
func rehearsalPicks(users []behavior.UserSet, n int) picks {
	idx := make([]int, len(users))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return practiceSize(users[a]) - practiceSize(users[b]) })
	p := picks{rehearsed: map[int]struct{}{}, standIn: map[int]int{}}
	n = min(n, len(users))
	var chosen []int
	for k := 0; k < n; k++ {
		ui := idx[(2*k+1)*len(idx)/(2*n)]
		if _, ok := p.rehearsed[ui]; !ok {
			p.rehearsed[ui] = struct{}{}
			chosen = append(chosen, ui)
		}
	}
	for ui := range users {
		if p.isRehearsed(ui) {
			continue
		}
		best, bestD := -1, 0
		for _, c := range chosen {
			d := practiceSize(users[ui]) - practiceSize(users[c])
			if d < 0 {
				d = -d
			}
			if best < 0 || d < bestD {
				best, bestD = c, d
			}
		}
		p.standIn[ui] = best
	}
	return p
}
