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

// processMemory is a method whose memory lives in a process of its own
// (an external method's child), built from the requests the harness sent
// it: a rehearsed user's memory cannot stand in for another user's there
// (the process holds nothing for that user), so every user of it whose
// construction asks the model is rehearsed.
type processMemory interface{ MemoryInOwnProcess() bool }

// Unbuilt is a method whose memory a plan must not build: building it
// starts processes or writes to a service (an MCP memory server per user).
// The plan starts nothing for it: the memory is the one PlanMemory says,
// with no construction calls, and each question's requests come from
// PlanPredict, which stands in for what the method would retrieve.
type Unbuilt interface {
	// PlanMemory is u's memory as the plan sees it, and a note on what the
	// plan leaves out of the method's costs ("" for none).
	PlanMemory(u behavior.UserSet) (mem predict.Memory, note string)
	// PlanPredict sends inst's requests as Predict would, from mem,
	// without reaching the method's processes or services.
	PlanPredict(ctx context.Context, env predict.Env, mem predict.Memory, inst behavior.Instance) (predict.Outcome, error)
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
	// order: method, user, instance), and for each sample the one it is
	// held back for until answered (-1: none); nil keeps the file order.
	Order func(users []string, records []int, methods []string) (order, after []int)
	// BuildOrder, when set, is the order the harness builds the (method,
	// user) memories in, before any question goes out (indices into the
	// file order: method, then user); nil builds each memory at its user's
	// first sample, in the question order.
	BuildOrder func(users, methods []string) []int
	// Workers is how many builds run at once (eval.concurrency): each
	// builds one memory call after call, so the plan interleaves the
	// construction calls of that many memories.
	Workers int
	// Draws is how many times each question is asked (eval.repeats; 0 and
	// 1 mean once): the answering calls are multiplied, construction not.
	Draws int
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
		unit         int // index into units
	}
	var samples []sample
	// units are the (method, user) memories in file order, with their
	// construction calls.
	type unit struct {
		user, method string
		build        []Call
		// resumes are the methods whose construction of the user this
		// one resumes (a shared checkpoint namespace): it is sent after
		// theirs, as the run's lock on the construction makes it.
		resumes map[string]bool
	}
	var units []unit
	rehearsed := false
	picks := rehearsalPicks(p.Users, rehearse)
	saved := memCheckpoints{}
	savers := map[[2]string]string{}
	var wholeNotes []string
	for _, m := range p.Methods {
		pm, ok := m.(processMemory)
		whole := ok && pm.MemoryInOwnProcess()
		// played counts the users rehearsed; lent, those of them rehearsed
		// only because the method's memory cannot be lent.
		played, lent, unplanned := 0, 0, 0
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
		userBuilds := make([][]Call, len(p.Users))
		unbuilt, _ := m.(Unbuilt)
		resumes := map[string]bool{}
		for _, ui := range users {
			u := p.Users[ui]
			var mem predict.Memory
			var err error
			exact := false
			if unbuilt != nil {
				var note string
				mem, note = unbuilt.PlanMemory(u)
				exact = true
				if note != "" && !slices.Contains(notes, note) {
					notes = append(notes, note)
				}
			} else {
				// A probe with a model that refuses every call: a method that
				// asks none builds its memory exactly here (memory-less
				// methods, BM25 retrieval).
				rec := &recorder{}
				env := p.Env
				env.Model, env.BuildModel, env.Checkpoints = rec, nil, nil
				mem, err = m.PrepareUser(ctx, env, u)
				exact = err == nil && len(rec.calls) == 0
				if err != nil && !errors.Is(err, errPlanned) {
					return nil, nil, nil, fmt.Errorf("plan %s: user %s: %w", m.Name(), u.User, err)
				}
			}
			env := p.Env
			env.BuildModel, env.Checkpoints = nil, nil
			var userBuild []Call
			switch {
			case exact:
			case p.StandIn == nil && whole:
				// Without a stand-in the process never builds the user's
				// memory, so its predictions cannot be asked either.
				unplanned++
				userBuilds[ui] = nil
				continue
			case p.StandIn == nil:
				mem = predict.Memory{}
			case picks.isRehearsed(ui) || whole:
				played++
				if !picks.isRehearsed(ui) {
					lent++
				}
				rec := &recorder{next: p.StandIn}
				env.Model, env.Checkpoints = rec, resuming{memCheckpoints: saved, savers: savers, method: m.Name(), resumes: resumes}
				mem, err = m.PrepareUser(ctx, env, u)
				if err != nil {
					return nil, nil, nil, fmt.Errorf("plan %s: rehearsing user %s: %w", m.Name(), u.User, err)
				}
				rehearsed = true
				for _, r := range rec.calls {
					userBuild = append(userBuild, p.call(m.Name(), p.BuildModel, r, count, true, !p.NoPrefix))
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
						// Its prompt is another user's: the prefix-cache
						// model cannot place it.
						c.Chain = nil
						userBuild = append(userBuild, c)
					}
				}
			}
			userBuilds[ui] = userBuild
			for ii := range u.Instances {
				inst := u.Instances[ii]
				s := sample{user: inst.User, record: inst.Index, method: m.Name()}
				rec := &recorder{next: p.StandIn}
				env := p.Env
				env.Model, env.BuildModel, env.Checkpoints = &purposeGate{rec: rec, stop: predict.PurposePredict}, nil, nil
				var err error
				if unbuilt != nil {
					_, err = unbuilt.PlanPredict(ctx, env, mem, inst)
				} else {
					_, err = m.Predict(ctx, env, mem, inst)
				}
				if err != nil && !errors.Is(err, errPlanned) {
					return nil, nil, nil, fmt.Errorf("plan %s: %s: %w", m.Name(), inst.ID, err)
				}
				for _, r := range rec.calls {
					s.calls = append(s.calls, p.call(m.Name(), p.EvalModel, r, count, !exact || r.Purpose != predict.PurposePredict, !p.NoPrefix))
				}
				for range max(1, p.Draws) {
					perUser[ui] = append(perUser[ui], s)
				}
			}
		}
		if lent > 0 {
			wholeNotes = append(wholeNotes, fmt.Sprintf("%s keeps its memory in its own process, where one user's memory cannot stand in for another's: "+
				"all %d of its users whose construction asks the model were played through on the sim", m.Name(), played))
		}
		if unplanned > 0 {
			wholeNotes = append(wholeNotes, fmt.Sprintf("%s keeps its memory in its own process and no stand-in backbone played its construction: "+
				"the calls of %d of its users (construction and predictions) are not in this plan", m.Name(), unplanned))
		}
		for ui, ss := range perUser {
			units = append(units, unit{user: p.Users[ui].User, method: m.Name(), build: userBuilds[ui], resumes: resumes})
			for _, smp := range ss {
				smp.unit = len(units) - 1
				samples = append(samples, smp)
			}
		}
	}
	users := make([]string, len(samples))
	methods := make([]string, len(samples))
	records := make([]int, len(samples))
	for i, s := range samples {
		users[i], records[i], methods[i] = s.user, s.record, s.method
	}
	order := make([]int, len(samples))
	after := make([]int, len(samples))
	for i := range order {
		order[i], after[i] = i, -1
	}
	if p.Order != nil {
		order, after = p.Order(users, records, methods)
	}
	sch := Schedule{Order: order, After: after, Workers: p.Workers,
		Units: make([]Unit, len(units)), Samples: make([]Sample, len(samples))}
	for i, u := range units {
		sch.Units[i] = Unit{User: u.user, Method: u.method, Build: u.build}
	}
	for i, smp := range samples {
		sch.Samples[i] = Sample{User: smp.user, Method: smp.method, Record: smp.record, Calls: smp.calls, Unit: smp.unit}
	}
	if p.BuildOrder != nil {
		uu := make([]string, len(units))
		um := make([]string, len(units))
		for i, u := range units {
			uu[i], um[i] = u.user, u.method
		}
		sch.BuildOrder = p.BuildOrder(uu, um)
		// A unit that resumes other units' construction of its user waits
		// for the last of them (units are in rehearsal order).
		sch.Waits = make([]int, len(units))
		for i, u := range units {
			sch.Waits[i] = -1
			for j := range i {
				if units[j].user == u.user && u.resumes[units[j].method] && len(units[j].build) > 0 {
					sch.Waits[i] = j
				}
			}
		}
	}
	calls, file = sch.Sequence()
	notes = append(notes, fmt.Sprintf("predict: one call per sample; an invalid answer is redrawn up to %d times (eval.max_attempts), which the plan does not count", attempts))
	if rehearsed {
		notes = append(notes, fmt.Sprintf("memory construction (and the memory block it puts into prompts) depends on model answers: "+
			"played through for up to %d user(s) per method on the offline sim backbone (no endpoint called) and scaled to every user", rehearse))
	}
	notes = append(notes, wholeNotes...)
	return calls, file, notes, nil
}

// call turns a recorded request into a planned call.
func (p Predict) call(method, model string, r llm.Request, count tokens.Counter, estimated, chained bool) Call {
	return RequestCall(method, model, r, count, p.blockOr(), estimated, chained)
}

// RequestCall is the planned call of request r (sent by method to model):
// its prompt tokens under count (every message's) and, when chained, its
// block chain at block tokens (a nil chain leaves the call out of the
// prefix-cache model, which names it among the unmodelled calls).
func RequestCall(method, model string, r llm.Request, count tokens.Counter, block int, estimated, chained bool) Call {
	c := Call{Method: method, Purpose: r.Purpose, Model: model, MaxCompletion: r.Params.MaxTokens, Estimated: estimated}
	if c.Purpose == "" {
		c.Purpose = llm.NoPurpose
	}
	if block <= 0 {
		block = prefixcache.DefaultBlock
	}
	ch := prefixcache.Chainer{Block: block}
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

// interleave is the issue order of construction calls when workers
// memories are built at once, each call after call: units are taken in
// order, one per free worker, and the workers issue their next calls in
// turn. A unit u with waits[u] >= 0 is taken only once that unit's calls
// are all issued (nil waits: none waits). Each element is (unit, call
// index).
func interleave(builds [][]Call, order []int, workers int, waits []int) [][2]int {
	var out [][2]int
	type slot struct{ unit, next int }
	var slots []slot
	done := make([]bool, len(builds))
	var queue []int
	for _, u := range order {
		if len(builds[u]) > 0 {
			queue = append(queue, u)
		} else {
			done[u] = true
		}
	}
	for {
		rest := queue[:0]
		for _, u := range queue {
			if len(slots) < workers && (waits == nil || waits[u] < 0 || done[waits[u]]) {
				slots = append(slots, slot{unit: u})
			} else {
				rest = append(rest, u)
			}
		}
		queue = rest
		if len(slots) == 0 {
			return out
		}
		kept := slots[:0]
		for _, s := range slots {
			out = append(out, [2]int{s.unit, s.next})
			if s.next++; s.next < len(builds[s.unit]) {
				kept = append(kept, s)
			} else {
				done[s.unit] = true
			}
		}
		slots = kept
	}
}
