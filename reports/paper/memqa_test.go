package paper

import (
	"math"
	"strings"
	"testing"

	dmemqa "github.com/memharness/memharness/datasets/memqa"
)

// The published rows carry their provenance: each names the paper and
// table (or the file at its commit) and a backbone, and holds only the
// columns its source prints.
func TestPublishedRowsNameTheirSources(t *testing.T) {
	labels := map[string]bool{}
	for _, r := range LoCoMoPublished() {
		if labels[r.Label] {
			t.Errorf("LoCoMo row %q twice", r.Label)
		}
		labels[r.Label] = true
		if r.Backbone == "" || !(strings.Contains(r.Source, "Table") || strings.Contains(r.Source, "@")) {
			t.Errorf("%s: source %q, backbone %q: want a paper and table (or file@commit) and a backbone", r.Label, r.Source, r.Backbone)
		}
		if r.AdversarialCounted {
			t.Errorf("%s: both sources leave the adversarial category out", r.Label)
		}
		for name := range r.Categories {
			if name != "single-hop" && name != "multi-hop" && name != "open-domain" && name != "temporal" {
				t.Errorf("%s: category %q is not a column the Mem0 paper prints", r.Label, name)
			}
		}
		// Table 1 has no overall F1 or B1; Table 2 no categories.
		if strings.HasPrefix(r.Source, Mem0Paper) && (!math.IsNaN(r.Overall.F1) || !math.IsNaN(r.Overall.B1)) {
			t.Errorf("%s: an overall F1 or B1 the Mem0 paper does not print", r.Label)
		}
		if strings.HasSuffix(r.Source, "Table 2") && len(r.Categories) > 0 {
			t.Errorf("%s: Table 2 prints no categories", r.Label)
		}
		if (r.TopK > 0) != !math.IsNaN(r.ChunkTokens) || r.TopK > 0 && !math.IsNaN(r.MemoryTokens) {
			t.Errorf("%s: a RAG row has k and a chunk size and no memory tokens", r.Label)
		}
	}
	// Table 1's eleven methods, Table 2's A-Mem and full context, its
	// fourteen RAG settings, and Zep's re-evaluation.
	if n := len(LoCoMoPublished()); n != 1+11+2+14 {
		t.Errorf("%d LoCoMo rows, want 28", n)
	}
	types := dmemqa.QuestionTypes()
	for _, r := range LongMemEvalPublished() {
		if len(r.Types) != len(types) || r.AbstentionApart {
			t.Errorf("%s (%s): %d types; the Zep paper prints the six, no abstention class", r.Label, r.Backbone, len(r.Types))
		}
		for _, typ := range types {
			if _, ok := r.Types[typ]; !ok {
				t.Errorf("%s (%s): no %s", r.Label, r.Backbone, typ)
			}
		}
		if !strings.HasPrefix(r.Source, ZepPaper) || !strings.Contains(r.Dataset, "115k") || r.Backbone == "" || r.Judge == "" {
			t.Errorf("%s: source %q dataset %q backbone %q judge %q", r.Label, r.Source, r.Dataset, r.Backbone, r.Judge)
		}
	}
}

// Spot checks against the papers' tables, cell by cell as printed.
func TestPublishedValuesAsPrinted(t *testing.T) {
	loc := map[string]LoCoMoRow{}
	for _, r := range LoCoMoPublished() {
		loc[r.Label] = r
	}
	for _, c := range []struct {
		label, cat string
		want       LoCoMoScore
	}{
		{"Mem0", "single-hop", LoCoMoScore{38.72, 27.13, 67.13, 0.65}},
		{"Mem0", "temporal", LoCoMoScore{48.93, 40.51, 55.51, 0.34}},
		{"Mem0^g", "open-domain", LoCoMoScore{49.27, 40.30, 75.71, 0.21}},
		{"Zep", "open-domain", LoCoMoScore{49.56, 38.92, 76.60, 0.13}},
		{"LangMem", "multi-hop", LoCoMoScore{26.04, 22.32, 47.92, 0.47}},
		{"OpenAI", "temporal", LoCoMoScore{14.04, 11.25, 21.71, 0.20}},
		{"A-Mem* (the Mem0 authors' re-run at temperature 0)", "single-hop", LoCoMoScore{20.76, 14.90, 39.79, 0.38}},
	} {
		if got := loc[c.label].Categories[c.cat]; got != c.want {
			t.Errorf("%s %s = %+v, want %+v", c.label, c.cat, got, c.want)
		}
	}
	for _, c := range []struct {
		label  string
		j      float64
		tokens float64
		lat    Latency
	}{
		{"Mem0", 66.88, 1764, Latency{0.148, 0.200, 0.708, 1.440}},
		{"Mem0^g", 68.44, 3616, Latency{0.476, 0.657, 1.091, 2.590}},
		{"Zep", 65.99, 3911, Latency{0.513, 0.778, 1.292, 2.926}},
		{"A-Mem (Table 2)", 48.38, 2520, Latency{0.668, 1.485, 1.410, 4.374}},
	} {
		r := loc[c.label]
		if r.Overall.J != c.j || r.MemoryTokens != c.tokens || r.Latency != c.lat {
			t.Errorf("%s: J %v, tokens %v, latency %+v", c.label, r.Overall.J, r.MemoryTokens, r.Latency)
		}
	}
	if fc := loc["Full-context"]; fc.Overall.J != 72.90 || fc.MemoryTokens != 26031 || !math.IsNaN(fc.Latency.SearchP50) || fc.Latency.TotalP95 != 17.117 {
		t.Errorf("full context %+v", fc)
	}
	if rag := loc["RAG (k=2, chunk 256)"]; rag.Overall.J != 60.97 || rag.TopK != 2 || rag.ChunkTokens != 256 || rag.Latency.TotalP95 != 1.907 {
		t.Errorf("RAG k=2 chunk 256 %+v", rag)
	}
	lme := LongMemEvalPublished()
	if r := lme[3]; r.Label != "Zep" || r.Backbone != "gpt-4o" || r.Types["single-session-preference"] != 56.7 || r.Overall != 71.2 {
		t.Errorf("Zep with gpt-4o %+v", r)
	}
	if r := lme[0]; r.Backbone != "gpt-4o-mini" || r.Types["temporal-reasoning"] != 36.5 || r.Overall != 55.4 || r.Context != "115k" {
		t.Errorf("full context with gpt-4o-mini %+v", r)
	}
}
