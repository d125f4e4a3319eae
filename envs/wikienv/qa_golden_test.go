package wikienv

import (
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/memharness/memharness/internal/pystr/pystrtest"
)

var update = flag.Bool("update", false, "rewrite the inputs of testdata/qa_golden.json (the official outputs must then be captured again, see testdata/README.md)")

// qaCase is one generated (prediction, gold) pair with what the official
// HotpotQA normalisation, EM and F1 (run under CPython 3.11) returned.
type qaCase struct {
	Pred     string  `json:"pred"`
	Gold     string  `json:"gold"`
	NormPred string  `json:"norm_pred"`
	NormGold string  `json:"norm_gold"`
	EM       bool    `json:"em"`
	F1       float64 `json:"f1"`
}

// TestQAGolden compares NormalizeAnswer, ExactMatch and F1 with the
// official functions on 1,500 generated pairs heavy in the Unicode cases
// where Python and Go defaults differ.
func TestQAGolden(t *testing.T) {
	path := filepath.Join("testdata", "qa_golden.json")
	if *update {
		rng := rand.New(rand.NewPCG(14, 1))
		var cs []qaCase
		for i := 0; i < 1500; i++ {
			p, g := pystrtest.Pair(rng)
			cs = append(cs, qaCase{Pred: p, Gold: g})
		}
		b, _ := json.MarshalIndent(map[string]any{"pairs": cs}, "", " ")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Skip("inputs rewritten")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var g struct{ Pairs []qaCase }
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(g.Pairs) < 1500 {
		t.Fatalf("%s: %d pairs", path, len(g.Pairs))
	}
	norm, em, f1 := 0, 0, 0
	for _, c := range g.Pairs {
		if NormalizeAnswer(c.Pred) != c.NormPred || NormalizeAnswer(c.Gold) != c.NormGold {
			norm++
			if norm <= 10 {
				t.Errorf("NormalizeAnswer(%q) = %q, official %q", c.Pred, NormalizeAnswer(c.Pred), c.NormPred)
			}
		}
		if ExactMatch(c.Pred, c.Gold) != c.EM {
			em++
		}
		if F1(c.Pred, c.Gold) != c.F1 {
			f1++
			if f1 <= 10 {
				t.Errorf("F1(%q, %q) = %v, official %v", c.Pred, c.Gold, F1(c.Pred, c.Gold), c.F1)
			}
		}
	}
	t.Logf("%d pairs: normalisations differing %d, EM differing %d, F1 differing %d", len(g.Pairs), norm, em, f1)
	if em > 0 {
		t.Errorf("%d EM differences", em)
	}
}
