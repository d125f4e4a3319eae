package agent

import (
	"cmp"
	"fmt"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm/sim"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/llm"
)

// Agent requests (methods/agent) are answered as an imitating reader:
//
//   - Act: the reader ranks the retrieved exemplars and the workflow
//     rules (Workflow form) by how much of the current task's content
//     words their task shares (Jaccard over words without digits: dates,
//     prices and IDs say which instance, not which kind of task; entity
//     substitution carries them over). It trusts the prompt: the most
//     similar candidate is imitated even when it comes from another
//     environment, so a foreign exemplar that reads like the task misleads
//     it into actions of the wrong syntax (the cross-environment noise that
//     a memory without an environment filter lets in). The candidate's
//     action at the current step is copied with entity substitution from
//     its task to the current task, then from the observation the exemplar
//     acted on to the current observation; a value the exemplar reported
//     verbatim from its observation is reported from the current one, and
//     a number it rounded is rounded alike. Each action the environment
//     rejected ("Nothing happens.", an error, an invalid action) sends the
//     reader to the next-best candidate, followed from the step the
//     accepted actions reached: more experience in the prompt (a larger k,
//     a skills block) gives it more to recover with. When the observation
//     lists admissible actions (offeredIn), the closest one by
//     token overlap is chosen instead (ties: the one whose line in the
//     observation shares most with the task). Ties go to prompt order:
//     the skills block precedes the examples in the rendered prompt, so a
//     rule that fits the task as well as the best example is followed
//     first and the example is the fallback. A rule records steps without
//     the observations they acted on, so only the task's entities are
//     substituted into it and values it names are carried over as
//     written. (Ranking rules behind equally fitting examples made ExpeL's
//     insights, workflows of the very trajectories its pool retrieves,
//     lose every tie and never decide an action.) Without any
//     candidate left, or past the candidate's last step, the reader falls
//     back to a plausible generic action in the environment's syntax (see
//     fallback). Gold data is never read: the hint holds only what the
//     prompt shows.
//   - RuleEdit: for each trajectory of the batch, in order, the rule
//     whose workflow task is most similar gets "AGREE n" when the
//     similarity is at least agreeSim; otherwise a workflow rule for the
//     trajectory is added ("ADD"), or, when the list is full, it replaces
//     the most similar rule ("EDIT n"), or, when no rule is similar at all,
//     the rule that fits the batch least. At most MaxOps non-AGREE lines.
//   - SkillExtract: failed or empty trajectories give "NONE"; others a
//     SKILL.md block whose name joins the task's first content words, whose
//     purpose is a Workflow line, and whose steps are the actions,
//     each quoted as a Go string literal.

// number finds the numbers of an observation (rounded alike when an
// exemplar rounded one).
var number = lazyre.New(`-?\d+(?:\.\d+)?`)

// agentSimMin is the task similarity below which a candidate is ignored.
const agentSimMin = 0.05

// failure recognises an observation that rejects the last action: the
// wording environments use for an action that did nothing or could not run.
var failure = lazyre.New(`(?i)^(nothing happens|invalid action|no known action)|error|could not find|not in the list`)

// minEcho is the shortest observation whose verbatim copy in an exemplar
// action reads as "report the observation".
const minEcho = 8

// agreeSim is the similarity at which the rule editor agrees with a rule.
const agreeSim = 0.5

// SimReaders are the embedded backbone's readers of the shared agent's
// requests: acting (Act), ExpeL's rule editor (RuleEdit), AutoSkill's
// extractor (SkillExtract) and Synapse's state abstraction
// (StateAbstract). acting is what the reader knows of each environment's
// action syntax (envs.SimActing, one per environment name); an environment
// without one gets "look" when no experience applies.
func SimReaders(acting ...envs.SimActing) ([]sim.Reader, error) {
	byEnv := make(map[string]envs.SimActing, len(acting))
	for _, a := range acting {
		if _, dup := byEnv[a.Env]; dup {
			return nil, fmt.Errorf("agent: two sim acting entries for environment %q", a.Env)
		}
		byEnv[a.Env] = a
	}
	return []sim.Reader{
		sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h Act) (string, error) {
			return inFence(act(h, byEnv[h.Env]), h.Fence), nil
		}),
		sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h RuleEdit) (string, error) { return ruleEdit(h), nil }),
		sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h SkillExtract) (string, error) { return skillExtract(h), nil }),
		sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h StateAbstract) (string, error) { return abstractState(h), nil }),
	}, nil
}

// candidate is one experience the reader may imitate.
type candidate struct {
	task    string
	actions []string
	obs     []string // obs[i] is the observation before actions[i] ("" for rules)
	sim     float64
	rule    bool
}

func act(h Act, env envs.SimActing) string {
	// step counts the agent's actions so far, failed the ones the
	// environment rejected, done the ones it accepted.
	step, failed := 0, 0
	lastObs := ""
	for i, t := range h.Turns {
		if t.Role == "agent" {
			step++
			continue
		}
		lastObs = t.Text
		if i > 0 && h.Turns[i-1].Role == "agent" && failure.MatchString(t.Text) {
			failed++
		}
	}
	done := step - failed
	taskSet := typeSet(h.Task)
	// Candidates in prompt order: the skills block, then the examples.
	var cands []candidate
	for _, r := range h.Rules {
		task, steps, ok := ParseWorkflow(r)
		if !ok {
			continue
		}
		cands = append(cands, candidate{task: task, actions: steps, obs: make([]string, len(steps)), rule: true})
	}
	for i, ex := range h.Exemplars {
		c := candidate{}
		if i < len(h.ExemplarTasks) {
			c.task = h.ExemplarTasks[i]
		}
		obs := ""
		for _, m := range ex {
			if m.Role == "assistant" {
				c.actions = append(c.actions, m.Content)
				c.obs = append(c.obs, obs)
				continue
			}
			obs = m.Content
			if c.task == "" {
				c.task = m.Content
			}
		}
		cands = append(cands, c)
	}
	var ranked []int
	for i := range cands {
		c := &cands[i]
		if len(c.actions) == 0 {
			continue
		}
		c.sim = jaccard(typeSet(c.task), taskSet)
		if c.sim >= agentSimMin {
			ranked = append(ranked, i)
		}
	}
	// Best first; prompt order (rules, then examples) on ties.
	slices.SortStableFunc(ranked, func(a, b int) int { return cmp.Compare(cands[b].sim, cands[a].sim) })
	// Each rejected action sends the reader to the next candidate, which
	// it follows from the step the accepted actions reached.
	best := -1
	if failed < len(ranked) {
		best = ranked[failed]
		step = done
	}
	adm := offeredIn(env, lastObs)
	var action string
	if best >= 0 && step < len(cands[best].actions) {
		c := cands[best]
		action = c.actions[step]
		if eo := strings.TrimSpace(c.obs[step]); len(eo) >= minEcho && lastObs != "" && strings.Contains(action, eo) {
			// The exemplar reported what it had just been shown (a query
			// result as the final answer): report what this episode shows.
			action = strings.Replace(action, eo, strings.TrimSpace(lastObs), 1)
		} else {
			action = substitute(action, align(c.task, h.Task, false), obsAlign(c.obs[step], lastObs))
			action = rounded(action, c.obs[step], lastObs)
		}
	} else {
		action = fallback(env, h.Task, step, lastObs, adm)
	}
	if len(adm) > 0 {
		action = closest(action, h.Task, lastObs, adm)
	}
	return action
}

func obsAlign(e, c string) *alignment {
	if e == "" || c == "" {
		return nil
	}
	return align(e, c, true)
}

// closest picks the admissible action sharing most tokens with want.
func closest(want, task, obs string, adm []string) string {
	for _, a := range adm {
		if a == want {
			return a
		}
	}
	w := tokenSet(want)
	t := contentSet(task)
	bestI, bestS, bestT := 0, -1.0, -1.0
	for i, a := range adm {
		s := jaccard(w, tokenSet(a))
		ts := jaccard(t, contentSet(contextOf(a, obs)))
		if s > bestS || (s == bestS && ts > bestT) {
			bestI, bestS, bestT = i, s, ts
		}
	}
	return adm[bestI]
}

func tokenSet(text string) map[string]bool {
	out := map[string]bool{}
	for _, t := range spans(text) {
		out[t.low] = true
	}
	return out
}

var bracketArg = lazyre.New(`\[([^\[\]]*)\]`)

// contextOf is the observation line naming the action's bracketed argument
// and the line after it (a product's title follows its ID).
func contextOf(action, obs string) string {
	m := bracketArg.FindStringSubmatch(action)
	label := action
	if m != nil {
		label = m[1]
	}
	lines := strings.Split(obs, "\n")
	for i, l := range lines {
		if label != "" && strings.Contains(l, "["+label+"]") {
			if i+1 < len(lines) {
				return l + " " + lines[i+1]
			}
			return l
		}
	}
	return ""
}

func ruleEdit(h RuleEdit) string {
	maxRules := h.MaxRules
	if maxRules <= 0 {
		maxRules = 20
	}
	maxOps := h.MaxOps
	if maxOps <= 0 {
		maxOps = 4
	}
	rules := make([]struct {
		task string
		ok   bool
	}, len(h.Rules))
	for i, r := range h.Rules {
		t, _, ok := ParseWorkflow(r)
		rules[i].task, rules[i].ok = t, ok
	}
	var lines []string
	ops := 0
	n := len(h.Rules)
	touched := map[int]bool{}
	for _, tr := range h.Batch {
		if !tr.Success || len(tr.Actions) == 0 {
			continue
		}
		ts := typeSet(tr.Task)
		bi, bs := -1, 0.0
		for i, r := range rules {
			if !r.ok || touched[i] {
				continue
			}
			if s := jaccard(typeSet(r.task), ts); s > bs {
				bi, bs = i, s
			}
		}
		rule := Workflow(tr.Task, tr.Actions)
		switch {
		case bi >= 0 && bs >= agreeSim:
			lines = append(lines, fmt.Sprintf("AGREE %d: %s", bi+1, h.Rules[bi]))
			touched[bi] = true
		case ops >= maxOps:
		case n < maxRules:
			n++
			ops++
			lines = append(lines, fmt.Sprintf("ADD %d: %s", n, rule))
		case bi >= 0:
			ops++
			touched[bi] = true
			lines = append(lines, fmt.Sprintf("EDIT %d: %s", bi+1, rule))
		default:
			// A full list with nothing like this trajectory: rewrite the
			// rule that fits this batch least (the first such), so a global
			// list keeps up with what it reads and forgets what it read first.
			if w := leastFitting(rules, touched, h.Batch); w >= 0 {
				ops++
				touched[w] = true
				lines = append(lines, fmt.Sprintf("EDIT %d: %s", w+1, rule))
			}
		}
	}
	if len(lines) == 0 {
		return "AGREE 1: no change"
	}
	return strings.Join(lines, "\n")
}

// leastFitting is the untouched workflow rule least similar to every task
// of the batch (the first on ties), or -1.
func leastFitting(rules []struct {
	task string
	ok   bool
}, touched map[int]bool, batch []TrajView) int {
	best, bestS := -1, 2.0
	for i, r := range rules {
		if !r.ok || touched[i] {
			continue
		}
		s := 0.0
		for _, tr := range batch {
			s = max(s, jaccard(typeSet(r.task), typeSet(tr.Task)))
		}
		if s < bestS {
			best, bestS = i, s
		}
	}
	return best
}

func skillExtract(h SkillExtract) string {
	tr := h.Traj
	if !tr.Success || len(tr.Actions) == 0 {
		return "NONE"
	}
	var words []string
	for _, t := range spans(tr.Task) {
		if !isStop(t.low) && len(words) < 4 {
			w := strings.Map(func(r rune) rune {
				if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
					return r
				}
				return -1
			}, t.low)
			if w != "" {
				words = append(words, w)
			}
		}
	}
	if len(words) == 0 {
		words = []string{"skill"}
	}
	var b strings.Builder
	b.WriteString("Name: " + strings.Join(words, "_") + "\n")
	b.WriteString("Purpose: " + Workflow(tr.Task, tr.Actions) + "\n")
	b.WriteString("Steps:\n")
	for i, a := range tr.Actions {
		b.WriteString(strconv.Itoa(i+1) + ". " + strconv.Quote(a) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// rounded carries over a number the exemplar rounded from its observation
// (an average of 173.8043 answered as 173.8): a number of the action that is
// the i-th number of the exemplar's observation, rounded, becomes the i-th
// number of the current observation rounded the same way.
func rounded(action, eobs, cobs string) string {
	if eobs == "" || cobs == "" {
		return action
	}
	en, cn := number.FindAllString(eobs, -1), number.FindAllString(cobs, -1)
	if len(en) != len(cn) {
		return action
	}
	return number.ReplaceAllStringFunc(action, func(n string) string {
		dec := 0
		if i := strings.IndexByte(n, '.'); i >= 0 {
			dec = len(n) - i - 1
		}
		v, err := strconv.ParseFloat(n, 64)
		if err != nil {
			return n
		}
		for i, e := range en {
			ev, err := strconv.ParseFloat(e, 64)
			if err != nil || e == n || strconv.FormatFloat(ev, 'f', dec, 64) != strconv.FormatFloat(v, 'f', dec, 64) {
				continue
			}
			cv, err := strconv.ParseFloat(cn[i], 64)
			if err != nil {
				return n
			}
			return strconv.FormatFloat(cv, 'f', dec, 64)
		}
		return n
	})
}

// inFence wraps an action in the delimiter the prompt's examples use, as a
// model imitating them writes it: a fenced block, or backticks around an
// action that has none of its own.
func inFence(action, fence string) string {
	switch {
	case fence == "" || strings.Contains(action, fence):
		return action
	case fence == "```":
		return "```\n" + action + "\n```"
	}
	return fence + action + fence
}

// fallback is the reader's action without experience: the environment's
// default move (the first move its instructions suggest, then an answer or
// the end of the episode), or "look".
func fallback(env envs.SimActing, task string, step int, obs string, adm []string) string {
	if env.Default == nil {
		return "look"
	}
	var words []string
	for _, t := range spans(task) {
		if !isStop(t.low) {
			words = append(words, t.low)
		}
	}
	return env.Default(envs.SimActView{Task: task, Step: step, Obs: obs, Offered: adm, TaskWords: words})
}
