package toolqa

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

// qaCase is one generated (answer, key) pair with what agents.py's
// normalize_answer and EM (run under CPython 3.11) returned.
type qaCase struct {
	Pred     string `json:"pred"`
	Gold     string `json:"gold"`
	NormPred string `json:"norm_pred"`
	NormGold string `json:"norm_gold"`
	EM       bool   `json:"em"`
}

// TestQAGolden compares Normalize and ExactMatch with the official
// functions on 1,500 generated pairs.
func TestQAGolden(t *testing.T) {
	path := filepath.Join("testdata", "qa_golden.json")
	if *update {
		rng := rand.New(rand.NewPCG(14, 2))
		var cs []qaCase
		for i := 0; i < 1500; i++ {
			p, g := pystrtest.Pair(rng)
			cs = append(cs, qaCase{Pred: p, Gold: g})
		}
		b, _ := json.MarshalIndent(map[string]any{"pairs": cs}, "", " ")
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
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
	norm, em := 0, 0
	for _, c := range g.Pairs {
		if Normalize(c.Pred) != c.NormPred || Normalize(c.Gold) != c.NormGold {
			norm++
			if norm <= 10 {
				t.Errorf("Normalize(%q) = %q, official %q", c.Pred, Normalize(c.Pred), c.NormPred)
			}
		}
		if ExactMatch(c.Pred, c.Gold) != c.EM {
			em++
		}
	}
	t.Logf("%d pairs: normalisations differing %d, EM differing %d", len(g.Pairs), norm, em)
	if em > 0 {
		t.Errorf("%d EM differences", em)
	}
}
