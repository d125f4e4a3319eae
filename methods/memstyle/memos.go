package memstyle

import (
	"context"
	"fmt"
	"strings"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm/tokens"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/methods/retrieval"
)

// memosTypes are the MemOS-style memory types, in the order the memory
// block shows them: base rates, near-rules, likes, then episodes.
var memosTypes = []string{"profile", "habit", "preference", "event"}

// memos is the MemOS-style baseline: typed memory units. Each chunk of the
// practice history gets one summarisation call per type, writing new units
// of that type; when a type holds more than its cap (MaxMemory split
// equally over the types) a consolidation call rewrites it to half the cap
// (half, so consolidation runs every few chunks rather than after every
// one). At prediction each type contributes its units most similar to the
// question and scene (TopK shared equally by the types).
type memos struct{ common }

func (m *memos) perType() int { return max(1, m.k.MaxMemory/len(memosTypes)) }

func (m *memos) PrepareUser(ctx context.Context, env predict.Env, u behavior.UserSet) (predict.Memory, error) {
	if len(u.Instances) == 0 {
		return predict.Memory{}, nil
	}
	if env.Embedder == nil {
		return predict.Memory{}, fmt.Errorf("method %s: memos retrieval needs an embedder", m.name)
	}
	b, err := m.begin(env, u)
	if err != nil {
		return predict.Memory{}, err
	}
	fields := userFields(u)
	var chunks []chunk
	for k, c := range chunkRecords(practice(u), m.k.Chunk) {
		recs, err := m.prompts(b.env).Records(c)
		if err != nil {
			return predict.Memory{}, fmt.Errorf("method %s: %w", m.name, err)
		}
		sp, events := span(c, k, m.k.Chunk), hintEvents(c)
		chunks = append(chunks, chunk{records: recs, span: sp, typedTemplate: "memos_extract",
			typed: func(typ string, existing []string) any {
				return MemTyped{Type: typ, Fields: fields, Span: sp, Existing: existing, Chunk: events, MaxUnits: m.k.MaxFacts}
			}})
	}
	return m.construct(ctx, b, chunks, "memos_consolidate")
}

// construct runs the MemOS-style construction over the chunks (behaviour
// records or dialogue turns alike) from the checkpointed step on;
// consolidation renders its prompt with the consolidate template.
func (m *memos) construct(ctx context.Context, b *build, chunks []chunk, consolidate string) (predict.Memory, error) {
	env := b.env
	for !b.st.Done && b.st.Step < len(chunks) {
		k := b.st.Step
		for _, typ := range memosTypes {
			if err := m.extract(ctx, b, typ, chunks[k], k); err != nil {
				return predict.Memory{}, err
			}
			if len(ofType(b.st.Units, typ)) > m.perType() {
				if err := m.consolidate(ctx, b, typ, consolidate, chunks[k].date); err != nil {
					return predict.Memory{}, err
				}
			}
		}
		b.st.Step++
		if err := b.save(); err != nil {
			return predict.Memory{}, err
		}
	}
	if !b.st.Done {
		if err := b.finish(); err != nil {
			return predict.Memory{}, err
		}
	}
	text, err := m.storeText(env, b.st.Units)
	if err != nil {
		return predict.Memory{}, err
	}
	return b.memory(text, map[string]any{"units": b.st.Units, "chunks": len(chunks), "stored": len(b.st.Units)}), nil
}

// ofType returns the texts of the units of one type, in store order.
func ofType(units []unit, typ string) []string {
	var out []string
	for _, u := range units {
		if u.Type == typ {
			out = append(out, u.Text)
		}
	}
	return out
}

// span names a chunk for the prompt: its record positions and times.
func span(chunk []behavior.Event, k, size int) string {
	s := fmt.Sprintf("records %d-%d", k*size+1, k*size+len(chunk))
	if len(chunk) > 0 && chunk[0].Time != "" {
		s += ", " + chunk[0].Time + " .. " + chunk[len(chunk)-1].Time
	}
	return s
}

func (m *memos) extract(ctx context.Context, b *build, typ string, ch chunk, k int) error {
	existing := ofType(b.st.Units, typ)
	prompt, err := m.text(b.env).exec(ch.typedTemplate, struct {
		Type, Span, Records string
		Existing            []string
		MaxUnits            int
	}{typ, ch.span, ch.records, existing, m.k.MaxFacts})
	if err != nil {
		return err
	}
	h := ch.typed(typ, existing)
	text, ok, err := b.call(ctx, "memos.extract", fmt.Sprintf("memos/%s/%s/%d", b.user, typ, k), prompt, h,
		func(s string) bool { return parseList(s).valid() })
	if err != nil || !ok {
		return err
	}
	l := parseList(text)
	b.st.Counters["bad_lines"] += l.Bad
	items := l.Items
	if len(items) > m.k.MaxFacts {
		b.st.Counters["units_over_limit"] += len(items) - m.k.MaxFacts
		items = items[:m.k.MaxFacts]
	}
	for _, it := range items {
		b.st.Units = append(b.st.Units, unit{ID: b.newID(), Type: typ, Text: it, Touched: k, Date: ch.date})
	}
	b.st.Counters["units_"+typ] += len(items)
	return nil
}

// consolidate rewrites the units of typ into at most half the per-type cap,
// the rewritten units stamped with date (the chunk being read). When no
// draw is usable the newest units are kept (counted in
// consolidate_fallbacks), so the cap holds either way.
func (m *memos) consolidate(ctx context.Context, b *build, typ, template, date string) error {
	target := max(1, m.perType()/2)
	units := ofType(b.st.Units, typ)
	n := b.st.Counters["consolidations"]
	prompt, err := m.text(b.env).exec(template, struct {
		Type  string
		Units []string
		Max   int
	}{typ, units, target})
	if err != nil {
		return err
	}
	text, ok, err := b.call(ctx, "memos.consolidate", fmt.Sprintf("memos/%s/consolidate/%s/%d", b.user, typ, n), prompt,
		MemConsolidate{Type: typ, Units: units, Max: target},
		func(s string) bool { return len(parseList(s).Items) > 0 })
	if err != nil {
		return err
	}
	b.st.Counters["consolidations"]++
	kept := units[max(0, len(units)-target):]
	if ok {
		l := parseList(text)
		b.st.Counters["bad_lines"] += l.Bad
		kept = l.Items[:min(len(l.Items), target)]
	} else {
		b.st.Counters["consolidate_fallbacks"]++
	}
	touched := b.st.Step
	var rest []unit
	for _, u := range b.st.Units {
		if u.Type != typ {
			rest = append(rest, u)
		}
	}
	for _, t := range kept {
		rest = append(rest, unit{ID: b.newID(), Type: typ, Text: t, Touched: touched, Date: date})
	}
	b.st.Units = rest
	return nil
}

// section is one type's part of a memory block.
type section struct{ Title, Items string }

// sections renders the given texts per type under the type titles,
// keeping lines while they fit limit tokens overall.
func (m *memos) sections(env predict.Env, c tokens.Counter, byType map[string][]string, limit int) ([]section, error) {
	var out []section
	used := 0
	for _, typ := range memosTypes {
		var lines []string
		for _, t := range byType[typ] {
			l := "- " + t
			cost := c.Count(l + "\n")
			if used+cost > limit {
				break
			}
			used += cost
			lines = append(lines, l)
		}
		if len(lines) == 0 {
			continue
		}
		title, err := m.text(env).exec("memos_title", typ)
		if err != nil {
			return nil, err
		}
		out = append(out, section{Title: title, Items: strings.Join(lines, "\n")})
	}
	return out, nil
}

// storeText renders the whole store by type (Memory.Text).
func (m *memos) storeText(env predict.Env, units []unit) (string, error) {
	byType := map[string][]string{}
	for _, typ := range memosTypes {
		byType[typ] = ofType(units, typ)
	}
	// Every unit: a counter that costs nothing never runs out of budget.
	secs, err := m.sections(env, tokens.CounterFunc(func(string) int { return 0 }), byType, 0)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i, s := range secs {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("### " + s.Title + "\n" + s.Items + "\n")
	}
	return b.String(), nil
}

func (m *memos) Predict(ctx context.Context, env predict.Env, mem predict.Memory, inst behavior.Instance) (predict.Outcome, error) {
	units, err := unitsOf(mem)
	if err != nil {
		return predict.Outcome{}, fmt.Errorf("method %s: %s: %w", m.name, inst.ID, err)
	}
	block := ""
	secs, err := m.recall(ctx, env, units, queryText(inst))
	if err != nil {
		return predict.Outcome{}, fmt.Errorf("method %s: %s: %w", m.name, inst.ID, err)
	}
	if len(secs) > 0 {
		if block, err = m.text(env).exec("memory_memos", struct{ Sections []section }{secs}); err != nil {
			return predict.Outcome{}, err
		}
	}
	return m.predictWith(ctx, env, env.Model, "predict", inst, block)
}

// recall is each type's units most similar to query (top_k shared
// equally by the types), by type, kept while they fit the memory block's
// budget.
func (m *memos) recall(ctx context.Context, env predict.Env, units []unit, query string) ([]section, error) {
	picks, err := m.pick(ctx, env, units, query)
	if err != nil || picks == nil {
		return nil, err
	}
	byType := map[string][]string{}
	for typ, ps := range picks {
		for _, p := range ps {
			byType[typ] = append(byType[typ], units[p].Text)
		}
	}
	return m.sections(env, counter(env), byType, m.memTokens)
}

// pick is, per type, the positions in units of the type's units most
// similar to query (top_k shared equally by the types), most similar
// first; nil for an empty store.
func (m *memos) pick(ctx context.Context, env predict.Env, units []unit, query string) (map[string][]int, error) {
	if len(units) == 0 {
		return nil, nil
	}
	texts := make([]string, len(units))
	for i, u := range units {
		texts[i] = u.Text
	}
	vs, err := embedAll(ctx, env.Embedder, append([]string{query}, texts...))
	if err != nil {
		return nil, err
	}
	quota := (m.k.TopK + len(memosTypes) - 1) / len(memosTypes)
	out := map[string][]int{}
	for _, typ := range memosTypes {
		var pos []int
		var docs [][]float32
		for i, u := range units {
			if u.Type == typ {
				pos = append(pos, i)
				docs = append(docs, vs[i+1])
			}
		}
		for _, j := range retrieval.TopK(vs[0], docs, quota) {
			out[typ] = append(out[typ], pos[j])
		}
	}
	return out, nil
}
