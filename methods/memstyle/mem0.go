package memstyle

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/methods/predict"
)

// mem0 is the Mem0-style baseline: the practice history is read in chunks
// of records; one call per chunk extracts salient facts about the user, and
// for each fact one call, shown the most similar stored memories, decides
// to ADD it, UPDATE or DELETE a shown memory, or do NONE. At prediction the
// memories most similar to the question and scene are appended after the
// 8K-history prompt.
type mem0 struct{ common }

// chunkRecords splits events into consecutive chunks of size records.
func chunkRecords(events []behavior.Event, size int) [][]behavior.Event {
	var out [][]behavior.Event
	for lo := 0; lo < len(events); lo += size {
		out = append(out, events[lo:min(lo+size, len(events))])
	}
	return out
}

// storeText renders stored memories one per line (Memory.Text: the whole
// store, whose size is the memory-token figure).
func storeText(units []unit) string {
	texts := make([]string, len(units))
	for i, u := range units {
		texts[i] = u.Text
	}
	return listItems(texts)
}

func (m *mem0) PrepareUser(ctx context.Context, env predict.Env, u behavior.UserSet) (predict.Memory, error) {
	if len(u.Instances) == 0 {
		return predict.Memory{}, nil
	}
	if env.Embedder == nil {
		return predict.Memory{}, fmt.Errorf("method %s: mem0 retrieval needs an embedder", m.name)
	}
	b, err := m.begin(env, u)
	if err != nil {
		return predict.Memory{}, err
	}
	chunks, err := m.recordChunks(b.env, practice(u), userFields(u))
	if err != nil {
		return predict.Memory{}, err
	}
	return m.construct(ctx, b, chunks)
}

// construct runs the Mem0-style construction over the chunks (behaviour
// records or dialogue turns alike) from the checkpointed step on.
func (m *mem0) construct(ctx context.Context, b *build, chunks []chunk) (predict.Memory, error) {
	vc := vecCache{}
	for !b.st.Done && b.st.Step < len(chunks) {
		k := b.st.Step
		facts, err := m.extract(ctx, b, chunks[k], k)
		if err != nil {
			return predict.Memory{}, err
		}
		for i, f := range facts {
			if err := m.update(ctx, b, vc, f, chunks[k].date, k, i); err != nil {
				return predict.Memory{}, err
			}
		}
		m.evict(b)
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
	return b.memory(storeText(b.st.Units), map[string]any{"units": b.st.Units, "chunks": len(chunks), "stored": len(b.st.Units)}), nil
}

// recordChunks are a user's practice records in chunks of the configured
// size, as the extraction prompt shows them and the sim reads them.
func (m *mem0) recordChunks(env predict.Env, events []behavior.Event, fields []string) ([]chunk, error) {
	var out []chunk
	for _, c := range chunkRecords(events, m.k.Chunk) {
		recs, err := m.prompts(env).Records(c)
		if err != nil {
			return nil, fmt.Errorf("method %s: %w", m.name, err)
		}
		out = append(out, chunk{records: recs, template: "mem0_extract",
			hint: MemExtract{Fields: fields, Chunk: hintEvents(c), MaxFacts: m.k.MaxFacts}})
	}
	return out, nil
}

// extract asks for the salient facts of chunk k.
func (m *mem0) extract(ctx context.Context, b *build, ch chunk, k int) ([]string, error) {
	prompt, err := m.text(b.env).exec(ch.template, struct {
		Records  string
		MaxFacts int
	}{ch.records, m.k.MaxFacts})
	if err != nil {
		return nil, err
	}
	text, ok, err := b.call(ctx, "mem0.extract", fmt.Sprintf("mem0/%s/extract/%d", b.user, k), prompt, ch.hint,
		func(s string) bool { return parseList(s).valid() })
	if err != nil || !ok {
		return nil, err
	}
	l := parseList(text)
	b.st.Counters["bad_lines"] += l.Bad
	facts := l.Items
	if len(facts) > m.k.MaxFacts {
		b.st.Counters["facts_over_limit"] += len(facts) - m.k.MaxFacts
		facts = facts[:m.k.MaxFacts]
	}
	b.st.Counters["facts"] += len(facts)
	return facts, nil
}

// update asks how fact i of chunk k changes the store and applies the
// decisions. When no draw holds a usable decision the fact is added: the
// extractor judged it salient, and losing it silently would be worse than
// a duplicate (counted in update_fallbacks).
func (m *mem0) update(ctx context.Context, b *build, vc vecCache, fact, date string, k, i int) error {
	texts := make([]string, len(b.st.Units))
	for j, u := range b.st.Units {
		texts[j] = u.Text
	}
	near, err := vc.top(ctx, b.env.Embedder, fact, texts, UpdateNeighbours)
	if err != nil {
		return fmt.Errorf("method %s: user %s: %w", m.name, b.user, err)
	}
	shown := make([]MemItem, len(near))
	for j, p := range near {
		shown[j] = MemItem{ID: b.st.Units[p].ID, Text: b.st.Units[p].Text}
	}
	known := func(id string) bool {
		return slices.ContainsFunc(shown, func(s MemItem) bool { return s.ID == id })
	}
	prompt, err := m.text(b.env).exec("mem0_update", struct {
		Fact     string
		Existing []MemItem
	}{fact, shown})
	if err != nil {
		return err
	}
	text, ok, err := b.call(ctx, "mem0.update", fmt.Sprintf("mem0/%s/update/%d/%d", b.user, k, i), prompt,
		MemUpdate{Fact: fact, Existing: shown},
		func(s string) bool { ops, _ := parseOps(s, known); return len(ops) > 0 })
	if err != nil {
		return err
	}
	ops := []op{{Kind: opAdd}}
	if ok {
		var bad int
		ops, bad = parseOps(text, known)
		b.st.Counters["bad_lines"] += bad
	} else {
		b.st.Counters["update_fallbacks"]++
	}
	m.apply(b, ops, fact, date, k)
	return nil
}

// apply carries out decisions in order, stamping what it adds or updates
// with date. A decision about a memory an earlier decision of the same
// answer deleted is counted as a bad line.
func (m *mem0) apply(b *build, ops []op, fact, date string, k int) {
	for _, o := range ops {
		text := o.Text
		if text == "" {
			text = fact
		}
		at := slices.IndexFunc(b.st.Units, func(u unit) bool { return u.ID == o.ID })
		switch o.Kind {
		case opAdd:
			b.st.Units = append(b.st.Units, unit{ID: b.newID(), Text: text, Touched: k, Date: date})
			b.st.Counters["added"]++
		case opUpdate:
			if at < 0 {
				b.st.Counters["bad_lines"]++
				continue
			}
			b.st.Units[at].Text, b.st.Units[at].Touched, b.st.Units[at].Date = text, k, date
			b.st.Counters["updated"]++
		case opDelete:
			if at < 0 {
				b.st.Counters["bad_lines"]++
				continue
			}
			b.st.Units = slices.Delete(b.st.Units, at, at+1)
			b.st.Counters["deleted"]++
		case opNone:
			b.st.Counters["none"]++
		}
	}
}

// evict enforces MaxMemory (0: unbounded, as Mem0) by dropping the
// memories written longest ago (ties: the older id).
func (m *mem0) evict(b *build) {
	if m.k.MaxMemory <= 0 {
		return
	}
	for len(b.st.Units) > m.k.MaxMemory {
		old := 0
		for j, u := range b.st.Units {
			if u.Touched < b.st.Units[old].Touched {
				old = j
			}
		}
		b.st.Units = slices.Delete(b.st.Units, old, old+1)
		b.st.Counters["evicted"]++
	}
}

func (m *mem0) Predict(ctx context.Context, env predict.Env, mem predict.Memory, inst behavior.Instance) (predict.Outcome, error) {
	units, err := unitsOf(mem)
	if err != nil {
		return predict.Outcome{}, fmt.Errorf("method %s: %s: %w", m.name, inst.ID, err)
	}
	block := ""
	lines, err := m.recall(ctx, env, units, queryText(inst))
	if err != nil {
		return predict.Outcome{}, fmt.Errorf("method %s: %s: %w", m.name, inst.ID, err)
	}
	if len(lines) > 0 {
		if block, err = m.text(env).exec("memory_mem0", struct{ Items string }{strings.Join(lines, "\n")}); err != nil {
			return predict.Outcome{}, err
		}
	}
	return m.predictWith(ctx, env, env.Model, "predict", inst, block)
}

// recall is the top_k stored memories most similar to query, as "- "
// lines, kept while they fit the memory block's budget.
func (m *mem0) recall(ctx context.Context, env predict.Env, units []unit, query string) ([]string, error) {
	picks, err := m.pick(ctx, env, units, query)
	lines := make([]string, len(picks))
	for i, p := range picks {
		lines[i] = "- " + units[p].Text
	}
	return lines, err
}

// pick is the positions in units of what recall shows: the top_k most
// similar to query, most similar first, while their lines fit the budget.
func (m *mem0) pick(ctx context.Context, env predict.Env, units []unit, query string) ([]int, error) {
	if len(units) == 0 {
		return nil, nil
	}
	texts := make([]string, len(units))
	for i, u := range units {
		texts[i] = u.Text
	}
	top, err := topSimilar(ctx, env.Embedder, query, texts, m.k.TopK)
	if err != nil {
		return nil, err
	}
	lines := make([]string, len(top))
	for i, p := range top {
		lines[i] = "- " + texts[p]
	}
	return top[:len(fitLines(counter(env), lines, m.memTokens))], nil
}
