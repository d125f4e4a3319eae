package memqa

import (
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/memharness/memharness/internal/testfixture"
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
	tok := NewNLTKTokenizer(PunktParams{})
	for i, text := range in.Texts {
		got := tok.WordTokenize(text)
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
	tok := NewNLTKTokenizer(PunktParams{})
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

func TestFixtureBLEU1AndMem0F1MatchMem0(t *testing.T) {
	dir := testfixture.Need(t, "memqa/locomo", "locomo10_first2.json")
	var convs []fixtureQA
	readJSON(t, filepath.Join(dir, "locomo10_first2.json"), &convs)
	var rules struct{ Predictions []string }
	readJSON(t, filepath.Join("testdata", "variants.json"), &rules)
	var g struct{ Fixture [][]any }
	readJSON(t, filepath.Join("testdata", "golden", "mem0_metrics.json"), &g)
	byID := map[string]fixtureQA{}
	for _, c := range convs {
		byID[c.SampleID] = c
	}
	if len(g.Fixture) == 0 {
		t.Fatal("no fixture rows in mem0_metrics.json: recapture with --fixture")
	}
	tok := NewNLTKTokenizer(PunktParams{})
	for _, row := range g.Fixture {
		sid, qi, pr := row[0].(string), int(row[1].(float64)), int(row[2].(float64))
		wantB, wantF := row[3].(float64), row[4].(float64)
		gold := pyStr(t, byID[sid].QA[qi].Answer)
		pred := variant(rules.Predictions[pr], gold)
		if got := BLEU1(tok, pred, gold); ulps(got, wantB) > 4 {
			t.Errorf("%s q%d rule %q: BLEU1 %v, mem0 %v", sid, qi, rules.Predictions[pr], got, wantB)
		}
		if got := Mem0F1(pred, gold); got != wantF {
			t.Errorf("%s q%d rule %q: Mem0F1 %v, mem0 %v", sid, qi, rules.Predictions[pr], got, wantF)
		}
	}
}

func TestPunktUntrainedMatchesNLTK(t *testing.T) {
	var in struct{ Texts []string }
	readJSON(t, filepath.Join("testdata", "tok_texts.json"), &in)
	var g struct{ Sentences [][]string }
	readJSON(t, filepath.Join("testdata", "golden", "mem0_metrics.json"), &g)
	if len(g.Sentences) != len(in.Texts) {
		t.Fatalf("%d golden sentence lists for %d texts: recapture", len(g.Sentences), len(in.Texts))
	}
	var p Punkt
	for i, text := range in.Texts {
		got := p.Sentences(text)
		if len(got) == 0 && len(g.Sentences[i]) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, g.Sentences[i]) {
			t.Errorf("Sentences(%q)\n got  %q\n NLTK %q", text, got, g.Sentences[i])
		}
	}
}

// TestPunktWithParamsMatchesNLTK exercises the parameter-driven branches
// (abbreviations, collocations, sentence starters, the orthographic
// heuristic) on parameters of our own given to NLTK's tokenizer.
func TestPunktWithParamsMatchesNLTK(t *testing.T) {
	var in struct {
		AbbrevTypes  []string       `json:"abbrev_types"`
		Collocations [][2]string    `json:"collocations"`
		SentStarters []string       `json:"sent_starters"`
		OrthoContext map[string]int `json:"ortho_context"`
		Texts        []string       `json:"texts"`
	}
	readJSON(t, filepath.Join("testdata", "punkt_params.json"), &in)
	var g struct {
		ParamsSentences [][]string `json:"params_sentences"`
	}
	readJSON(t, filepath.Join("testdata", "golden", "mem0_metrics.json"), &g)
	if len(g.ParamsSentences) != len(in.Texts) {
		t.Fatalf("%d golden sentence lists for %d texts: recapture", len(g.ParamsSentences), len(in.Texts))
	}
	p := Punkt{Params: PunktParams{
		AbbrevTypes: map[string]bool{}, Collocations: map[[2]string]bool{},
		SentStarters: map[string]bool{}, OrthoContext: in.OrthoContext,
	}}
	for _, a := range in.AbbrevTypes {
		p.Params.AbbrevTypes[a] = true
	}
	for _, c := range in.Collocations {
		p.Params.Collocations[c] = true
	}
	for _, s := range in.SentStarters {
		p.Params.SentStarters[s] = true
	}
	for i, text := range in.Texts {
		if got := p.Sentences(text); !reflect.DeepEqual(got, g.ParamsSentences[i]) {
			t.Errorf("Sentences(%q)\n got  %q\n NLTK %q", text, got, g.ParamsSentences[i])
		}
	}
}
