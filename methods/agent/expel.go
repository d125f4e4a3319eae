package agent

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/llm"
)

// PurposeExpeLRules is the Purpose of ExpeL's insight-editor calls.
const PurposeExpeLRules = "expel.rules"

// ExpeL keeps one global list of insights, edited by an LLM with ExpeL's
// operations over batches of successful trajectories, and retrieves
// successful trajectories by task similarity from one shared pool. The
// insights are global, not per workflow: the "generic abstraction" that
// LifeMem contrasts with its per-cluster skills.
type ExpeL struct {
	opts  Options
	state expelState
}

type expelState struct {
	Pool     pool      `json:"pool"`
	Insights []Insight `json:"insights"`
	// Calls and Invalid count editor calls and unusable answers.
	Calls   int `json:"calls"`
	Invalid int `json:"invalid"`
}

// Insight is one rule with ExpeL's importance count: ADD starts it at 2,
// AGREE and EDIT raise it, REMOVE lowers it, and it is dropped at 0.
type Insight struct {
	Text       string `json:"text"`
	Importance int    `json:"importance"`
}

// RuleOp is one parsed editor operation. N is the 1-based rule number it
// names (0 for an ADD without one).
type RuleOp struct {
	Op   string
	N    int
	Text string
}

var ruleOpLine = lazyre.New(`^(?:[-*]\s*|\d+[.)]\s*)?\**(AGREE|REMOVE|EDIT|ADD)\**(?:\s+(?:rule\s*)?#?(\d+))?\s*[:.\-]\s*(.*)$`)

// ParseRuleOps reads an editor answer: one "OP n: text" per line (the
// number is optional for ADD). Other lines are commentary. It fails when no
// line is an operation, or when an operation other than ADD lacks its
// number or an ADD/EDIT lacks its text.
func ParseRuleOps(text string) ([]RuleOp, error) {
	var ops []RuleOp
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		m := ruleOpLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		op := RuleOp{Op: m[1], Text: strings.TrimSpace(m[3])}
		if m[2] != "" {
			n, err := strconv.Atoi(m[2])
			if err != nil {
				return nil, fmt.Errorf("line %d: rule number %q: %w", i+1, m[2], err)
			}
			op.N = n
		}
		if op.Op != "ADD" && op.N <= 0 {
			return nil, fmt.Errorf("line %d: %s needs a rule number: %q", i+1, op.Op, line)
		}
		if (op.Op == "ADD" || op.Op == "EDIT") && op.Text == "" {
			return nil, fmt.Errorf("line %d: %s needs the rule text: %q", i+1, op.Op, line)
		}
		ops = append(ops, op)
	}
	if len(ops) == 0 {
		return nil, errors.New("no AGREE/REMOVE/EDIT/ADD operation")
	}
	return ops, nil
}

// ApplyRuleOps applies ops to the list as the editor saw it (numbers refer
// to that list), drops rules at zero importance and exact duplicates, and
// keeps at most max rules (most important first, then oldest).
func ApplyRuleOps(rules []Insight, ops []RuleOp, max int) []Insight {
	cur := append([]Insight(nil), rules...)
	for _, op := range ops {
		i := op.N - 1
		valid := i >= 0 && i < len(rules)
		switch op.Op {
		case "AGREE":
			if valid {
				cur[i].Importance++
			}
		case "REMOVE":
			if valid {
				cur[i].Importance--
			}
		case "EDIT":
			if valid {
				cur[i].Text = op.Text
				cur[i].Importance++
			}
		case "ADD":
			cur = append(cur, Insight{Text: op.Text, Importance: 2})
		}
	}
	seen := map[string]bool{}
	type ranked struct {
		Insight
		pos int
	}
	var keep []ranked
	for i, r := range cur {
		if r.Importance <= 0 || seen[r.Text] {
			continue
		}
		seen[r.Text] = true
		keep = append(keep, ranked{r, i})
	}
	if max > 0 && len(keep) > max {
		sort.SliceStable(keep, func(a, b int) bool { return keep[a].Importance > keep[b].Importance })
		keep = keep[:max]
		sort.Slice(keep, func(a, b int) bool { return keep[a].pos < keep[b].pos })
	}
	out := make([]Insight, len(keep))
	for i, k := range keep {
		out[i] = k.Insight
	}
	return out
}

// Name implements Method.
func (m *ExpeL) Name() string { return "expel" }

// Learn implements Method: successful trajectories join the pool, and the
// editor reads them in batches to update the insights.
func (m *ExpeL) Learn(ctx context.Context, env Env, batch []Trajectory) error {
	if err := m.state.Pool.add(ctx, env, batch); err != nil {
		return fmt.Errorf("expel: learn: %w", err)
	}
	var succ []Trajectory
	for _, t := range batch {
		if t.Success {
			succ = append(succ, t)
		}
	}
	size := orDefault(m.opts.EditBatch, 8)
	for lo := 0; lo < len(succ); lo += size {
		if err := m.edit(ctx, env, succ[lo:min(lo+size, len(succ))]); err != nil {
			return err
		}
	}
	return nil
}

func (m *ExpeL) edit(ctx context.Context, env Env, batch []Trajectory) error {
	maxRules := orDefault(m.opts.MaxInsights, 20)
	maxOps := orDefault(m.opts.MaxOps, 4)
	texts := make([]string, len(m.state.Insights))
	for i, r := range m.state.Insights {
		texts[i] = r.Text
	}
	views := make([]TrajView, len(batch))
	for i, t := range batch {
		views[i] = viewOf(t)
	}
	prompt := renderEditPrompt(texts, batch, maxOps, maxRules)
	m.state.Calls++
	req := llm.Request{
		Purpose:  PurposeExpeLRules,
		Messages: []llm.Message{{Role: "user", Content: prompt}},
		Params:   env.Sampling.For(SampleReflect, batch[0].Env),
		SampleID: fmt.Sprintf("expel/edit/%d/%s", m.state.Calls, batch[0].ID),
		Hint:     RuleEdit{Rules: texts, Batch: views, MaxOps: maxOps, MaxRules: maxRules},
		Accept:   func(r llm.Response) bool { _, err := ParseRuleOps(r.Text); return err == nil },
	}
	resp, err := env.Distiller().Generate(ctx, req)
	if err != nil {
		return fmt.Errorf("expel: edit: %w", err)
	}
	ops, err := ParseRuleOps(resp.Text)
	if err != nil {
		// An unusable answer leaves the insights as they were; it is
		// counted, not hidden.
		m.state.Invalid++
		return nil
	}
	m.state.Insights = ApplyRuleOps(m.state.Insights, ops, maxRules)
	return nil
}

func viewOf(t Trajectory) TrajView {
	v := TrajView{Env: t.Env, Task: t.Task, Success: t.Success}
	for _, msg := range t.Messages {
		if msg.Role == "assistant" {
			v.Actions = append(v.Actions, msg.Content)
		}
	}
	return v
}

// renderTrajectory writes a trajectory as LifeMem's skill editor shows it.
func renderTrajectory(b *strings.Builder, t Trajectory) {
	b.WriteString("Task Goal: " + t.Task + "\n")
	for _, msg := range t.Messages {
		switch msg.Role {
		case "assistant":
			b.WriteString("Assistant (Action/Thought): " + truncate(msg.Content, DefaultActionChars) + "\n")
		case "user":
			b.WriteString("User (Observation/Input): " + truncate(msg.Content, DefaultObsChars) + "\n")
		}
	}
}

func renderEditPrompt(rules []string, batch []Trajectory, maxOps, maxRules int) string {
	var b strings.Builder
	b.WriteString("You maintain a list of general rules that help an agent solve tasks. Below are successful trials and the current rules.\n\n")
	for i, t := range batch {
		b.WriteString("Trial " + itoa(i+1) + ":\n")
		renderTrajectory(&b, t)
		b.WriteString("\n")
	}
	b.WriteString("Current rules:\n")
	if len(rules) == 0 {
		b.WriteString("(none yet)\n")
	}
	for i, r := range rules {
		b.WriteString(itoa(i+1) + ". " + r + "\n")
	}
	fmt.Fprintf(&b, "\nUpdate the rules so they capture what made these trials succeed. Answer with one operation per line:\n"+
		"AGREE <n>: <rule>   (rule n is confirmed)\nREMOVE <n>: <rule>  (rule n is wrong or redundant)\n"+
		"EDIT <n>: <new text>  (improve rule n)\nADD <n>: <new rule>  (a new rule)\n"+
		"Use at most %d operations other than AGREE and keep at most %d rules. Rules are general, at most two sentences, and never name a specific trial.\n", maxOps, maxRules)
	return b.String()
}

// EndStage implements Method; the insights are updated as batches arrive.
func (m *ExpeL) EndStage(context.Context, Env) error { return nil }

// Insights returns the current rule list.
func (m *ExpeL) Insights() []Insight { return append([]Insight(nil), m.state.Insights...) }

// Agent implements Method: the most important insights form the skills
// block and the k nearest successful trajectories are the exemplars.
func (m *ExpeL) Agent(ctx context.Context, env Env, s envs.Suite, t envs.Task) (envs.Agent, error) {
	return RetrieveThenAct(ctx, s, t, func(ctx context.Context, query string) (envs.Agent, error) {
		ex, err := m.state.Pool.top(ctx, env, query, m.opts.k(2))
		if err != nil {
			return nil, fmt.Errorf("expel: %s: %w", t.ID, err)
		}
		ranked := append([]Insight(nil), m.state.Insights...)
		sort.SliceStable(ranked, func(a, b int) bool { return ranked[a].Importance > ranked[b].Importance })
		rules := make([]string, len(ranked))
		for i, r := range ranked {
			rules[i] = r.Text
		}
		// ExpeL shows its whole insight list (at most MaxInsights long) at
		// evaluation; the shared skills-block cap applies only when set.
		o := m.opts
		if o.MaxRules <= 0 {
			o.MaxRules = max(len(rules), 1)
		}
		return agentFor(m.Name(), o, env, s, ex, rules), nil
	})
}

// Save implements Method.
func (m *ExpeL) Save(_ context.Context, env Env) error { return saveJSON(env, m.Name(), &m.state) }

// Restore implements Method.
func (m *ExpeL) Restore(_ context.Context, env Env) (bool, error) {
	var st expelState
	ok, err := loadJSON(env, m.Name(), &st)
	if ok {
		m.state = st
	}
	return ok, err
}
