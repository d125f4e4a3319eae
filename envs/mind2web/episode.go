package mind2web

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/memharness/memharness/envs"
)

// Episode is one teacher-forced pass over a task's gold steps.
type Episode struct {
	s       *Suite
	rec     *Record
	next    int // index of the gold step the agent answers next
	results []StepResult
	first   string
	page    string // observation of step next
	done    bool
}

var _ envs.Episode = (*Episode)(nil)

func newEpisode(s *Suite, r *Record) *Episode {
	e := &Episode{s: s, rec: r}
	var sb strings.Builder
	fmt.Fprintf(&sb, "Task: %s\nTrajectory:\n", r.ConfirmedTask)
	sb.WriteString(e.advance(0))
	e.first = sb.String()
	return e
}

// advance moves to the first step at or after i the agent can be shown,
// recording skipped ones, and returns the text describing them and the
// next page (or the end of the episode).
func (e *Episode) advance(i int) string {
	var sb strings.Builder
	for ; i < len(e.rec.Actions); i++ {
		p := e.s.plan(e.rec, i)
		if p.reachable {
			e.next = i
			e.page = e.render(i, p)
			fmt.Fprintf(&sb, "Observation: `%s`", e.page)
			return sb.String()
		}
		e.results = append(e.results, StepResult{Index: i, Gold: p.gold.String()})
		fmt.Fprintf(&sb, "Step %d skipped: its target element is not among the top %d candidates (gold action: `%s` (%s)).\n",
			i+1, e.s.cfg.TopK, p.gold, e.rec.ActionReprs[i])
	}
	e.next, e.done = len(e.rec.Actions), true
	m := e.Metrics()
	fmt.Fprintf(&sb, "Episode finished: %d of %d steps correct, task success %v.", countOK(e.results), m.Steps, m.TaskSuccess)
	return sb.String()
}

// render is the pruned page of step i; a page that cannot be parsed is
// shown as its candidate list so the episode goes on.
func (e *Episode) render(i int, p stepPlan) string {
	obs, _, err := observe(e.rec.Actions[i].CleanedHTML, p.shown)
	if err == nil {
		return obs
	}
	var parts []string
	for _, id := range p.shown {
		parts = append(parts, fmt.Sprintf("<element id=%s />", id))
	}
	return "<html> " + strings.Join(parts, " ") + " </html>"
}

func countOK(rs []StepResult) int {
	n := 0
	for _, r := range rs {
		if r.StepSuccess {
			n++
		}
	}
	return n
}

// Observation is the task and the first page.
func (e *Episode) Observation() string { return e.first }

// Step scores one answer against the current gold step and moves on to
// the next one whatever the answer (teacher forcing). An unparsable answer
// is an invalid step that counts as wrong.
func (e *Episode) Step(ctx context.Context, action string) (envs.Step, error) {
	if err := ctx.Err(); err != nil {
		return envs.Step{}, err
	}
	if e.done {
		return envs.Step{Observation: "The episode is over.", Done: true, Invalid: true}, nil
	}
	i := e.next
	p := e.s.plan(e.rec, i)
	var res StepResult
	var perr error
	if e.s.synapseScoring {
		res = scoreSynapseStep(action, p.gold)
		if !ParseSynapseAct(action).Matched {
			perr = errors.New("no [id] in the action (Synapse's parse_act_str pattern)")
		}
	} else {
		act, err := ParseAction(action)
		var pred *Act
		if err == nil {
			pred = &act
		}
		perr = err
		res = scoreStep(pred, p.gold, p.positives)
	}
	res.Index = i
	e.results = append(e.results, res)

	var sb strings.Builder
	if perr != nil {
		fmt.Fprintf(&sb, "Invalid action: %v.\n", perr)
	}
	fmt.Fprintf(&sb, "Gold action: `%s` (%s)\n", p.gold, e.rec.ActionReprs[i])
	sb.WriteString(e.advance(i + 1))

	info := map[string]any{
		"step": i, "gold": res.Gold, "predicted": res.Predicted,
		"element_acc": res.ElementAcc, "action_f1": res.ActionF1, "step_success": res.StepSuccess,
		"ranker": p.ranked.source,
	}
	if e.done {
		info["metrics"] = e.Metrics()
	}
	st := envs.Step{Observation: sb.String(), Done: e.done, Info: info, Invalid: perr != nil}
	if res.StepSuccess {
		st.Reward = 1
	}
	return st, nil
}

// Done reports whether every gold step has been played.
func (e *Episode) Done() bool { return e.done }

// Score is task success: 1 once every gold step was answered exactly.
func (e *Episode) Score() float64 {
	if e.done && e.Metrics().TaskSuccess {
		return 1
	}
	return 0
}

// Metrics are the step-level scores so far over all of the task's steps.
func (e *Episode) Metrics() Metrics { return summarize(len(e.rec.Actions), e.results) }

// Results are the per-step scores so far.
func (e *Episode) Results() []StepResult { return append([]StepResult(nil), e.results...) }

// Close releases nothing: the episode holds no resources.
func (e *Episode) Close() error { return nil }
