package agent

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/retrieval"
)

// PurposeSkillExtract is the Purpose of AutoSkill's extraction calls.
const PurposeSkillExtract = "autoskill.extract"

// AutoSkill keeps a flat, global skill library: an extractor LLM proposes
// at most one skill per trajectory, a maintainer adds it, merges it into
// the nearest skill (bumping its patch version) or discards it by
// embedding similarity, and inference retrieves the top skills for the
// task. Skills are not organised by workflow, so a long stream yields a
// mixed-environment library.
type AutoSkill struct {
	opts  Options
	state skillState
}

type skillState struct {
	Skills []Skill `json:"skills"`
	// Calls, Invalid (unparseable answers), None ("NONE" answers),
	// Merged and Discarded count the library's history.
	Calls     int `json:"calls"`
	Invalid   int `json:"invalid"`
	None      int `json:"none"`
	Merged    int `json:"merged"`
	Discarded int `json:"discarded"`
}

// Skill is one SKILL.md-style artifact.
type Skill struct {
	Name    string   `json:"name"`
	Purpose string   `json:"purpose"`
	Steps   []string `json:"steps"`
	// Version is "1.0.<merges>".
	Version string `json:"version"`
	// Sources are the trajectory IDs the skill was built from.
	Sources []string  `json:"sources"`
	Vec     []float32 `json:"vector"`
}

// Text is how the skill appears in the prompt's skills block.
func (s Skill) Text() string {
	text := s.Name + " (v" + s.Version + "): " + s.Purpose
	if _, _, ok := ParseWorkflow(s.Purpose); ok {
		return text // the purpose already lists the steps
	}
	if len(s.Steps) > 0 {
		text += " Steps: " + strings.Join(s.Steps, "; ")
	}
	return text
}

func (s Skill) key() string { return s.Name + ": " + s.Purpose }

var stepLine = lazyre.New(`^\s*(?:\d+[.)]|[-*])\s+(.*)$`)

// ParseSkill reads an extractor answer. "NONE" gives ok false and no
// error; otherwise Name, Purpose and at least one step are required. Steps
// written as Go string literals are unquoted.
func ParseSkill(text string) (Skill, bool, error) {
	t := strings.TrimSpace(text)
	if strings.EqualFold(strings.Trim(t, ".* "), "none") {
		return Skill{}, false, nil
	}
	var s Skill
	inSteps := false
	for _, line := range strings.Split(t, "\n") {
		l := strings.TrimSpace(line)
		low := strings.ToLower(l)
		switch {
		case strings.HasPrefix(low, "name:"):
			s.Name = strings.TrimSpace(l[len("name:"):])
			inSteps = false
		case strings.HasPrefix(low, "purpose:"):
			s.Purpose = strings.TrimSpace(l[len("purpose:"):])
			inSteps = false
		case strings.HasPrefix(low, "steps:"):
			inSteps = true
		case inSteps:
			m := stepLine.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			step := strings.TrimSpace(m[1])
			if u, err := strconv.Unquote(step); err == nil {
				step = u
			}
			if step != "" {
				s.Steps = append(s.Steps, step)
			}
		}
	}
	switch {
	case s.Name == "":
		return Skill{}, false, errors.New("skill: no Name line")
	case s.Purpose == "":
		return Skill{}, false, errors.New("skill: no Purpose line")
	case len(s.Steps) == 0:
		return Skill{}, false, errors.New("skill: no steps")
	}
	return s, true, nil
}

// Name implements Method.
func (m *AutoSkill) Name() string { return "autoskill" }

// Skills returns the library.
func (m *AutoSkill) Skills() []Skill { return append([]Skill(nil), m.state.Skills...) }

// Learn implements Method: one extraction per successful trajectory, then
// add, merge or discard.
func (m *AutoSkill) Learn(ctx context.Context, env Env, batch []Trajectory) error {
	for _, t := range batch {
		if !t.Success {
			continue
		}
		if err := m.learnOne(ctx, env, t); err != nil {
			return err
		}
	}
	return nil
}

func (m *AutoSkill) learnOne(ctx context.Context, env Env, t Trajectory) error {
	var b strings.Builder
	b.WriteString("Read this successful interaction and write at most one reusable skill it teaches.\n\n")
	renderTrajectory(&b, t)
	b.WriteString("\nAnswer in this form, or with NONE if nothing here is worth reusing:\n" +
		"Name: <snake_case name>\nPurpose: <when to use the skill, one sentence>\nSteps:\n1. <step>\n2. <step>\n")
	m.state.Calls++
	resp, err := env.Distiller().Generate(ctx, llm.Request{
		Purpose:  PurposeSkillExtract,
		Messages: []llm.Message{{Role: "user", Content: b.String()}},
		Params:   env.Sampling.For(SampleSkills, t.Env),
		SampleID: "autoskill/extract/" + t.ID,
		Hint:     SkillExtract{Traj: viewOf(t)},
		Accept:   func(r llm.Response) bool { _, _, err := ParseSkill(r.Text); return err == nil },
	})
	if err != nil {
		return fmt.Errorf("autoskill: extract %s: %w", t.ID, err)
	}
	sk, ok, err := ParseSkill(resp.Text)
	if err != nil {
		m.state.Invalid++ // counted; the trajectory simply adds no skill
		return nil
	}
	if !ok {
		m.state.None++
		return nil
	}
	vs, err := embedTexts(ctx, env, []string{sk.key()})
	if err != nil {
		return fmt.Errorf("autoskill: %w", err)
	}
	sk.Vec, sk.Version, sk.Sources = vs[0], "1.0.0", []string{t.ID}
	m.maintain(sk)
	return nil
}

// maintain adds sk, merges it into its nearest skill, or discards it.
func (m *AutoSkill) maintain(sk Skill) {
	best, bestSim := -1, -1.0
	for i, s := range m.state.Skills {
		if c := cosine(sk.Vec, s.Vec); c > bestSim {
			best, bestSim = i, c
		}
	}
	switch {
	case best >= 0 && bestSim >= orDefaultF(m.opts.DiscardSim, 0.95):
		m.state.Discarded++
	case best >= 0 && bestSim >= orDefaultF(m.opts.MergeSim, 0.8):
		s := &m.state.Skills[best]
		s.Sources = append(s.Sources, sk.Sources...)
		s.Version = "1.0." + strconv.Itoa(len(s.Sources)-1)
		m.state.Merged++
	default:
		m.state.Skills = append(m.state.Skills, sk)
	}
}

func cosine(a, b []float32) float64 {
	na, nb := retrieval.Dot(a, a), retrieval.Dot(b, b)
	if na == 0 || nb == 0 {
		return 0
	}
	return retrieval.Dot(a, b) / math.Sqrt(na*nb)
}

// EndStage implements Method.
func (m *AutoSkill) EndStage(context.Context, Env) error { return nil }

// AutoSkill's retrieval defaults, from its SDK (github.com/ECNU-ICALK/AutoSkill
// at 3de1c09, autoskill/config.py AutoSkillConfig and autoskill/render.py):
// search returns default_search_limit = 5 skills with no similarity floor
// (the 0.4 min_score belongs to its interactive chat loop, not the SDK), and
// render_skills_context fills a block of at most max_context_chars = 6,000
// units (a unit is an ASCII word or a CJK ideograph), cutting the skill
// that would overflow it. Its skills carry their whole prompt, so AutoSkill's prompts
// are the largest of the baselines, as LifeMem reports.
const (
	DefaultSkillK      = 5
	DefaultSkillBudget = 6000
)

// Agent implements Method: the top skills (top_k, DefaultSkillK) at or
// above MinSkill that fit the context budget form the skills block;
// AutoSkill shows no exemplar trajectories.
func (m *AutoSkill) Agent(ctx context.Context, env Env, s envs.Suite, t envs.Task) (envs.Agent, error) {
	return RetrieveThenAct(ctx, s, t, func(ctx context.Context, query string) (envs.Agent, error) {
		var rules []string
		if len(m.state.Skills) > 0 {
			q, err := embedTexts(ctx, env, []string{query})
			if err != nil {
				return nil, fmt.Errorf("autoskill: %s: %w", t.ID, err)
			}
			vecs := make([][]float32, len(m.state.Skills))
			for i, sk := range m.state.Skills {
				vecs[i] = sk.Vec
			}
			rules = selectSkills(m.state.Skills, vecs, q[0], m.opts.skillK(), m.opts.MinSkill, DefaultSkillBudget)
		}
		// Every retrieved skill is shown: the shared skills-block cap
		// applies only when set.
		o := m.opts
		if o.MaxRules <= 0 {
			o.MaxRules = max(len(rules), 1)
		}
		return agentFor(m.Name(), o, env, s, nil, rules), nil
	})
}

// skillK is AutoSkill's skill count: SkillK, else the method's top_k (K),
// else DefaultSkillK.
func (o Options) skillK() int {
	if o.SkillK > 0 {
		return o.SkillK
	}
	return o.k(DefaultSkillK)
}

// selectSkills ranks skills by cosine to q and keeps the first k at or
// above minSim while the block stays within budget units, as
// render_skills_context does: a skill that would overflow it is cut to the
// units left (its head kept, truncationMarker appended), and once nothing
// is left no further skill is shown.
func selectSkills(skills []Skill, vecs [][]float32, q []float32, k int, minSim float64, budget int) []string {
	var out []string
	used := 0
	for _, i := range retrieval.TopK(q, vecs, k) {
		if minSim > 0 && cosine(q, vecs[i]) < minSim {
			continue
		}
		left := budget - used
		if left <= 0 {
			break
		}
		text := truncateKeepHead(skills[i].Text(), left)
		if strings.TrimSpace(text) == "" {
			continue
		}
		n := TextUnits(text)
		if used+n > budget {
			continue
		}
		used += n
		out = append(out, text)
	}
	return out
}

// truncationMarker ends a skill cut to fit the budget (render.py's).
const truncationMarker = "\n...[truncated]..."

// truncateKeepHead is units.py's truncate_keep_head: text cut to at most
// limit units, keeping its head and ending with the marker.
func truncateKeepHead(text string, limit int) string {
	if limit <= 0 || text == "" {
		return ""
	}
	if TextUnits(text) <= limit {
		return text
	}
	m := TextUnits(truncationMarker)
	if limit <= m {
		return clipHead(text, limit)
	}
	return clipHead(text, limit-m) + truncationMarker
}

// clipHead is the longest head of text with at most limit units, taking
// the spaces and punctuation after its last unit up to the next unit.
func clipHead(text string, limit int) string {
	units, end, have := 0, 0, false
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isCJKIdeograph(r):
			if units+1 > limit {
				return text[:end]
			}
			units, have = units+1, true
			i += size
			end = i
		case isASCIIAlnum(r):
			if units+1 > limit {
				return text[:end]
			}
			units, have = units+1, true
			i += size
			for i < len(text) && (isASCIIAlnum(rune(text[i])) || strings.IndexByte("'-_", text[i]) >= 0) {
				i++
			}
			end = i
		default:
			i += size
			if have {
				end = i
			}
		}
	}
	return text[:end]
}

func isASCIIAlnum(r rune) bool {
	return r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// TextUnits sizes text as AutoSkill's utils/units.py does: each CJK
// ideograph is one unit and each run of ASCII word characters that starts
// with a letter or digit is one unit; punctuation, spaces and other
// scripts are free.
func TextUnits(text string) int {
	n := 0
	inWord := false
	for _, r := range text {
		switch {
		case isCJKIdeograph(r):
			n++
			inWord = false
		case isASCIIAlnum(r):
			if !inWord {
				n++
				inWord = true
			}
		case inWord && (r == '\'' || r == '-' || r == '_'):
			// word characters that continue a word but never start one
		default:
			inWord = false
		}
	}
	return n
}

func isCJKIdeograph(r rune) bool {
	for _, rg := range [][2]rune{
		{0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xF900, 0xFAFF}, {0x20000, 0x2A6DF},
		{0x2A700, 0x2B73F}, {0x2B740, 0x2B81F}, {0x2B820, 0x2CEAF}, {0x2CEB0, 0x2EBEF}, {0x30000, 0x3134F},
	} {
		if r >= rg[0] && r <= rg[1] {
			return true
		}
	}
	return false
}

// Save implements Method.
func (m *AutoSkill) Save(_ context.Context, env Env) error { return saveJSON(env, m.Name(), &m.state) }

// Restore implements Method.
func (m *AutoSkill) Restore(_ context.Context, env Env) (bool, error) {
	var st skillState
	ok, err := loadJSON(env, m.Name(), &st)
	if ok {
		m.state = st
	}
	return ok, err
}
