package memqa

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/internal/pystr"
	"github.com/memharness/memharness/internal/testfixture"
)

// The golden files under testdata/golden are written by testdata/capture.py
// running the sources' own Python on our inputs; see its docstring.

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func TestStemMatchesNLTK(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "stem_words.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, w := range strings.Split(string(b), "\n") {
		if w != "" {
			words = append(words, w)
		}
	}
	var golden struct{ Stems []string }
	readJSON(t, filepath.Join("testdata", "golden", "stems.json"), &golden)
	if len(golden.Stems) != len(words) {
		t.Fatalf("%d stems for %d words: recapture", len(golden.Stems), len(words))
	}
	bad := 0
	for i, w := range words {
		if got := Stem(w); got != golden.Stems[i] {
			if bad++; bad <= 20 {
				t.Errorf("Stem(%q) = %q, NLTK %q", w, got, golden.Stems[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d words differ from NLTK", bad, len(words))
	}
}

type pair struct {
	Category   int
	Prediction string
	Answer     string
}

func readPairs(t *testing.T) []pair {
	var in struct{ Pairs []pair }
	readJSON(t, filepath.Join("testdata", "pairs.json"), &in)
	return in.Pairs
}

func TestPairsMatchLoCoMo(t *testing.T) {
	pairs := readPairs(t)
	var golden struct {
		Pairs []struct {
			Score                float64
			TokenF1              float64 `json:"token_f1"`
			MultiF1              float64 `json:"multi_f1"`
			NormalizedPrediction string  `json:"normalized_prediction"`
		}
	}
	readJSON(t, filepath.Join("testdata", "golden", "pairs_locomo.json"), &golden)
	if len(golden.Pairs) != len(pairs) {
		t.Fatalf("%d golden rows for %d pairs: recapture", len(golden.Pairs), len(pairs))
	}
	for i, p := range pairs {
		g := golden.Pairs[i]
		if got := NormalizeAnswer(p.Prediction); got != g.NormalizedPrediction {
			t.Errorf("pair %d: NormalizeAnswer(%q) = %q, LoCoMo %q", i, p.Prediction, got, g.NormalizedPrediction)
		}
		if got := TokenF1(p.Prediction, p.Answer); got != g.TokenF1 {
			t.Errorf("pair %d: TokenF1(%q, %q) = %v, LoCoMo %v", i, p.Prediction, p.Answer, got, g.TokenF1)
		}
		if got := MultiAnswerF1(p.Prediction, p.Answer); got != g.MultiF1 {
			t.Errorf("pair %d: MultiAnswerF1(%q, %q) = %v, LoCoMo %v", i, p.Prediction, p.Answer, got, g.MultiF1)
		}
		got, err := Score(p.Category, p.Prediction, p.Answer)
		if err != nil || got != g.Score {
			t.Errorf("pair %d: Score(%d, %q, %q) = %v, %v; LoCoMo %v", i, p.Category, p.Prediction, p.Answer, got, err, g.Score)
		}
	}
}

// variant is capture.py's variant: the prediction a rule makes from a gold
// answer.
func variant(rule, gold string) string {
	kind, text, _ := strings.Cut(rule, ":")
	switch kind {
	case "gold":
		return gold
	case "upper":
		return pystr.Upper(gold)
	case "wrap":
		return strings.ReplaceAll(text, "{}", gold)
	case "half":
		parts := strings.Split(gold, " ")
		return strings.Join(parts[:max(1, len(parts)/2)], " ")
	case "reverse":
		parts := strings.Split(gold, " ")
		for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
			parts[i], parts[j] = parts[j], parts[i]
		}
		return strings.Join(parts, " ")
	case "own":
		return text
	}
	panic("unknown variant " + rule)
}

// contexts is capture.py's contexts; ok is false for no context recorded.
func contexts(rule string, evidence []string) ([]string, bool) {
	switch rule {
	case "none":
		return nil, false
	case "dia_all":
		return append([]string{}, evidence...), true
	case "dia_first":
		return append(append([]string{}, evidence[:min(1, len(evidence))]...), "D99:1"), true
	case "sessions_first":
		var out []string
		for _, e := range evidence[:min(1, len(evidence))] {
			head, _, _ := strings.Cut(e, ":")
			_, rest, _ := cutFirstRune(head)
			out = append(out, "S"+rest)
		}
		return append(out, "S99"), true
	}
	panic("unknown context rule " + rule)
}

// fixtureQA is the part of a LoCoMo conversation the scoring reads.
type fixtureQA struct {
	SampleID string `json:"sample_id"`
	QA       []struct {
		Answer            json.RawMessage `json:"answer"`
		AdversarialAnswer json.RawMessage `json:"adversarial_answer"`
		Evidence          []string        `json:"evidence"`
		Category          int             `json:"category"`
	} `json:"qa"`
}

// pyStr is Python's str() of a JSON string or integer answer.
func pyStr(t *testing.T, raw json.RawMessage) string {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil && !strings.ContainsAny(string(n), ".eE") {
		return string(n)
	}
	t.Fatalf("answer %s is neither a string nor an integer", raw)
	return ""
}

func TestFixtureScoresMatchLoCoMo(t *testing.T) {
	dir := testfixture.Need(t, "memqa/locomo", "locomo10_first2.json")
	var convs []fixtureQA
	readJSON(t, filepath.Join(dir, "locomo10_first2.json"), &convs)
	var rules struct{ Predictions, Contexts []string }
	readJSON(t, filepath.Join("testdata", "variants.json"), &rules)
	var golden struct{ Rows [][]any }
	readJSON(t, filepath.Join("testdata", "golden", "locomo_fixture.json"), &golden)

	byID := map[string]fixtureQA{}
	for _, c := range convs {
		byID[c.SampleID] = c
	}
	perCategory := map[int]int{}
	for _, row := range golden.Rows {
		sid, qi := row[0].(string), int(row[1].(float64))
		pr, cr := int(row[2].(float64)), int(row[3].(float64))
		wantScore, wantRecall, wantRound := row[4].(float64), row[5].(float64), row[6].(float64)
		qa := byID[sid].QA[qi]
		raw := qa.Answer
		if raw == nil {
			raw = qa.AdversarialAnswer
		}
		gold := pyStr(t, raw)
		pred := variant(rules.Predictions[pr], gold)
		got, err := Score(qa.Category, pred, gold)
		if err != nil || got != wantScore {
			t.Errorf("%s q%d rule %q (category %d): score %v, %v; LoCoMo %v", sid, qi, rules.Predictions[pr], qa.Category, got, err, wantScore)
		}
		if r := Round3(got); r != wantRound {
			t.Errorf("%s q%d: Round3(%v) = %v, Python %v", sid, qi, got, r, wantRound)
		}
		ctx, has := contexts(rules.Contexts[cr], qa.Evidence)
		rec, err := EvidenceRecall(qa.Evidence, ctx, has)
		if err != nil || rec != wantRecall {
			t.Errorf("%s q%d context %q: recall %v, %v; LoCoMo %v", sid, qi, rules.Contexts[cr], rec, err, wantRecall)
		}
		perCategory[qa.Category]++
	}
	for c := 1; c <= 5; c++ {
		if perCategory[c] == 0 {
			t.Errorf("no golden row for category %d", c)
		}
	}
}
