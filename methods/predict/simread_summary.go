package predict

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/memharness/memharness/llm/hint"
	"github.com/memharness/memharness/llm/sim"
)

// Summarize asks to fold a chunk of history into a running summary
// (Purpose "summary"); the embedded backbone reads it with SimReaders.
type Summarize struct {
	Field string // the field the summary is for, e.g. "movie_rating"
	// Fields, when set, are every field the summary serves (OmniBehavior asks
	// up to 18 questions per user); Field is then the most frequent one.
	Fields   []string
	Previous string // the running summary so far
	Chunk    []hint.Event
}

// MaxSummaryFacts bounds the scoped lines of a summary (the "all" line is
// extra), so a summary stays well under a thousand tokens.
const MaxSummaryFacts = 32

// maxMultiFieldFacts bounds the scoped lines of a summary that serves many
// fields; each field gets an equal share, at least minFieldFacts.
const (
	maxMultiFieldFacts = 64
	minFieldFacts      = 3
)

// summarize folds the chunk into the facts of the previous summary, for one
// field (MovieLens) or for every listed field (OmniBehavior).
func summarize(purpose string, h Summarize) (string, error) {
	fields := h.Fields
	if len(fields) == 0 {
		if h.Field == "" {
			return "", fmt.Errorf("sim: %s: summarize hint without a field", purpose)
		}
		fields = []string{h.Field}
	}
	if len(fields) == 1 {
		return summarizeField(fields[0], h, MaxSummaryFacts, false), nil
	}
	limit := max(minFieldFacts, maxMultiFieldFacts/len(fields))
	var b strings.Builder
	for _, f := range fields {
		b.WriteString(summarizeField(f, h, limit, true))
	}
	return b.String(), nil
}

// summarizeField writes the running stats of one field. With byPositives the
// scoped lines kept are those with the most positive outcomes (for rare
// Yes/No behaviours the habits are what matters); otherwise the most common.
func summarizeField(field string, h Summarize, limit int, byPositives bool) string {
	tallies := map[string]*sim.Tally{}
	add := func(conds []sim.Cond, sum float64, n int) {
		k := sim.Scope(conds)
		t, ok := tallies[k]
		if !ok {
			t = &sim.Tally{Conds: conds}
			tallies[k] = t
		}
		t.Sum += sum
		t.N += n
	}
	for _, f := range sim.ParseFacts(h.Previous) {
		if f.Field == field && !f.Bias {
			add(f.Conds, f.Sum, f.Count)
		}
	}
	for _, e := range h.Chunk {
		y, ok := e.Outcomes[field]
		if !ok {
			continue
		}
		add(nil, y, 1)
		if e.Scene != "" {
			add([]sim.Cond{{Key: "scene", Value: e.Scene}}, y, 1)
		}
		// Sorted keys: the order of additions must not depend on map order.
		for _, k := range slices.Sorted(maps.Keys(e.Attrs)) {
			for _, v := range sim.AttrValues(e.Attrs[k]) {
				add([]sim.Cond{{Key: k, Value: v}}, y, 1)
			}
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "Summary of the user's %s history:\n", field)
	all, ok := tallies["all"]
	if !ok {
		b.WriteString("(no records yet)\n")
		return b.String()
	}
	b.WriteString(all.Fact(field).String() + "\n")
	delete(tallies, "all")
	keys := make([]string, 0, len(tallies))
	for k := range tallies {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, c string) int {
		if byPositives {
			if d := cmp.Compare(tallies[c].Sum, tallies[a].Sum); d != 0 {
				return d
			}
		}
		if d := cmp.Compare(tallies[c].N, tallies[a].N); d != 0 {
			return d
		}
		return cmp.Compare(a, c)
	})
	for _, k := range keys[:min(len(keys), limit)] {
		b.WriteString(tallies[k].Fact(field).String() + "\n")
	}
	return b.String()
}
