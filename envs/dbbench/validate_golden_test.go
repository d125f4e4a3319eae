package dbbench

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/internal/pystr/pystrtest"
)

var updateGolden = flag.Bool("update", false, "rewrite the inputs of testdata/direct_golden.json (the official outputs must then be captured again, see testdata/README.md)")

// directCase is one generated (answer, gold rows) pair with what
// LifelongAgentBench's DirectTypeAnswerValidator.validate returned under
// CPython 3.11.
type directCase struct {
	Answer   string          `json:"answer"`
	Gold     json.RawMessage `json:"gold"`
	Official bool            `json:"official"`
}

// genDirectCases writes gold rows of ints, floats, strings and bools and
// answers that render them the ways agents do, then bend them: Decimal
// wrappers, quotes, Unicode digits and white space, near numbers.
func genDirectCases(n int) []directCase {
	rng := rand.New(rand.NewPCG(14, 4))
	digits := []string{"٣", "３", "𝟗", "३"}
	spaces := []string{" ", "\u00a0", "\x1f", "\u3000", "\t", ""}
	var cs []directCase
	for i := 0; i < n; i++ {
		nrows := rng.IntN(3)
		if rng.IntN(3) == 0 {
			nrows = 1
		}
		var gold [][]any
		var parts []string
		for r := 0; r < nrows; r++ {
			ncols := 1 + rng.IntN(3)
			var row []any
			var cells []string
			for c := 0; c < ncols; c++ {
				var g any
				var cell string
				switch rng.IntN(5) {
				case 0:
					v := rng.IntN(2000) - 1000
					g, cell = v, fmt.Sprint(v)
				case 1:
					v := float64(rng.IntN(100000)) / 100
					g, cell = v, fmt.Sprint(v)
				case 2:
					s := pystrtest.Text(rng)
					g, cell = s, "'"+s+"'"
				case 3:
					g, cell = rng.IntN(2) == 1, fmt.Sprint(rng.IntN(2))
				default:
					v := rng.IntN(100)
					g, cell = v, fmt.Sprintf("Decimal('%d.00')", v)
				}
				switch rng.IntN(8) {
				case 0:
					cell = strings.Replace(cell, "1", digits[rng.IntN(len(digits))], 1)
				case 1:
					cell = spaces[rng.IntN(len(spaces))] + cell + spaces[rng.IntN(len(spaces))]
				case 2:
					cell = `"` + strings.Trim(cell, "'") + `"`
				case 3:
					cell += "1"
				}
				row = append(row, g)
				cells = append(cells, cell)
			}
			gold = append(gold, row)
			sep := ", "
			if rng.IntN(5) == 0 {
				sep = spaces[rng.IntN(len(spaces))] + "," + spaces[rng.IntN(len(spaces))]
			}
			parts = append(parts, "("+strings.Join(cells, sep)+")")
		}
		ans := "[" + strings.Join(parts, ", ") + "]"
		switch rng.IntN(6) {
		case 0:
			ans = strings.Trim(ans, "[]()")
		case 1:
			ans = pystrtest.Text(rng)
		}
		if gold == nil {
			gold = [][]any{}
		}
		b, _ := json.Marshal(gold)
		cs = append(cs, directCase{Answer: ans, Gold: b})
	}
	return cs
}

// TestDirectGolden compares MatchDirect with the official validator on
// 1,500 generated answers.
func TestDirectGolden(t *testing.T) {
	path := filepath.Join("testdata", "direct_golden.json")
	if *updateGolden {
		b, _ := json.MarshalIndent(map[string]any{"cases": genDirectCases(1500)}, "", " ")
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
	var g struct{ Cases []directCase }
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(g.Cases) < 1500 {
		t.Fatalf("%s: %d cases", path, len(g.Cases))
	}
	diff, matches := 0, 0
	for i, c := range g.Cases {
		var gold [][]any
		d := json.NewDecoder(bytes.NewReader(c.Gold))
		d.UseNumber()
		if err := d.Decode(&gold); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		got := MatchDirect(c.Answer, gold)
		if got {
			matches++
		}
		if got != c.Official {
			diff++
			if diff <= 10 {
				t.Errorf("case %d: MatchDirect(%q, %s) = %v, official %v", i, c.Answer, c.Gold, got, c.Official)
			}
		}
	}
	t.Logf("%d cases (%d matches): verdicts differing %d", len(g.Cases), matches, diff)
}
