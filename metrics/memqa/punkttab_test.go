package memqa

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memharness/memharness/internal/pystr"
	"github.com/memharness/memharness/internal/testfixture"
)

// tabFiles are four parameter files of our own (not a trained model).
func tabFiles() map[string][]byte {
	return map[string][]byte{
		PunktAbbrevFile:       []byte("dr\n. . \nst"),
		PunktCollocationsFile: []byte("##number##\tjune\r\nst\tlouis\r\n"),
		PunktSentStartersFile: []byte("the\nshe\n"),
		PunktOrthoFile:        []byte("the\t126\nshe\t46"),
	}
}

func TestParsePunktTab(t *testing.T) {
	p, err := ParsePunktTab(tabFiles())
	if err != nil {
		t.Fatal(err)
	}
	want := PunktParams{
		// The space of ". . " is kept, as nltk's decoder keeps it.
		AbbrevTypes:  map[string]bool{"dr": true, ". . ": true, "st": true},
		Collocations: map[[2]string]bool{{"##number##", "june"}: true, {"st", "louis"}: true},
		SentStarters: map[string]bool{"the": true, "she": true},
		OrthoContext: map[string]int{"the": 126, "she": 46},
	}
	if !reflect.DeepEqual(p, want) {
		t.Fatalf("got %+v\nwant %+v", p, want)
	}
}

func TestParsePunktTabRefusesMalformedFiles(t *testing.T) {
	for _, tc := range []struct {
		name, file, text, want string
	}{
		{"one field", PunktCollocationsFile, "st\tlouis\nnumber\n", "collocations.tab line 2: 1 tab-separated fields"},
		{"three fields", PunktCollocationsFile, "a\tb\tc", "collocations.tab line 1: 3 tab-separated fields"},
		{"no flags", PunktOrthoFile, "the\t126\nshe", "ortho_context.tab line 2: 1 tab-separated fields"},
		{"flags not a number", PunktOrthoFile, "the\t12x", `ortho_context.tab line 1: flags "12x" are not an integer`},
		{"blank line", PunktOrthoFile, "the\t126\n\nshe\t46", "ortho_context.tab line 2: 1 tab-separated fields"},
		{"not UTF-8", PunktSentStartersFile, "the\n\xff\n", "sent_starters.txt is not UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := tabFiles()
			files[tc.file] = []byte(tc.text)
			_, err := ParsePunktTab(files)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	files := tabFiles()
	delete(files, PunktOrthoFile)
	if _, err := ParsePunktTab(files); err == nil || !strings.Contains(err.Error(), "ortho_context.tab is missing") {
		t.Fatalf("missing file: %v", err)
	}
}

// zipOf is a punkt_tab-shaped archive of files under punkt_tab/LANG/.
func zipOf(t *testing.T, lang string, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	add := func(name string, b []byte) {
		f, err := w.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	add("punkt_tab/README", []byte("not read"))
	for name, b := range files {
		add("punkt_tab/"+lang+"/"+name, b)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestPunktParamsFromZip(t *testing.T) {
	b := zipOf(t, "english", tabFiles())
	p, err := PunktParamsFromZip(b, "english")
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := ParsePunktTab(tabFiles()); !reflect.DeepEqual(p, want) {
		t.Fatalf("got %+v, want %+v", p, want)
	}
	if _, err := PunktParamsFromZip(b, "german"); err == nil || !strings.Contains(err.Error(), "no punkt_tab/german/abbrev_types.txt") {
		t.Fatalf("other language: %v", err)
	}
	files := tabFiles()
	delete(files, PunktSentStartersFile)
	if _, err := PunktParamsFromZip(zipOf(t, "english", files), "english"); err == nil || !strings.Contains(err.Error(), "no punkt_tab/english/sent_starters.txt") {
		t.Fatalf("missing member: %v", err)
	}
	if _, err := PunktParamsFromZip([]byte("not a zip"), "english"); err == nil || !strings.Contains(err.Error(), "not a zip archive") {
		t.Fatalf("not a zip: %v", err)
	}
}

// englishExcerpt holds the entries of nltk_data's English Punkt model
// (punkt_tab/english, the pinned package) that the decisions below
// consult, with their values there; every other type has orthographic
// context 0 in it too, or is not consulted.
func englishExcerpt() PunktParams {
	return PunktParams{
		AbbrevTypes: map[string]bool{"dr": true, "d.c": true, "jan": true, "corp": true, "calif": true,
			"a.m": true, "p.m": true, "sept": true, "mr": true, "mrs": true},
		Collocations: map[[2]string]bool{{"##number##", "international"}: true, {"b", "smith"}: true},
		SentStarters: map[string]bool{"he": true, "sales": true, "the": true, "they": true, "however": true},
		OrthoContext: map[string]int{"smith": 12, "he": 46, "sales": 110, "the": 126, "for": 110, "international": 110,
			"they": 46, "then": 126, "moved": 32, "what": 46, "jones": 12, "and": 126, "on": 110},
	}
}

// TestEnglishPunktDecisionsByHand checks Punkt's decisions, derived by
// hand from the algorithm (nltk's PunktSentenceTokenizer) over the
// English model's entries (englishExcerpt). Flags: BEG_UC 2, MID_UC 4,
// UNK_UC 8, BEG_LC 16, MID_LC 32, UNK_LC 64. The orthographic heuristic
// says "starts a sentence" for a capitalised word seen lower-case but
// never capitalised mid-sentence, "does not" for a lower-case word seen
// capitalised or never seen starting a sentence lower-case, and "unknown"
// otherwise.
func TestEnglishPunktDecisionsByHand(t *testing.T) {
	p := Punkt{Params: englishExcerpt()}
	for _, tc := range []struct {
		text, why string
		want      []string
	}{
		{"Dr. Smith went to Washington D.C. on Jan. 5. He left.",
			"dr, d.c, jan are abbreviations: Smith (12: no lower-case use) is unknown and no starter, on (110) is lower-case and seen capitalised, " +
				"5. is no capital; the number 5. before He (46: MID_UC) is unknown, so its first-pass break stands",
			[]string{"Dr. Smith went to Washington D.C. on Jan. 5.", "He left."}},
		{"dr. smith went to washington d.c. on jan. 5. he left.",
			"lower-cased, as mem0's BLEU-1 tokenises: he (46) is lower-case and seen capitalised, so the number 5. is no break",
			[]string{"dr. smith went to washington d.c. on jan. 5. he left."}},
		{"They sold 12. International sales rose.", "(##number##, international) is a collocation",
			[]string{"They sold 12. International sales rose."}},
		{"Ask B. Smith. However, he is away.", "(b, smith) is a collocation; Smith. is no abbreviation",
			[]string{"Ask B. Smith.", "However, he is away."}},
		{"The Corp. Sales rose.", "corp is an abbreviation; Sales (110) is unknown but a frequent sentence starter",
			[]string{"The Corp.", "Sales rose."}},
		{"Visit Calif. For fun.", "calif is an abbreviation; For (110) is unknown and no starter",
			[]string{"Visit Calif. For fun."}},
		{"We met at 7 a.m. The game began.", "a.m is an abbreviation; The (126) is unknown but a starter",
			[]string{"We met at 7 a.m.", "The game began."}},
		{"we met at 7 a.m. the game began.", "the (126) is lower-case and seen capitalised", []string{"we met at 7 a.m. the game began."}},
		{"I saw them on Sept. 9. they were happy.", "sept is an abbreviation; they (46) is lower-case and seen capitalised",
			[]string{"I saw them on Sept. 9. they were happy."}},
		{"Mr. and Mrs. Jones arrived at 5 p.m. They ate.",
			"mr, mrs, p.m are abbreviations; and (126) does not start, Jones (12) is unknown and no starter, They (46) is unknown but a starter",
			[]string{"Mr. and Mrs. Jones arrived at 5 p.m.", "They ate."}},
		{"A. Smith came. B. moved on.",
			"the initial A. before Smith (12): unknown, capitalised, never lower-case, so no break; the initial B. before moved (32: never at a sentence start) is no break",
			[]string{"A. Smith came.", "B. moved on."}},
		{"Wait... What happened? Nothing... then silence.",
			"an ellipsis before What (46) is unknown and what no starter; before then (126) it does not start",
			[]string{"Wait... What happened?", "Nothing... then silence."}},
		{"The rate was 3.5 percent. It fell.", "3.5 ends in no period", []string{"The rate was 3.5 percent.", "It fell."}},
		{`He said "Stop." Then he left.`, "the closing quote moves to the sentence it closes", []string{`He said "Stop."`, "Then he left."}},
	} {
		if got := p.Sentences(tc.text); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q (%s)\n got  %q\n want %q", tc.text, tc.why, got, tc.want)
		}
	}
	// What BLEU-1 counts: the English model keeps "dr." and "5." whole,
	// the untrained one cuts a sentence at each and splits the periods off.
	text := "dr. smith went to washington d.c. on jan. 5. he left."
	if got, want := NewNLTKTokenizer(englishExcerpt()).WordTokenize(text),
		[]string{"dr.", "smith", "went", "to", "washington", "d.c.", "on", "jan.", "5.", "he", "left", "."}; !reflect.DeepEqual(got, want) {
		t.Errorf("English tokens %q, want %q", got, want)
	}
	if got, want := NewNLTKTokenizer(PunktParams{}).WordTokenize(text),
		[]string{"dr", ".", "smith", "went", "to", "washington", "d.c", ".", "on", "jan", ".", "5.", "he", "left", "."}; !reflect.DeepEqual(got, want) {
		t.Errorf("untrained tokens %q, want %q", got, want)
	}
}

// englishGolden is golden/punkt_english.json: nltk's output over the
// English model for punkt_english_texts.json, and mem0's BLEU-1 with it.
type englishGolden struct {
	Texts []struct {
		Sentences      []string `json:"sentences"`
		LowerSentences []string `json:"lower_sentences"`
		LowerTokens    []string `json:"lower_tokens"`
	}
	TextPairsBLEU1 struct {
		Untrained, English []float64
	} `json:"text_pairs_bleu1"`
	PairsBLEU1 []float64 `json:"pairs_bleu1"`
	Fixture    [][]any
}

type englishInputs struct {
	Texts []string
	Pairs []struct{ Prediction, Answer string }
}

func readEnglish(t *testing.T) (englishInputs, englishGolden) {
	var in englishInputs
	readJSON(t, filepath.Join("testdata", "punkt_english_texts.json"), &in)
	var g englishGolden
	readJSON(t, filepath.Join("testdata", "golden", "punkt_english.json"), &g)
	if len(g.Texts) != len(in.Texts) || len(g.TextPairsBLEU1.English) != len(in.Pairs) || len(g.TextPairsBLEU1.Untrained) != len(in.Pairs) {
		t.Fatalf("golden/punkt_english.json is for other inputs: recapture (capture.py --punkt-tab)")
	}
	return in, g
}

// TestUntrainedPunktOnEnglishTexts holds the own default (untrained
// Punkt) to nltk's BLEU-1 on the answer pairs the English model scores
// differently.
func TestUntrainedPunktOnEnglishTexts(t *testing.T) {
	in, g := readEnglish(t)
	tok := NewNLTKTokenizer(PunktParams{})
	differ := 0
	for i, p := range in.Pairs {
		if got := BLEU1(tok, p.Prediction, p.Answer); ulps(got, g.TextPairsBLEU1.Untrained[i]) > 4 {
			t.Errorf("untrained BLEU1(%q, %q) = %v, mem0 %v", p.Prediction, p.Answer, got, g.TextPairsBLEU1.Untrained[i])
		}
		if g.TextPairsBLEU1.Untrained[i] != g.TextPairsBLEU1.English[i] {
			differ++
		}
	}
	if differ == 0 {
		t.Error("no answer pair scores differently under the English model: the pairs no longer show what the model changes")
	}
}

// TestEnglishPunktMatchesNLTK runs the English model read from the
// fetched package against nltk's sentences, tokens and mem0's BLEU-1 with
// it (golden/punkt_english.json), the fixture's answers included.
func TestEnglishPunktMatchesNLTK(t *testing.T) {
	dir := os.Getenv("MEMHARNESS_NLTK_PUNKT")
	if dir == "" {
		t.Skip("no fetched nltk-punkt pack (set MEMHARNESS_NLTK_PUNKT to the folder `bench data fetch nltk-punkt` fills)")
	}
	b, err := os.ReadFile(filepath.Join(dir, "packages", "tokenizers", "punkt_tab.zip"))
	if err != nil {
		t.Fatal(err)
	}
	params, err := PunktParamsFromZip(b, "english")
	if err != nil {
		t.Fatal(err)
	}
	in, g := readEnglish(t)
	p := Punkt{Params: params}
	tok := NewNLTKTokenizer(params)
	for i, text := range in.Texts {
		want := g.Texts[i]
		if got := p.Sentences(text); !reflect.DeepEqual(got, want.Sentences) {
			t.Errorf("Sentences(%q)\n got  %q\n NLTK %q", text, got, want.Sentences)
		}
		lower := pystr.Lower(text)
		if got := p.Sentences(lower); !reflect.DeepEqual(got, want.LowerSentences) {
			t.Errorf("Sentences(%q)\n got  %q\n NLTK %q", lower, got, want.LowerSentences)
		}
		if got := tok.WordTokenize(lower); !reflect.DeepEqual(got, want.LowerTokens) {
			t.Errorf("WordTokenize(%q)\n got  %q\n NLTK %q", lower, got, want.LowerTokens)
		}
	}
	for i, pr := range in.Pairs {
		if got := BLEU1(tok, pr.Prediction, pr.Answer); ulps(got, g.TextPairsBLEU1.English[i]) > 4 {
			t.Errorf("BLEU1(%q, %q) = %v, mem0 %v", pr.Prediction, pr.Answer, got, g.TextPairsBLEU1.English[i])
		}
	}
	pairs := readPairs(t)
	if len(pairs) != len(g.PairsBLEU1) {
		t.Fatalf("%d golden BLEU-1 values for %d pairs: recapture", len(g.PairsBLEU1), len(pairs))
	}
	for i, pr := range pairs {
		if got := BLEU1(tok, pr.Prediction, pr.Answer); ulps(got, g.PairsBLEU1[i]) > 4 {
			t.Errorf("pair %d: BLEU1(%q, %q) = %v, mem0 %v", i, pr.Prediction, pr.Answer, got, g.PairsBLEU1[i])
		}
	}
	fixtureDir := testfixture.Need(t, "memqa/locomo", "locomo10_first2.json")
	var convs []fixtureQA
	readJSON(t, filepath.Join(fixtureDir, "locomo10_first2.json"), &convs)
	var rules struct{ Predictions []string }
	readJSON(t, filepath.Join("testdata", "variants.json"), &rules)
	byID := map[string]fixtureQA{}
	for _, c := range convs {
		byID[c.SampleID] = c
	}
	if len(g.Fixture) == 0 {
		t.Fatal("no fixture rows in punkt_english.json: recapture with --fixture")
	}
	for _, row := range g.Fixture {
		sid, qi, pr := row[0].(string), int(row[1].(float64)), int(row[2].(float64))
		gold := pyStr(t, byID[sid].QA[qi].Answer)
		pred := variant(rules.Predictions[pr], gold)
		if got := BLEU1(tok, pred, gold); ulps(got, row[3].(float64)) > 4 {
			t.Errorf("%s q%d rule %q: BLEU1 %v, mem0 %v", sid, qi, rules.Predictions[pr], got, row[3].(float64))
		}
	}
}
