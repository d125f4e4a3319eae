package lifemem

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/methods/retrieval"
)

// Op is one parsed line of an <Execution> section.
type Op struct {
	// New is true for "NEW <cluster> with <traj>", false for
	// "ADD <traj> to <cluster>".
	New     bool
	Traj    string
	Cluster string
}

var (
	addRe = lazyre.New(`(?i)^ADD\s+(\S+)\s+(?:to|into)\s+(\S+)$`)
	newRe = lazyre.New(`(?i)^NEW\s+(\S+)\s+(?:with|from)\s+(.+)$`)
)

// ParseAssignment reads every line after the <Execution> tag (the whole
// text when there is none) and returns the operations in order, and the
// non-empty lines that are not operations. Markdown emphasis, list marks,
// angle brackets and trailing punctuation are ignored; a NEW line may list
// several trajectories separated by commas or "and".
func ParseAssignment(text string) (ops []Op, bad []string) {
	body := text
	if i := strings.Index(strings.ToLower(body), "<execution>"); i >= 0 {
		body = body[i+len("<execution>"):]
	}
	if i := strings.Index(strings.ToLower(body), "</execution>"); i >= 0 {
		body = body[:i]
	}
	for _, raw := range strings.Split(body, "\n") {
		l := cleanLine(raw)
		if l == "" {
			continue
		}
		if g := addRe.FindStringSubmatch(l); g != nil {
			ops = append(ops, Op{Traj: cleanToken(g[1]), Cluster: cleanToken(g[2])})
			continue
		}
		if g := newRe.FindStringSubmatch(l); g != nil {
			name := cleanToken(g[1])
			list := strings.NewReplacer(",", " ", " and ", " ").Replace(" " + g[2] + " ")
			n := 0
			for _, tok := range strings.Fields(list) {
				if tok = cleanToken(tok); tok != "" {
					ops = append(ops, Op{New: true, Traj: tok, Cluster: name})
					n++
				}
			}
			if n > 0 {
				continue
			}
		}
		bad = append(bad, strings.TrimSpace(raw))
	}
	return ops, bad
}

// cleanLine drops list marks, emphasis and tags around an operation line.
func cleanLine(s string) string {
	s = strings.NewReplacer("**", "", "`", "").Replace(strings.TrimSpace(s))
	s = strings.TrimLeft(s, "-*•>0123456789.) \t")
	if strings.HasPrefix(s, "<") && strings.HasSuffix(s, ">") && !strings.Contains(s, " ") {
		return "" // a stray section tag
	}
	return strings.TrimSpace(s)
}

// cleanToken strips the quoting and punctuation a model wraps names in.
func cleanToken(s string) string {
	return strings.Trim(s, "<>*`'\"[](){}.,;:")
}

// snake is the canonical form of a cluster name: lowercase letter/digit
// runs joined by underscores, so "Open Container" and "open_container"
// name the same cluster.
func snake(s string) string {
	var b strings.Builder
	gap := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if gap && b.Len() > 0 {
				b.WriteByte('_')
			}
			gap = false
			b.WriteRune(r)
			continue
		}
		gap = true
	}
	return b.String()
}

var safeLabel = lazyre.New(`^[A-Za-z0-9_.:/-]+$`)

// label is how prompts name the trajectory of row n: its ID when that reads
// as one token, else "t<n>".
func label(id string, n int) string {
	if safeLabel.MatchString(id) && !isRowLabel(id) {
		return id
	}
	return fmt.Sprintf("t%d", n)
}

// isRowLabel reports whether s has the "t<digits>" shape of fallback labels,
// which an ID may not take or it could name another row.
func isRowLabel(s string) bool {
	if len(s) < 2 || s[0] != 't' {
		return false
	}
	for _, r := range s[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// candidate is a cluster shown to the assignment call.
type candidate struct {
	name     string
	examples []int // rows
}

// candidates retrieves the NeighbourK nearest stored trajectories of each
// new one and groups them by cluster in first-seen order, keeping at most
// CandidateExamples examples per cluster (a later one replaces a random
// earlier one, as the reference code does).
func (m *LifeMem) candidates(vecs [][]float32, sid string, seed int64) []candidate {
	if len(m.rows) == 0 {
		return nil
	}
	docs := make([][]float32, len(m.rows))
	for i, r := range m.rows {
		docs[i] = r.vec
	}
	r := rng(seed, sid+"/candidates")
	var out []candidate
	pos := map[string]int{}
	used := map[int]bool{}
	for _, v := range vecs {
		for _, n := range retrieval.TopK(v, docs, m.opts.NeighbourK) {
			if used[n] {
				continue
			}
			used[n] = true
			name := m.member[n]
			k, ok := pos[name]
			if !ok {
				k = len(out)
				pos[name] = k
				out = append(out, candidate{name: name})
			}
			c := &out[k]
			if len(c.examples) < m.opts.CandidateExamples {
				c.examples = append(c.examples, n)
			} else {
				c.examples[r.IntN(len(c.examples))] = n
			}
		}
	}
	return out
}

// view is a trajectory as prompts and hints show it.
func view(t agent.Trajectory, lbl string, vec []float32, maxChars int) LifeMemTrajectory {
	v := LifeMemTrajectory{Label: lbl, Env: t.Env, Task: t.Task, Vector: vec}
	for _, msg := range t.Messages {
		if msg.Role == "assistant" {
			v.Actions = append(v.Actions, truncate(msg.Content, maxChars))
		}
	}
	return v
}

func truncate(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + " …"
}

// process places one batch: candidates, assignment (with bounded re-asks
// and a counted fallback), write, summaries, split check.
func (m *LifeMem) process(ctx context.Context, env agent.Env, batch []agent.Trajectory) error {
	sid := fmt.Sprintf("lifemem/batch%d", m.st.Batches)
	texts := make([]string, len(batch))
	for i, t := range batch {
		texts[i] = embedText(t)
	}
	vecs, err := embedUnit(ctx, env.Embedder, texts)
	if err != nil {
		return err
	}
	first := len(m.rows)
	labels := make([]string, len(batch))
	views := make([]LifeMemTrajectory, len(batch))
	byLabel := map[string]int{}
	msgs := map[string][]llm.Message{}
	for i, t := range batch {
		msgs[label(t.ID, first+i)] = t.Messages
		labels[i] = label(t.ID, first+i)
		views[i] = view(t, labels[i], vecs[i], m.opts.MessageChars)
		byLabel[labels[i]] = i
	}
	cands := m.candidates(vecs, sid, env.Seed)
	candViews := make([]LifeMemCluster, len(cands))
	exMsgs := map[string][]llm.Message{} // the candidates' examples, for release prompts
	for k, c := range cands {
		cv := LifeMemCluster{Name: c.name, Summary: m.clusters[c.name].summary}
		for _, n := range c.examples {
			t, err := loadTrajectory(ctx, m.db, n)
			if err != nil {
				return err
			}
			cv.Examples = append(cv.Examples, view(t, label(t.ID, n), m.rows[n].vec, m.opts.MessageChars))
			exMsgs[label(t.ID, n)] = t.Messages
		}
		candViews[k] = cv
	}

	assigned := make([]string, len(batch))
	created := map[string][]int{} // clusters this batch creates → batch members
	var createdOrder []string
	pending := make([]int, len(batch))
	for i := range pending {
		pending[i] = i
	}
	for attempt := 0; attempt <= m.opts.Retries && len(pending) > 0; attempt++ {
		if attempt > 0 {
			m.st.Count.Retried += len(pending)
		}
		h := LifeMemAssign{Candidates: slices.Clone(candViews)}
		for _, i := range pending {
			h.Trajectories = append(h.Trajectories, views[i])
		}
		// A re-ask must see the clusters the earlier answer created.
		for _, name := range createdOrder {
			cv := LifeMemCluster{Name: name, Summary: "(created in this batch)"}
			for _, i := range created[name][:min(len(created[name]), m.opts.CandidateExamples)] {
				cv.Examples = append(cv.Examples, views[i])
			}
			h.Candidates = append(h.Candidates, cv)
		}
		req := assignPrompt(h, msgs, m.opts.MessageChars)
		if tm, ok := env.Prompts.ConstructionFor(templatesKey); ok {
			req, err = releaseAssign(tm, h, func(l string) []llm.Message {
				if ms, ok := msgs[l]; ok {
					return ms
				}
				return exMsgs[l]
			})
			if err != nil {
				return err
			}
		}
		text, err := m.call(ctx, env, opAssign, sid, attempt, req, h, acceptOps)
		if err != nil {
			return err
		}
		ops, bad := ParseAssignment(text)
		m.st.Count.BadLines += len(bad)
		for _, op := range ops {
			i, ok := byLabel[op.Traj]
			if !ok {
				m.st.Count.BadLines++
				continue
			}
			name := snake(op.Cluster)
			if assigned[i] != "" || name == "" {
				continue
			}
			_, isNew := created[name]
			if op.New == (m.clusters[name] != nil || isNew) {
				m.st.Count.Coerced++
			}
			if m.clusters[name] == nil {
				if !isNew {
					createdOrder = append(createdOrder, name)
				}
				created[name] = append(created[name], i)
			}
			assigned[i] = name
		}
		pending = slices.DeleteFunc(pending, func(i int) bool { return assigned[i] != "" })
	}
	for _, i := range pending {
		m.st.Count.Fallback++
		assigned[i] = m.fallbackCluster(batch[i], vecs[i])
	}

	// Write the batch into the in-memory index and clusters.
	var touched []string
	for i, t := range batch {
		n := len(m.rows)
		m.rows = append(m.rows, row{id: t.ID, env: t.Env, success: t.Success, vec: vecs[i]})
		m.byID[t.ID] = n
		m.member = append(m.member, assigned[i])
		c := m.clusters[assigned[i]]
		if c == nil {
			c = &cluster{}
			m.clusters[assigned[i]] = c
		}
		c.members = append(c.members, n)
		if !slices.Contains(touched, assigned[i]) {
			touched = append(touched, assigned[i])
		}
	}
	slices.Sort(touched)
	// Store first: the summary calls read the members back from the store.
	if err := write(ctx, m.db, first, batch, vecs, m.rows, m.clusters, touched); err != nil {
		return err
	}
	for _, name := range touched {
		if err := m.summarize(ctx, env, name, sid); err != nil {
			return err
		}
	}
	m.touch(touched...)
	if err := write(ctx, m.db, len(m.rows), nil, nil, m.rows, m.clusters, touched); err != nil {
		return err
	}
	m.st.Count.Ingested += len(batch)
	m.st.Batches++
	return m.splitAll(ctx, env, sid)
}

// fallbackCluster places a trajectory no answer placed: with its nearest
// stored neighbour of the same environment, else in "<env>_misc".
func (m *LifeMem) fallbackCluster(t agent.Trajectory, vec []float32) string {
	var docs [][]float32
	var rows []int
	for i, r := range m.rows {
		if r.env == t.Env {
			docs = append(docs, r.vec)
			rows = append(rows, i)
		}
	}
	if top := retrieval.TopK(vec, docs, 1); len(top) == 1 {
		return m.member[rows[top[0]]]
	}
	return snake(t.Env + "_misc")
}

// acceptOps accepts answers with at least one operation, so the response
// cache never keeps garbage.
func acceptOps(r llm.Response) bool {
	ops, _ := ParseAssignment(r.Text)
	return len(ops) > 0
}
