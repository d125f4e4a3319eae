package memqa

import (
	"math"
	"path/filepath"
	"reflect"
	"testing"
)

type mem0Golden struct {
	Tokens [][]string
	Pairs  []struct {
		BLEU1 float64 `json:"bleu1"`
		F1    float64
	}
}

func TestWordTokenizerMatchesNLTK(t *testing.T) {
	var in struct{ Texts []string }
	readJSON(t, filepath.Join("testdata", "tok_texts.json"), &in)
	var g mem0Golden
	readJSON(t, filepath.Join("testdata", "golden", "mem0_metrics.json"), &g)
	if len(g.Tokens) != len(in.Texts) {
		t.Fatalf("%d golden token lists for %d texts: recapture", len(g.Tokens), len(in.Texts))
	}
	tok := NewWordTokenizer()
	for i, text := range in.Texts {
		got := tok.Tokenize(text)
		want := g.Tokens[i]
		if len(got) == 0 && len(want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Tokenize(%q)\n got  %q\n NLTK %q", text, got, want)
		}
	}
}

// ulps is the distance between a and b in units in the last place.
func ulps(a, b float64) uint64 {
	ia, ib := math.Float64bits(a), math.Float64bits(b)
	if ia > ib {
		return ia - ib
	}
	return ib - ia
}

func TestBLEU1AndMem0F1MatchMem0(t *testing.T) {
	pairs := readPairs(t)
	var g mem0Golden
	readJSON(t, filepath.Join("testdata", "golden", "mem0_metrics.json"), &g)
	if len(g.Pairs) != len(pairs) {
		t.Fatalf("%d golden rows for %d pairs: recapture", len(g.Pairs), len(pairs))
	}
	tok := NewWordTokenizer()
	exact := 0
	for i, p := range pairs {
		want := g.Pairs[i]
		got := BLEU1(tok, p.Prediction, p.Answer)
		// exp and log are Go's, not the C library's: allow the last bits.
		if d := ulps(got, want.BLEU1); d > 4 {
			t.Errorf("pair %d: BLEU1(%q, %q) = %v, mem0 %v", i, p.Prediction, p.Answer, got, want.BLEU1)
		} else if d == 0 {
			exact++
		}
		if f := Mem0F1(p.Prediction, p.Answer); f != want.F1 {
			t.Errorf("pair %d: Mem0F1(%q, %q) = %v, mem0 %v", i, p.Prediction, p.Answer, f, want.F1)
		}
	}
	t.Logf("BLEU-1: %d of %d pairs bit-identical to mem0's, the rest within 4 ulps", exact, len(pairs))
}
