package behaviorrun

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/memharness/memharness/accounting"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runrecord"
)

// Run is one behaviour-prediction run on a store; its methods are the
// stages, called in order: Plan, Predict (which builds each user's memory
// on its first sample), Account, Finish, then Report.
type Run struct {
	st Store
	// units are the (method, user) pairs of the last Plan.
	units []*unit
	// locks serialise the methods that share a user's construction.
	locks *keyedLocks
	draws Draws
}

// Draws says how many times each question is asked (eval.repeats) and the
// seed later draws derive theirs from (see llm.WithRepeat).
type Draws struct {
	// N is the draws per question; 0 and 1 both mean one.
	N int
	// Seed is the base of the later draws' seeds: the configured default
	// seed, else the run seed.
	Seed int64
}

func (d Draws) n() int { return max(1, d.N) }

// WithDraws makes r ask each question d.N times; it returns r.
func (r *Run) WithDraws(d Draws) *Run {
	r.draws = d
	return r
}

// New starts a run on st. The caller has opened the store and checked that
// it holds this config's run.
func New(st Store) *Run { return &Run{st: st, locks: newKeyedLocks()} }

// Plan is the run's samples.
type Plan struct {
	// Order is every sample ID in plan order (the order of samples.jsonl).
	Order []string
	// Jobs are the samples not yet stored, in plan order.
	Jobs []Job
}

// Already is how many planned samples the store holds from earlier runs.
func (p Plan) Already() int { return len(p.Order) - len(p.Jobs) }

// Job is one sample to compute.
type Job struct {
	ID   string
	Inst *behavior.Instance
	// Repeat is which draw of the question this is (0: the first).
	Repeat int
	u      *unit
	// wait, when set, is closed once the question whose prompt this one's
	// extends is answered (issueOrder); answered is this job's own, closed
	// when it is done, however it ends.
	wait, answered chan struct{}
}

// unit is one (method, user) pair: its samples share a memory, built once.
type unit struct {
	method predict.Method
	env    predict.Env // the run's env with the method's checkpoints
	user   *behavior.UserSet
	once   sync.Once
	mem    predict.Memory
	err    error
	// retryBudget bounds the retry waits of the user's memory construction.
	retryBudget time.Duration
}

// SampleID is a sample's stable ID, "<method>/<instance ID>": the plan's
// order key, shared by the run and by bench merge. A later draw of the same
// question (eval.repeats) is stored as "<method>/<instance ID>#r<draw>"
// (llm.RepeatName).
func SampleID(m predict.Method, inst *behavior.Instance) string { return m.Name() + "/" + inst.ID }

// Plan lists every (method, instance), ordered by method then user so that
// a user's calls run close together (prefix-cache reuse on real servers).
// users is the run's slice of users (a shard's, or all). retryBudget bounds
// the retry waits of one user's memory construction.
func (r *Run) Plan(methods []predict.Method, users []behavior.UserSet, env predict.Env, retryBudget time.Duration) Plan {
	var p Plan
	for _, m := range methods {
		menv := env
		menv.Checkpoints = checkpoints{st: r.st, locks: r.locks}
		for ui := range users {
			u := &unit{method: m, env: menv, user: &users[ui], retryBudget: retryBudget}
			r.units = append(r.units, u)
			for ii := range u.user.Instances {
				inst := &u.user.Instances[ii]
				for rep := range r.draws.n() {
					id := llm.RepeatName(SampleID(m, inst), rep)
					p.Order = append(p.Order, id)
					if !r.st.Done(id) {
						p.Jobs = append(p.Jobs, Job{u: u, Inst: inst, ID: id, Repeat: rep})
					}
				}
			}
		}
	}
	return p
}

// Account writes usage.json from the store's usage journal and returns the
// totals by purpose (the accounting path the lifelong run shares); check
// them with accounting.CheckInvalid.
func (r *Run) Account(priced bool) (map[string]runrecord.MethodUsage, error) {
	return accounting.WriteUsage(r.st, priced)
}

// Finish compacts the sample log into plan order and counts the stored
// samples.
func (r *Run) Finish(order []string) (done, errored int, err error) {
	if err := r.st.Compact(order); err != nil {
		return 0, 0, err
	}
	done, errored = r.st.Counts()
	return done, errored, nil
}

// EmptyMemories lists, per method, the planned users whose stored memory
// is empty (sorted; nil when none): a warning for the manifest and the
// report. It reads the stored memories, not what this process built, so a
// resumed run that rebuilt nothing warns as the first one did.
func (r *Run) EmptyMemories() (map[string][]string, error) {
	var out map[string][]string
	for _, u := range r.units {
		var mem predict.Memory
		ok, err := r.st.ReadJSON(MemoryPath(u.method.Name(), u.user.User), &mem)
		if err != nil {
			return nil, err
		}
		if !ok || !MemoryEmpty(mem) {
			continue
		}
		if out == nil {
			out = map[string][]string{}
		}
		out[u.method.Name()] = append(out[u.method.Name()], u.user.User)
	}
	for m := range out {
		slices.Sort(out[m])
		out[m] = slices.Compact(out[m])
	}
	return out, nil
}

// Report writes the run directory's report and returns the paths written.
func Report(dir string, opts reports.Options) ([]string, error) {
	arts, err := reports.Write(dir, opts)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	var paths []string
	for _, a := range arts.Files {
		paths = append(paths, a.Path)
	}
	return paths, nil
}

// PlanOrder is every sample ID of methods over users in plan order (the
// order of samples.jsonl), as Plan lays it out for draws draws per
// question; a shard merge rebuilds it without a model.
func PlanOrder(methods []predict.Method, users []behavior.UserSet, draws int) []string {
	var order []string
	for _, m := range methods {
		for _, u := range users {
			for i := range u.Instances {
				for rep := range max(1, draws) {
					order = append(order, llm.RepeatName(SampleID(m, &u.Instances[i]), rep))
				}
			}
		}
	}
	return order
}
