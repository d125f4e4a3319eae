package lifemem

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

// summaryOpening is how every summary starts.
const summaryOpening = "This cluster is about"

// summarize rewrites the summary of cluster name from (a sample of) its
// members: clusters of SummarySample or more members show a random two
// thirds of them.
func (m *LifeMem) summarize(ctx context.Context, env agent.Env, name, sid string) error {
	c := m.clusters[name]
	rows := slices.Clone(c.members)
	if len(rows) >= m.opts.SummarySample {
		r := rng(env.Seed, sid+"/summary/"+name)
		r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		rows = rows[:(2*len(rows)+2)/3]
		slices.Sort(rows)
	}
	h := LifeMemSummary{Cluster: name, Previous: c.summary}
	var full [][]llm.Message
	for _, n := range rows {
		t, err := loadTrajectory(ctx, m.db, n)
		if err != nil {
			return err
		}
		h.Members = append(h.Members, view(t, label(t.ID, n), m.rows[n].vec, m.opts.MessageChars))
		full = append(full, t.Messages)
	}
	req := summaryPrompt(h)
	if tm, ok := env.Prompts.ConstructionFor(templatesKey); ok {
		var err error
		if req, err = releaseSummary(tm, h, full); err != nil {
			return err
		}
	}
	text, err := m.call(ctx, env, opSummary, sid+"/"+name, 0, req, h, acceptSummary)
	if err != nil {
		return err
	}
	s, ok := ParseSummary(text)
	if !ok {
		m.st.Count.BadSummaries++
	}
	c.summary = s
	return nil
}

// ParseSummary extracts the one-sentence summary. ok is false when the
// answer lacks the "This cluster is about" opening; the first line is then
// kept behind that opening so the stored summary has the expected form.
func ParseSummary(text string) (string, bool) {
	low := strings.ToLower(text)
	if i := strings.Index(low, strings.ToLower(summaryOpening)); i >= 0 {
		s := text[i:]
		if j := strings.IndexByte(s, '\n'); j >= 0 {
			s = s[:j]
		}
		return strings.TrimSpace(s), true
	}
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return summaryOpening + " " + l, false
		}
	}
	return summaryOpening + " trajectories without a description.", false
}

func acceptSummary(r llm.Response) bool {
	_, ok := ParseSummary(r.Text)
	return ok
}

// MRL is the mean resultant length ‖(1/n) Σ x_i‖ of the unit vectors of
// vecs (each is normalised first; zero vectors count as zero). It is 1 when
// all point the same way and near 0 when they scatter.
func MRL(vecs [][]float32) float64 {
	if len(vecs) == 0 {
		return 0
	}
	sum := make([]float64, len(vecs[0]))
	for _, v := range vecs {
		var ss float64
		for _, x := range v {
			ss += float64(x) * float64(x)
		}
		if ss == 0 {
			continue
		}
		inv := 1 / math.Sqrt(ss)
		for d, x := range v {
			sum[d] += float64(x) * inv
		}
	}
	var ss float64
	for _, x := range sum {
		ss += x * x
	}
	return math.Sqrt(ss) / float64(len(vecs))
}

// shouldSplit is the paper's rule: more than L members and MRL below τ
// (τ ≥ 1 means size alone; τ < 0 never splits).
func (m *LifeMem) shouldSplit(c *cluster) (bool, float64) {
	if len(c.members) <= m.opts.SplitSize || m.opts.SplitMRL < 0 {
		return false, 0
	}
	vecs := make([][]float32, len(c.members))
	for i, n := range c.members {
		vecs[i] = m.rows[n].vec
	}
	r := MRL(vecs)
	return m.opts.SplitMRL >= 1 || r < m.opts.SplitMRL, r
}

// splitAll checks every cluster (in name order) and splits those the rule
// selects.
func (m *LifeMem) splitAll(ctx context.Context, env agent.Env, sid string) error {
	names := make([]string, 0, len(m.clusters))
	for name, c := range m.clusters {
		if len(c.members) > m.opts.SplitSize {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		m.st.Count.SplitChecks++
		ok, _ := m.shouldSplit(m.clusters[name])
		if !ok {
			continue
		}
		if err := m.split(ctx, env, name, sid); err != nil {
			return err
		}
	}
	return nil
}

// split asks the model to dissolve cluster old into SplitMin..SplitMax new
// clusters and applies the answer. Members the answer leaves out stay in
// the old cluster, whose row is deleted only when it ends up empty.
func (m *LifeMem) split(ctx context.Context, env agent.Env, old, sid string) error {
	c := m.clusters[old]
	h := LifeMemSplit{Cluster: old, Summary: c.summary, MinClusters: m.opts.SplitMin, MaxClusters: m.opts.SplitMax}
	byLabel := map[string]int{}
	var full [][]llm.Message
	for _, n := range c.members {
		t, err := loadTrajectory(ctx, m.db, n)
		if err != nil {
			return err
		}
		l := label(t.ID, n)
		byLabel[l] = n
		h.Members = append(h.Members, view(t, l, m.rows[n].vec, m.opts.SplitMessageChars))
		full = append(full, t.Messages)
	}
	req := splitPrompt(h)
	if tm, ok := env.Prompts.ConstructionFor(templatesKey); ok {
		var err error
		if req, err = releaseSplit(tm, h, full, slices.Collect(maps.Keys(m.clusters))); err != nil {
			return err
		}
	}
	callID := sid + "/split/" + old
	var (
		order  []string           // new clusters in answer order
		moved  = map[int]string{} // row → new cluster
		rename = map[string]string{}
	)
	for attempt := 0; attempt <= m.opts.Retries && len(order) == 0; attempt++ {
		text, err := m.call(ctx, env, opSplit, callID, attempt, req, h, acceptOps)
		if err != nil {
			return err
		}
		ops, bad := ParseAssignment(text)
		m.st.Count.BadLines += len(bad)
		for _, op := range ops {
			n, ok := byLabel[op.Traj]
			if !ok {
				m.st.Count.BadLines++
				continue
			}
			if _, done := moved[n]; done {
				continue
			}
			name := snake(op.Cluster)
			if name == "" {
				m.st.Count.BadLines++
				continue
			}
			final, ok := rename[name]
			if !ok {
				if !op.New {
					m.st.Count.Coerced++ // an ADD before its NEW
				}
				final = name
				// Never the old name nor another existing cluster: the
				// split must create new clusters.
				for k := 2; final == old || m.clusters[final] != nil || slices.Contains(order, final); k++ {
					final = fmt.Sprintf("%s_%d", name, k)
				}
				rename[name] = final
				order = append(order, final)
			}
			moved[n] = final
		}
	}
	if len(order) == 0 {
		m.st.Count.SplitFailures++
		return nil
	}
	m.st.Count.Splits++
	var keep []int
	for _, n := range c.members {
		name, ok := moved[n]
		if !ok {
			keep = append(keep, n)
			continue
		}
		nc := m.clusters[name]
		if nc == nil {
			nc = &cluster{}
			m.clusters[name] = nc
		}
		nc.members = append(nc.members, n)
		m.member[n] = name
	}
	m.st.Count.SplitLeftover += len(keep)
	c.members = keep
	written := slices.Clone(order)
	if len(keep) == 0 {
		delete(m.clusters, old)
		m.untouch(old)
	}
	written = append(written, old)
	for _, name := range order {
		if err := m.summarize(ctx, env, name, callID); err != nil {
			return err
		}
	}
	m.touch(order...)
	if len(keep) > 0 {
		m.touch(old)
	}
	return write(ctx, m.db, len(m.rows), nil, nil, m.rows, m.clusters, written)
}
