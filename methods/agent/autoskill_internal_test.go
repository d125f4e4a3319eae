package agent

import (
	"strings"
	"testing"
)

// TestSelectSkillsBudget: skills fill the block up to the budget, the one
// that would overflow it is cut with the marker (as render_skills_context
// does), and none follows once the budget is spent.
func TestSelectSkillsBudget(t *testing.T) {
	mk := func(name string, words int) Skill {
		return Skill{Name: name, Version: "1.0.0", Purpose: strings.TrimSpace(strings.Repeat("step, ", words))}
	}
	// The name and version (a, v1, 0, 0) are 4 units, the purpose 6: cuts
	// are checked against units.py's truncate_keep_head.
	skills := []Skill{mk("a", 6), mk("b", 6), mk("c", 6)}
	vecs := [][]float32{{1, 0}, {0.9, 0.1}, {0.8, 0.2}}
	q := []float32{1, 0}
	for _, tc := range []struct {
		budget int
		want   []string
	}{
		{100, []string{skills[0].Text(), skills[1].Text(), skills[2].Text()}},
		{25, []string{skills[0].Text(), skills[1].Text(), "c (v1.0.0): \n...[truncated]..."}},
		{20, []string{skills[0].Text(), skills[1].Text()}},
		{12, []string{skills[0].Text(), "b (\n...[truncated]..."}},
	} {
		got := selectSkills(skills, vecs, q, 3, 0, tc.budget)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("budget %d: %q\nwant %q", tc.budget, got, tc.want)
		}
		n := 0
		for _, g := range got {
			n += TextUnits(g)
		}
		if n > tc.budget {
			t.Errorf("budget %d: %d units shown", tc.budget, n)
		}
	}
}
