package prediction

import (
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/memharness/memharness/accounting"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runlog"
)

// Run is one behaviour-prediction run on a store; its methods are the
// stages, called in order: Plan, Predict (which builds each user's memory
// on its first sample), Account, Finish, then Report.
type Run struct {
	st    Store
	empty emptyMemories
}

// New starts a run on st. The caller has opened the store and checked that
// it holds this config's run.
func New(st Store) *Run { return &Run{st: st} }

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
	u    *unit
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
// order key, shared by the run and by bench merge.
func SampleID(m predict.Method, inst *behavior.Instance) string { return m.Name() + "/" + inst.ID }

// Plan lists every (method, instance), ordered by method then user so that
// a user's calls run close together (prefix-cache reuse on real servers).
// users is the run's slice of users (a shard's, or all). retryBudget bounds
// the retry waits of one user's memory construction.
func (r *Run) Plan(methods []predict.Method, users []behavior.UserSet, env predict.Env, retryBudget time.Duration) Plan {
	var p Plan
	for _, m := range methods {
		menv := env
		menv.Checkpoints = checkpoints{st: r.st}
		for ui := range users {
			u := &unit{method: m, env: menv, user: &users[ui], retryBudget: retryBudget}
			for ii := range u.user.Instances {
				inst := &u.user.Instances[ii]
				id := SampleID(m, inst)
				p.Order = append(p.Order, id)
				if !r.st.Done(id) {
					p.Jobs = append(p.Jobs, Job{u: u, Inst: inst, ID: id})
				}
			}
		}
	}
	return p
}

// Account writes usage.json from the store's usage journal and returns the
// totals by purpose (the accounting path the lifelong run shares); check
// them with accounting.CheckInvalid.
func (r *Run) Account(priced bool) (map[string]runlog.MethodUsage, error) {
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

// EmptyMemories lists, per method, the users whose memory came out empty in
// this process (sorted; nil when none): a warning for the manifest and the
// report.
func (r *Run) EmptyMemories() map[string][]string { return r.empty.byMethod() }

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

// emptyMemories collects, per method, the users whose memory came out empty.
type emptyMemories struct {
	mu sync.Mutex
	by map[string][]string
}

func (e *emptyMemories) add(method, user string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.by == nil {
		e.by = map[string][]string{}
	}
	e.by[method] = append(e.by[method], user)
}

func (e *emptyMemories) byMethod() map[string][]string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.by) == 0 {
		return nil
	}
	out := map[string][]string{}
	for _, m := range slices.Sorted(maps.Keys(e.by)) {
		out[m] = slices.Sorted(slices.Values(e.by[m]))
	}
	return out
}
