package lifemem

import (
	"cmp"
	"encoding/json"
	"fmt"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
	"maps"
	"slices"
	"strings"
	"unicode"
)

// LifeMem's memory-construction calls (methods/agent/lifemem) are answered
// from the trajectories a request shows, in the exact text format the
// prompts ask a real model for, so the method's parsers see real-shaped
// output:
//
//   - LifeMemAssign: a trajectory's "capability" (a crude stand-in for
//     the skill a model would read) is read at the contrast its batch shows.
//     In a batch of one environment, every trajectory shares the
//     environment and the way its tasks end, so what tells them apart is the
//     workflow: the environment plus the verb of the first action
//     ("go_alfworld"). In a batch that mixes environments, the prompt's
//     instruction to group by procedure, not by domain, meets trajectories
//     whose only common ground is how they complete the task: the
//     capability is the verb of the last action ("end_with_finish" for
//     HotpotQA, ToolQA and API-Bank alike, "end_with_click" for WebShop and
//     Mind2Web). A trajectory joins the first candidate cluster whose shown
//     examples mostly share its capability, read the same way ("ADD <label>
//     to <cluster>"), else a cluster created earlier in the same answer,
//     else a new cluster named after the capability ("NEW <cluster> with
//     <label>"). So mixed batches (the random stream) build clusters that
//     span environments, whose rules LifeMem then shows to each of them,
//     and one-environment batches (the similarity and buffer streams) do
//     not; see docs/DESIGN_NOTES.md.
//   - LifeMemSummary: "This cluster is about <envs> tasks that start
//     with <verbs> …", from the shown members.
//   - LifeMemSplit: a deterministic k-means over the members' task
//     vectors (farthest-point seeding, k in MinClusters..MaxClusters picked
//     at the elbow of the within-group error), each group named after the
//     task word that sets it apart; NEW lines first, then ADD lines.
//   - LifeMemRules: every trajectory of the batch yields one pattern
//     rule, "To <last verb> in <env> tasks, first <verb> then <verb>."
//     followed by the first such trajectory's steps in agent.Workflow form
//     (which the agent sim knows how to follow); rules already listed whose
//     pattern the batch shows are AGREEd, the best supported new ones ADDed
//     (support ≥ 2 in batches of 4 or more) within MaxOps and MaxRules.

// Tuning of the LifeMem answers.
const (
	lmElbow      = 0.05 // a further split group must cut this share of the total error
	lmKMeansIter = 25   // Lloyd iterations of the split
	lmTaskRunes  = 80   // task text quoted in a summary
)

// lmSkipVerb reports first words that carry no capability: thoughts and chat.
func lmSkipVerb(v string) bool {
	switch v {
	case "think", "thought", "ok", "okay", "reply":
		return true
	}
	return false
}

// SimReaders are the embedded backbone's readers of LifeMem's construction
// calls: cluster assignment, cluster summaries, splits and the rule editor.
// Acting goes through agent.Act, read by agent.SimReaders.
func SimReaders() []sim.Reader {
	return []sim.Reader{
		sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h LifeMemAssign) (string, error) { return lmAssign(h), nil }),
		sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h LifeMemSummary) (string, error) { return lmSummary(h), nil }),
		sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h LifeMemSplit) (string, error) { return lmSplit(h), nil }),
		sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h LifeMemRules) (string, error) { return lmRules(h), nil }),
	}
}

// ActionVerb returns the lowercase verb of one assistant turn: the tool or
// command it invokes ("search" for "Action 1: Search[x]", "loaddb" for
// "LoadDB[coffee]", "click_xpath" for "agent.click_xpath(...)", the "name"
// of a JSON tool call), or "reply" for free text that invokes nothing.
func ActionVerb(action string) string {
	act := actionText(action)
	if act == "" {
		return "reply"
	}
	if strings.HasPrefix(act, "{") {
		var call struct {
			Name string `json:"name"`
		}
		if json.Unmarshal([]byte(act), &call) == nil && call.Name != "" {
			return strings.ToLower(call.Name)
		}
	}
	act = strings.TrimLeft(act, "[<`'\"(* ")
	end := strings.IndexFunc(act, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.')
	})
	word := act
	if end >= 0 {
		word = act[:end]
	}
	// A call shape ("x(", "x[") or a short command line counts as an action;
	// longer prose is a reply to a person.
	rest := act[len(word):]
	isCall := strings.HasPrefix(rest, "(") || strings.HasPrefix(rest, "[")
	if !isCall && len(strings.Fields(act)) > 8 {
		return "reply"
	}
	if i := strings.LastIndex(word, "."); i >= 0 {
		word = word[i+1:]
	}
	word = strings.ToLower(strings.Trim(word, "._"))
	if word == "" {
		return "reply"
	}
	return word
}

// actionText picks the action out of an assistant turn: the text after an
// "Action:" label (or the block after a bare "Action:" line), the first line
// of a fenced code block, else the last non-empty line.
func actionText(turn string) string {
	lines := strings.Split(strings.TrimSpace(turn), "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		low := strings.ToLower(t)
		if !strings.HasPrefix(low, "action") {
			continue
		}
		j := strings.Index(t, ":")
		if j < 0 || strings.TrimLeft(low[len("action"):j], " 0123456789") != "" {
			continue
		}
		if rest := strings.TrimSpace(t[j+1:]); rest != "" {
			return rest
		}
		return strings.TrimSpace(strings.Join(lines[i+1:], "\n"))
	}
	inFence := false
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") {
			inFence = !inFence
			continue
		}
		if inFence && t != "" {
			return t
		}
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if t := strings.TrimSpace(lines[i]); t != "" && !strings.HasPrefix(t, "```") {
			return t
		}
	}
	return ""
}

// lmVerbs is a trajectory's verb sequence without thoughts and chat, with
// consecutive repeats collapsed.
func lmVerbs(t LifeMemTrajectory) []string {
	var out []string
	for _, a := range t.Actions {
		v := ActionVerb(a)
		if lmSkipVerb(v) || (len(out) > 0 && out[len(out)-1] == v) {
			continue
		}
		out = append(out, v)
	}
	return out
}

// lmCapability is the assignment's stand-in for a trajectory's skill.
func lmCapability(t LifeMemTrajectory) string {
	verb := "act"
	if vs := lmVerbs(t); len(vs) > 0 {
		verb = vs[0]
	}
	return lmSnake(verb + "_" + t.Env)
}

// lmSnake lowercases s and joins its letter/digit runs with underscores.
func lmSnake(s string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			b.WriteRune(r)
			continue
		}
		under = true
	}
	if b.Len() == 0 {
		return "cluster"
	}
	return b.String()
}

// lmMixed reports whether a batch's new trajectories come from more than
// one environment.
func lmMixed(ts []LifeMemTrajectory) bool {
	for _, t := range ts[min(1, len(ts)):] {
		if t.Env != ts[0].Env {
			return true
		}
	}
	return false
}

// lmProcedure is the capability read across environments: the step that
// completes the trajectory (its last verb), which environments share
// (Finish in the QA and tool environments, a click on web pages).
func lmProcedure(t LifeMemTrajectory) string {
	verb := "act"
	if vs := lmVerbs(t); len(vs) > 0 {
		verb = vs[len(vs)-1]
	}
	return lmSnake("end_with_" + verb)
}

func lmAssign(h LifeMemAssign) string {
	// A batch of one environment is read by workflow (environment and
	// first action); a mixed one by the step that completes each
	// trajectory, which environments share (see the header).
	capOf := lmCapability
	if lmMixed(h.Trajectories) {
		capOf = lmProcedure
	}
	// The first shown cluster of each capability (the one most of its
	// shown examples share); clusters created in this answer join them.
	byCap := map[string]string{}
	for _, c := range h.Candidates {
		if k := lmMajority(c.Examples, capOf); k != "" {
			if _, ok := byCap[k]; !ok {
				byCap[k] = c.Name
			}
		}
	}
	var analysis, ops []string
	for _, t := range h.Trajectories {
		k := capOf(t)
		if name, ok := byCap[k]; ok {
			ops = append(ops, fmt.Sprintf("ADD %s to %s", t.Label, name))
			analysis = append(analysis, fmt.Sprintf("%s exercises %s, the skill of %s.", t.Label, k, name))
			continue
		}
		byCap[k] = k
		ops = append(ops, fmt.Sprintf("NEW %s with %s", k, t.Label))
		analysis = append(analysis, fmt.Sprintf("%s exercises %s, which no shown cluster covers.", t.Label, k))
	}
	return lmSections(analysis, ops)
}

// lmMajority is the key that more than half of the examples share (at
// least half of two), or "".
func lmMajority(examples []LifeMemTrajectory, key func(LifeMemTrajectory) string) string {
	counts := map[string]int{}
	best, bestN := "", 0
	for _, ex := range examples {
		k := key(ex)
		counts[k]++
		if counts[k] > bestN {
			best, bestN = k, counts[k]
		}
	}
	if best != "" && 2*bestN > len(examples)-1 {
		return best
	}
	return ""
}

func lmSections(analysis, ops []string) string {
	var b strings.Builder
	b.WriteString("<Analysis>\n")
	for _, l := range analysis {
		b.WriteString(l + "\n")
	}
	b.WriteString("</Analysis>\n<Execution>\n")
	for _, l := range ops {
		b.WriteString(l + "\n")
	}
	b.WriteString("</Execution>")
	return b.String()
}

// lmRank orders counted keys by count, then name.
func lmRank(counts map[string]int) []string {
	keys := slices.Collect(maps.Keys(counts))
	slices.SortFunc(keys, func(a, b string) int {
		if c := cmp.Compare(counts[b], counts[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return keys
}

func lmSummary(h LifeMemSummary) string {
	if len(h.Members) == 0 {
		if h.Previous != "" {
			return h.Previous
		}
		return "This cluster is about tasks not yet seen."
	}
	envs, verbs := map[string]int{}, map[string]int{}
	for _, m := range h.Members {
		envs[m.Env]++
		for _, v := range lmVerbs(m) {
			verbs[v]++
		}
	}
	envList := lmRank(envs)
	verbList := lmRank(verbs)
	if len(verbList) > 3 {
		verbList = verbList[:3]
	}
	task := strings.Join(strings.Fields(h.Members[0].Task), " ")
	if r := []rune(task); len(r) > lmTaskRunes {
		task = string(r[:lmTaskRunes]) + "…"
	}
	steps := "free-form replies"
	if len(verbList) > 0 {
		steps = strings.Join(verbList, ", ") + " actions"
	}
	return fmt.Sprintf("This cluster is about %s tasks solved with %s, such as %q.",
		strings.Join(envList, " and "), steps, task)
}

func lmRules(h LifeMemRules) string {
	// Rules are keyed by their pattern sentence; the first trajectory of the
	// batch showing a pattern supplies its worked workflow.
	support := map[string]int{}
	text := map[string]string{}
	for _, t := range h.Trajectories {
		key, rule := lmPatternRule(t)
		if key == "" {
			continue
		}
		if support[key] == 0 {
			text[key] = rule
		}
		support[key]++
	}
	minSupport := 1
	if len(h.Trajectories) >= 4 {
		minSupport = 2
	}
	existing := map[string]bool{}
	var lines []string
	for i, r := range h.Rules {
		k := lmRuleKey(r)
		existing[k] = true
		if support[k] > 0 {
			lines = append(lines, fmt.Sprintf("AGREE %d: %s", i+1, r))
		}
	}
	n, ops := len(h.Rules), 0
	maxOps, maxRules := h.MaxOps, h.MaxRules
	if maxOps <= 0 {
		maxOps = 4
	}
	if maxRules <= 0 {
		maxRules = 20
	}
	for _, k := range lmRank(support) {
		if support[k] < minSupport || ops >= maxOps || n >= maxRules {
			break
		}
		if existing[k] {
			continue
		}
		n++
		ops++
		lines = append(lines, fmt.Sprintf("ADD %d: %s", n, text[k]))
	}
	if len(lines) == 0 {
		return "No changes: the existing rules already cover these trials."
	}
	return strings.Join(lines, "\n")
}

// lmPatternRule quotes a trajectory's action pattern as a rule: a general
// sentence ("To <last verb> in <env> tasks, first <verb> then <verb>.") that
// is also the rule's key, followed by the worked workflow in the shared
// form the agent sim follows (agent.Workflow).
func lmPatternRule(t LifeMemTrajectory) (key, rule string) {
	vs := lmVerbs(t)
	env := t.Env
	if env == "" {
		env = "these"
	}
	switch len(vs) {
	case 0:
		return "", ""
	case 1:
		key = fmt.Sprintf("To %s in %s tasks, first read the task carefully then %s once.", vs[0], env, vs[0])
	default:
		key = fmt.Sprintf("To %s in %s tasks, first %s then %s.", vs[len(vs)-1], env, vs[0], vs[1])
	}
	var steps []string
	for _, a := range t.Actions {
		if a = strings.TrimSpace(a); a != "" {
			steps = append(steps, a)
		}
	}
	return lmNorm(key), key + " " + agent.Workflow(t.Task, steps)
}

// lmRuleKey is the pattern sentence of a rule (the text before its workflow).
func lmRuleKey(rule string) string {
	if i := strings.Index(rule, "For tasks like "); i >= 0 {
		rule = rule[:i]
	}
	return lmNorm(rule)
}

func lmNorm(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
