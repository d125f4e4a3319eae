package mind2web

import (
	"context"
	"fmt"

	"github.com/memharness/memharness/envs"
)

// EnvName is the registry name of the environment.
const EnvName = "mind2web"

// Suite is the Mind2Web environment over a set of task records.
type Suite struct {
	cfg      Config
	split    string
	recs     []*Record
	byID     map[string]*Record
	scores   *scoreTable
	tasks    []envs.Task
	maxSteps int
	// synapseScoring: steps are scored on the action string as Synapse's
	// eval_sample scores them (UseSynapseScoring).
	synapseScoring bool
}

// UseSynapseScoring makes every later episode score a step the way
// Synapse's Mind2Web evaluation does, on the action string the agent hands
// over (the reply's first backtick span, as its extract_from_response
// gives): parse_act_str's pattern for element and operation F1, and the
// string itself, not its canonical form, for step success. Synapse's
// prompter sets it, so that a run with the source's prompt is scored by
// the source's rule; the default keeps the harness's lenient canonical
// comparison (doc.go).
func (s *Suite) UseSynapseScoring() { s.synapseScoring = true }

var (
	_ envs.Suite  = (*Suite)(nil)
	_ envs.Oracle = (*Suite)(nil)
)

func newSuite(recs []*Record, sc *scoreTable, cfg Config, split string) (*Suite, error) {
	s := &Suite{cfg: cfg.withDefaults(), split: split, recs: recs, scores: sc, byID: map[string]*Record{}}
	for _, r := range recs {
		s.byID[r.AnnotationID] = r
		s.tasks = append(s.tasks, envs.Task{
			ID: r.AnnotationID, Env: EnvName, Split: split,
			Instruction: r.ConfirmedTask,
			// Synapse keys its exemplars on the specifier, and LifeMem's
			// Mind2Web trajectories carry it as their task.
			Key: r.Specifier(),
			// Longer action sequences are harder (LifeMem's easy→hard order).
			Difficulty: len(r.Actions),
			Data:       r,
		})
		s.maxSteps = max(s.maxSteps, len(r.Actions))
	}
	if len(s.tasks) == 0 {
		return nil, fmt.Errorf("mind2web: no tasks")
	}
	return s, nil
}

// Name is the registry name.
func (s *Suite) Name() string { return EnvName }

// Tasks lists the tasks in file order.
func (s *Suite) Tasks() []envs.Task { return append([]envs.Task(nil), s.tasks...) }

// MaxSteps is the longest gold action sequence: the paper sets no limit and
// an episode ends by itself after its last gold step.
func (s *Suite) MaxSteps() int { return s.maxSteps }

// Record returns a task's record.
func (s *Suite) Record(id string) (*Record, bool) {
	r, ok := s.byID[id]
	return r, ok
}

// TopK is the number of candidates shown per page (negative: all).
func (s *Suite) TopK() int { return s.cfg.TopK }

func (s *Suite) record(t envs.Task) (*Record, error) {
	r, ok := s.byID[t.ID]
	if !ok {
		return nil, fmt.Errorf("mind2web: unknown task %q", t.ID)
	}
	return r, nil
}

// NewEpisode starts a task. It needs no model: scoring is offline.
func (s *Suite) NewEpisode(ctx context.Context, t envs.Task, _ envs.Options) (envs.Episode, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r, err := s.record(t)
	if err != nil {
		return nil, err
	}
	return newEpisode(s, r), nil
}

// Gold returns the gold action of every step the agent is shown, in order
// (steps whose gold element is outside the top k are skipped by the
// episode, as in Synapse, and have no action here).
func (s *Suite) Gold(t envs.Task) ([]string, error) {
	r, err := s.record(t)
	if err != nil {
		return nil, err
	}
	var out []string
	for i := range r.Actions {
		p := s.plan(r, i)
		if p.reachable {
			out = append(out, p.gold.String())
		}
	}
	return out, nil
}

// Stats counts what the top-k cut leaves reachable.
type Stats struct {
	Tasks int `json:"tasks"`
	Steps int `json:"steps"`
	// Unreachable steps have no positive candidate within the top k; tasks
	// containing one cannot succeed.
	Unreachable      int            `json:"unreachable_steps"`
	UnreachableTasks int            `json:"unreachable_tasks"`
	Rankers          map[string]int `json:"rankers"` // steps per rank source
}

// Stats reports reachability over all tasks.
func (s *Suite) Stats() Stats {
	st := Stats{Tasks: len(s.recs), Rankers: map[string]int{}}
	for _, r := range s.recs {
		bad := false
		for i := range r.Actions {
			p := s.plan(r, i)
			st.Steps++
			st.Rankers[p.ranked.source]++
			if !p.reachable {
				st.Unreachable++
				bad = true
			}
		}
		if bad {
			st.UnreachableTasks++
		}
	}
	return st
}

// UnreachableSteps lists the 0-based steps of a task whose gold element is
// outside the top k (nil for an unknown task).
func (s *Suite) UnreachableSteps(id string) []int {
	r, ok := s.byID[id]
	if !ok {
		return nil
	}
	var out []int
	for i := range r.Actions {
		if !s.plan(r, i).reachable {
			out = append(out, i)
		}
	}
	return out
}

// stepPlan is what one gold step shows and expects.
type stepPlan struct {
	gold      Act
	shown     []string        // candidate ids within the top k, best first
	positives map[string]bool // positive ids within the top k
	reachable bool
	ranked    ranked
}

// plan ranks a step's candidates and fixes its gold action. The gold
// element is the first positive candidate, as in Synapse's target action.
func (s *Suite) plan(r *Record, i int) stepPlan {
	a := &r.Actions[i]
	rk := rankStep(r, a, s.scores)
	p := stepPlan{ranked: rk, shown: rk.topK(s.cfg.TopK), positives: map[string]bool{}}
	for _, id := range p.shown {
		if rk.pos[id] {
			p.positives[id] = true
		}
	}
	p.reachable = len(p.positives) > 0
	op := Op(a.Operation.Op)
	p.gold = Act{Op: op, Value: a.Operation.Value, HasValue: op != Click}
	if len(a.PosCandidates) > 0 {
		p.gold.ID = a.PosCandidates[0].BackendNodeID
	}
	return p
}
