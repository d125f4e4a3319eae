package lifemem

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/methods/agent"
)

// RuleOp is one parsed line of a rule-editor answer.
type RuleOp struct {
	// Kind is "AGREE", "REMOVE", "EDIT" or "ADD".
	Kind string
	// N is the rule number the line names (1-based; 0 when absent, which
	// only ADD may omit).
	N    int
	Text string
}

var ruleOpRe = lazyre.New(`(?i)^(AGREE|REMOVE|EDIT|ADD)\b\s*(?:(?:rule\s*)?#?(\d+))?\s*[:.)\-]?\s*(.*)$`)

// ParseRuleOps reads every line of a rule-editor answer and returns the
// operations in order and the non-empty lines that are not operations.
func ParseRuleOps(text string) (ops []RuleOp, bad []string) {
	for _, raw := range strings.Split(text, "\n") {
		l := strings.NewReplacer("**", "", "`", "").Replace(strings.TrimSpace(raw))
		l = strings.TrimSpace(strings.TrimLeft(l, "-*• "))
		if l == "" {
			continue
		}
		g := ruleOpRe.FindStringSubmatch(l)
		if g == nil {
			bad = append(bad, strings.TrimSpace(raw))
			continue
		}
		op := RuleOp{Kind: strings.ToUpper(g[1]), Text: strings.TrimSpace(g[3])}
		if g[2] != "" {
			op.N, _ = strconv.Atoi(g[2])
		}
		if op.Kind != "ADD" && op.N == 0 || (op.Kind == "ADD" || op.Kind == "EDIT") && op.Text == "" {
			bad = append(bad, strings.TrimSpace(raw))
			continue
		}
		ops = append(ops, op)
	}
	return ops, bad
}

// ApplyRuleOps applies ops to rules (numbered from 1 as shown to the
// editor) and returns the new list with the counts of operations applied
// and ignored. At most maxOps non-AGREE operations apply, in answer order;
// numbers refer to the list as shown, so removals and edits never shift
// each other; ADDs append while the list stays within maxRules; rules that
// no operation names are kept; duplicates (ignoring case and spacing) are
// dropped, the first kept.
func ApplyRuleOps(rules []string, ops []RuleOp, maxOps, maxRules int) (out []string, applied, ignored int) {
	cur := slices.Clone(rules)
	removed := make([]bool, len(cur))
	var adds []string
	budget := maxOps
	for _, op := range ops {
		if op.Kind == "AGREE" {
			if op.N < 1 || op.N > len(rules) {
				ignored++
			}
			continue
		}
		if budget <= 0 {
			ignored++
			continue
		}
		switch op.Kind {
		case "ADD":
			adds = append(adds, stripNumber(op.Text))
		case "EDIT", "REMOVE":
			if op.N < 1 || op.N > len(rules) || removed[op.N-1] {
				ignored++
				continue
			}
			if op.Kind == "EDIT" {
				cur[op.N-1] = stripNumber(op.Text)
			} else {
				removed[op.N-1] = true
			}
		}
		budget--
		applied++
	}
	seen := map[string]bool{}
	keep := func(r string) bool {
		k := strings.ToLower(strings.Join(strings.Fields(r), " "))
		if k == "" || seen[k] {
			return false
		}
		seen[k] = true
		return true
	}
	for i, r := range cur {
		if !removed[i] && keep(r) {
			out = append(out, r)
		}
	}
	for _, r := range adds {
		if len(out) >= maxRules {
			ignored++
			applied--
			continue
		}
		if keep(r) {
			out = append(out, r)
		}
	}
	return out, applied, ignored
}

// distil rebuilds the rules of cluster name from scratch with the rule
// editor: a seeded sample of at most SkillSample members (successful ones
// when the cluster has any), read in batches of RuleBatch.
func (m *LifeMem) distil(ctx context.Context, env agent.Env, name string) error {
	c := m.clusters[name]
	var pool []int
	for _, n := range c.members {
		if m.rows[n].success {
			pool = append(pool, n)
		}
	}
	if len(pool) == 0 {
		pool = slices.Clone(c.members)
	}
	r := rng(m.opts.SkillSeed^env.Seed, "skills/"+name)
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	pool = pool[:min(len(pool), m.opts.SkillSample)]
	var rules []string
	for b := 0; b < len(pool); b += m.opts.RuleBatch {
		part := pool[b:min(len(pool), b+m.opts.RuleBatch)]
		h := LifeMemRules{Cluster: name, Summary: c.summary, Rules: slices.Clone(rules),
			MaxOps: m.opts.MaxRuleOps, MaxRules: m.opts.MaxRules}
		trials := make([]string, len(part))
		for i, n := range part {
			t, err := loadTrajectory(ctx, m.db, n)
			if err != nil {
				return err
			}
			v := view(t, label(t.ID, n), m.rows[n].vec, m.opts.MessageChars)
			h.Trajectories = append(h.Trajectories, v)
			trials[i] = formatTrial(v, t.Messages, m.opts.MessageChars)
		}
		sid := fmt.Sprintf("lifemem/stage%d/rules/%s/%d", m.st.Stages, name, b/m.opts.RuleBatch)
		text, err := m.call(ctx, env, opRules, sid, 0, rulesPrompt(h, trials), h, nil)
		if err != nil {
			return err
		}
		// Prose lines are commentary, and an answer of prose only ("no
		// changes") is a valid no-op: neither is counted as an error.
		ops, _ := ParseRuleOps(text)
		var applied, ignored int
		rules, applied, ignored = ApplyRuleOps(rules, ops, m.opts.MaxRuleOps, m.opts.MaxRules)
		m.st.Count.RuleOps += applied
		m.st.Count.RuleOpsIgnored += ignored
	}
	c.rules = rules
	return nil
}
