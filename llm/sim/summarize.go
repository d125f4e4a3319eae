package sim

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/memharness/memharness/llm/hint"
)

// MaxSummaryFacts bounds the scoped lines of a summary (the "all" line is
// extra), so a summary stays well under a thousand tokens.
const MaxSummaryFacts = 32

type tally struct {
	conds []Cond
	sum   float64
	n     int
}

// maxMultiFieldFacts bounds the scoped lines of a summary that serves many
// fields; each field gets an equal share, at least minFieldFacts.
const (
	maxMultiFieldFacts = 64
	minFieldFacts      = 3
)

// summarize folds the chunk into the facts of the previous summary, for one
// field (MovieLens) or for every listed field (OmniBehavior).
func summarize(purpose string, h hint.Summarize) (string, error) {
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
func summarizeField(field string, h hint.Summarize, limit int, byPositives bool) string {
	tallies := map[string]*tally{}
	add := func(conds []Cond, sum float64, n int) {
		k := scope(conds)
		t, ok := tallies[k]
		if !ok {
			t = &tally{conds: conds}
			tallies[k] = t
		}
		t.sum += sum
		t.n += n
	}
	for _, f := range ParseFacts(h.Previous) {
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
			add([]Cond{{"scene", e.Scene}}, y, 1)
		}
		// Sorted keys: the order of additions must not depend on map order.
		for _, k := range slices.Sorted(maps.Keys(e.Attrs)) {
			for _, v := range values(e.Attrs[k]) {
				add([]Cond{{k, v}}, y, 1)
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
	b.WriteString(fact(field, all).String() + "\n")
	delete(tallies, "all")
	keys := make([]string, 0, len(tallies))
	for k := range tallies {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, c string) int {
		if byPositives {
			if d := cmp.Compare(tallies[c].sum, tallies[a].sum); d != 0 {
				return d
			}
		}
		if d := cmp.Compare(tallies[c].n, tallies[a].n); d != 0 {
			return d
		}
		return cmp.Compare(a, c)
	})
	for _, k := range keys[:min(len(keys), limit)] {
		b.WriteString(fact(field, tallies[k]).String() + "\n")
	}
	return b.String()
}

func fact(field string, t *tally) Fact {
	return Fact{Field: field, Conds: t.conds, Mean: t.sum / float64(t.n), Count: t.n, Sum: t.sum}
}
