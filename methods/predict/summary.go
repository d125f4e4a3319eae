package predict

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/tokens"
)

// summary is recursive summarisation (Wang et al. 2023): the practice
// history is read oldest to newest in chunks, each call folding one chunk
// into the running summary. Prediction is the 8K-history prompt with the
// final summary appended as a memory block.
type summary struct {
	base
	chunkTokens, summaryTokens int
	summaryParams              llm.Params
}

func newSummary(b base, s Spec) *summary {
	return &summary{
		base:          b,
		chunkTokens:   orDefault(s.ChunkTokens, DefaultChunkTokens),
		summaryTokens: orDefault(s.SummaryTokens, DefaultSummaryTokens),
		summaryParams: s.ParamsFor(PurposeSummary),
	}
}

// chunks splits events greedily into runs whose summed cost fits limit; a
// record larger than limit forms a chunk of its own.
func (p *Prompts) chunks(c tokens.Counter, events []behavior.Event, limit int) ([][]behavior.Event, error) {
	var out [][]behavior.Event
	start, used := 0, 0
	for i, e := range events {
		cost, err := p.RecordCost(c, e)
		if err != nil {
			return nil, err
		}
		if i > start && used+cost > limit {
			out = append(out, events[start:i])
			start, used = i, 0
		}
		used += cost
	}
	if start < len(events) {
		out = append(out, events[start:])
	}
	return out, nil
}

func (m *summary) PrepareUser(ctx context.Context, env Env, u behavior.UserSet) (Memory, error) {
	if len(u.Instances) == 0 {
		return Memory{}, nil
	}
	if env.Builder() == nil {
		return Memory{}, fmt.Errorf("method %s: no model", m.name)
	}
	p, c := m.prompts(env), env.counter()
	first := u.Instances[0]
	chunks, err := p.chunks(c, first.History[:first.PracticeCut], m.chunkTokens)
	if err != nil {
		return Memory{}, err
	}
	mem := Memory{Meta: map[string]any{"chunks": len(chunks)}}
	running := ""
	for k, chunk := range chunks {
		next, err := m.fold(ctx, env, p, u, k, running, chunk, &mem)
		if err != nil {
			return Memory{}, err
		}
		running = truncateTokens(c, next, m.summaryTokens)
	}
	mem.Text = running
	mem.Tokens = c.Count(running)
	return mem, nil
}

// fold asks for the summary after one more chunk. An empty answer is
// redrawn; if every draw is empty the previous summary is kept.
func (m *summary) fold(ctx context.Context, env Env, p *Prompts, u behavior.UserSet, k int, prev string, chunk []behavior.Event, mem *Memory) (string, error) {
	prompt, err := p.Summarize(prev, chunk, m.summaryTokens)
	if err != nil {
		return "", err
	}
	h := Summarize{Field: summaryField(u), Fields: summaryFields(u), Previous: prev}
	for _, e := range chunk {
		h.Chunk = append(h.Chunk, hintEvent(e, true))
	}
	return m.foldPrompt(ctx, env, u.User, k, prev, prompt, h, mem)
}

// foldPrompt sends one folding step's prompt (and the sim's hint of it)
// for the k-th chunk of user's material (behaviour records or dialogue
// turns), redrawing empty answers; when every draw is empty the previous
// summary is kept.
func (m *summary) foldPrompt(ctx context.Context, env Env, user string, k int, prev, prompt string, h any, mem *Memory) (string, error) {
	req := llm.Request{
		Purpose:  PurposeSummary,
		Messages: []llm.Message{{Role: "user", Content: prompt}},
		Params:   m.summaryParams,
		SampleID: fmt.Sprintf("summary/%s/%d", user, k),
		Unit:     fmt.Sprintf("%s/%s/%d", m.name, user, k), // the method's own step
		Affinity: user,
		Hint:     h,
		Accept:   func(r llm.Response) bool { return cleanSummary(r.Text) != "" },
	}
	for a := 0; a < env.maxAttempts(); a++ {
		if err := ctx.Err(); err != nil {
			return "", fmt.Errorf("method %s: user %s: %w", m.name, user, err)
		}
		req.Attempt = a
		resp, err := env.Builder().Generate(ctx, req)
		if err != nil {
			return "", fmt.Errorf("method %s: %s attempt %d: %w", m.name, req.SampleID, a, err)
		}
		mem.Calls++
		mem.Usage = mem.Usage.Add(resp.Usage)
		if s := cleanSummary(resp.Text); s != "" {
			return s, nil
		}
	}
	return prev, nil
}

func cleanSummary(s string) string { return strings.TrimSpace(StripThink(s)) }

// summaryField names the field the summary is for (Summarize.Field):
// the field shared by all of the user's questions (MovieLens: movie_rating)
// or, when they differ (OmniBehavior), the most frequent one, ties going to
// the first asked. The prompt itself is field-agnostic; only the sim reads
// this, and it keeps statistics for one field per summary.
func summaryField(u behavior.UserSet) string {
	counts := map[string]int{}
	best := ""
	for _, in := range u.Instances {
		f := in.Question.Field
		counts[f]++
		if counts[f] > counts[best] || best == "" {
			best = f
		}
	}
	return best
}

// summaryFields lists every field the user is asked about, sorted.
func summaryFields(u behavior.UserSet) []string {
	seen := map[string]bool{}
	var out []string
	for _, in := range u.Instances {
		if f := in.Question.Field; !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// truncateTokens returns the longest rune prefix of s that costs at most
// limit tokens (binary search; token counts grow with the prefix).
func truncateTokens(c tokens.Counter, s string, limit int) string {
	if c.Count(s) <= limit {
		return s
	}
	r := []rune(s)
	lo, hi := 0, len(r) // invariant: r[:lo] fits, r[:hi] does not
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if c.Count(string(r[:mid])) <= limit {
			lo = mid
		} else {
			hi = mid
		}
	}
	return string(r[:lo])
}

func (m *summary) Predict(ctx context.Context, env Env, mem Memory, inst behavior.Instance) (Outcome, error) {
	p := m.prompts(env)
	w, err := p.SelectWindow(env.counter(), inst.History, m.budget)
	if err != nil {
		return Outcome{}, err
	}
	block := ""
	if mem.Text != "" {
		if block, err = p.SummaryMemory(mem.Text); err != nil {
			return Outcome{}, err
		}
	}
	v, err := m.compose(env, p, inst, w, nil, block)
	if err != nil {
		return Outcome{}, err
	}
	return m.ask(ctx, env, inst, v)
}
