package lifememrel

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// parityDir holds the parser-parity corpus (our inputs) and the sources'
// parsers' outputs on it, captured by testdata/capture/parity_capture.py.
var parityDir = filepath.Join("testdata", "parity")

// replyCorpus generates n model-like replies from our own pieces: well-
// formed steps, labels in several spellings, extra white space (Unicode
// too), code fences, a thought with an action, two actions, JSON with
// trailing text, truncated and empty replies. Deterministic (seeded).
func replyCorpus(n int) []string {
	prefixes := []string{"", "", "", " ", "\n", "  \n ", "\u00a0", "\u3000", "Thought: ", "Thought 1: ", "thought2:", "THOUGHT 3 : ",
		"Action: ", "Action 2: ", "action:", "ACTION 4 :", "Action 1 ", "action5:", "> ", ">", ">  ", "think: ", "> think: ", "Think:", ">think:",
		"```\n", "```json\n", "Observation: ", "Observation 2: ", "Assistant: ", "<", "Sure. ", "Obs: ", "act: "}
	bodies := []string{"Search[Paris]", "search[Nikolaj Coster-Waldau]", "Lookup[born]", "Finish[SUPPORTS]", "Finish[NOT ENOUGH INFO]",
		"Finish[yes]", "Search[Paris", "Search[]", "Finish[]]", "click[Buy Now]", "click[< Prev]", "search[red shoes size 9, under 40 dollars]",
		"go to desk 1", "Go To Shelf 2", "open drawer 2", "take mug 1 from countertop 1", "put mug 1 in/on coffeemachine 1",
		"heat egg 1 with microwave 1", "cool pan 1 with fridge 1", "use desklamp 1", "clean apple 1 with sinkbasin 1", "inventory", "look",
		"examine bowl 1", "toggle lamp", "I need to find the capital of France.", "Let me think about it:", "First search X, then Y::",
		"", "Search[a] Search[b]", "Search[a] and then Lookup[b]", "Search[a]\nAction 2: Lookup[b]", "I will Search[Milhouse] now",
		"我需要搜索 Search[北京大学]", "搜索[北京]", "{\"name\": \"get_order_details\", \"arguments\": {\"order_id\": \"#W1\"}}",
		"{\"name\": \"respond\", \"arguments\": {\"content\": \"Hi!\"}} and more", "ΣΟΦΙΑ ΟΔΟΣ", "ÉCOLE Straße", "Search[Σίσυφος]",
		"search[\"quoted\"]", "think[about price]", "click[b07xyz1234]", "Lookup[eponym] Finish[x]", "[Search]", "]Search[x",
		"Thought: I should look. Action: Search[x]", "The answer is Finish[1,800 to 7,000 ft]", "Search[The Simpsons\u00a0character]",
		"1. go to cabinet 1", "Action: Action: Search[double label]", "observation: nothing", "Search[x]\n\nObservation 1: it is x"}
	suffixes := []string{"", "", "", "\n", " ", "\t", "\n\n", ":", "::", "]", " trailing text", "```", "\nObservation 1: blah",
		"\u2028", " \u00a0", "\nThought 2: next", "..."}
	rng := rand.New(rand.NewPCG(24, 2000))
	var out []string
	// Every body alone first, then random compositions.
	out = append(out, bodies...)
	for len(out) < n {
		s := prefixes[rng.IntN(len(prefixes))] + bodies[rng.IntN(len(bodies))] + suffixes[rng.IntN(len(suffixes))]
		if rng.IntN(8) == 0 {
			s += "\n" + prefixes[rng.IntN(len(prefixes))] + bodies[rng.IntN(len(bodies))]
		}
		if rng.IntN(12) == 0 && len(s) > 3 {
			s = s[:rng.IntN(len(s))] // truncated (may cut a rune: invalid UTF-8 is kept out below)
		}
		if !utf8.ValidString(s) {
			continue // a cut inside a character: not a reply a server sends
		}
		out = append(out, s)
	}
	return out
}

type parityCase struct {
	Reply string `json:"reply"`
	Step  int    `json:"step"`
}

// TestParityCorpus keeps testdata/parity/replies.json equal to the
// generator's output (-update rewrites it) and at least 2,000 replies long.
func TestParityCorpus(t *testing.T) {
	replies := replyCorpus(2400)
	cases := make([]parityCase, len(replies))
	for i, r := range replies {
		cases[i] = parityCase{Reply: r, Step: 1 + i%7}
	}
	path := filepath.Join(parityDir, "replies.json")
	if *update {
		b, err := json.MarshalIndent(cases, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got []parityCase
	readJSON(t, path, &got)
	if len(got) < 2000 {
		t.Fatalf("%d replies, want at least 2000", len(got))
	}
	if len(got) != len(cases) {
		t.Fatalf("%s has %d replies, the generator %d (run with -update)", path, len(got), len(cases))
	}
	for i := range got {
		if got[i] != cases[i] {
			t.Fatalf("%s: reply %d differs from the generator's (run with -update)", path, i)
		}
	}
}

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

// TestExpeLParserParity runs ExpeLParse on the corpus and compares every
// result with ExpeL's own LLM_PARSER (after GPTWrapper's clean-up), as
// captured in testdata/parity/expel_<bench>.json.
func TestExpeLParserParity(t *testing.T) {
	var cases []parityCase
	readJSON(t, filepath.Join(parityDir, "replies.json"), &cases)
	for _, bench := range []string{"hotpotqa", "alfworld", "webshop"} {
		var want []struct {
			Clean   string  `json:"clean"`
			Content string  `json:"content"`
			Type    string  `json:"type"`
			Action  *string `json:"action"`
		}
		readJSON(t, filepath.Join(parityDir, "expel_"+bench+".json"), &want)
		if len(want) != len(cases) {
			t.Fatalf("%s: %d captured results for %d replies (recapture)", bench, len(want), len(cases))
		}
		bad := 0
		for i, c := range cases {
			clean := expelClean(c.Reply)
			content, isAction, action := ExpeLParse(bench, clean, c.Step)
			w := want[i]
			wantAction := ""
			if w.Action != nil {
				wantAction = *w.Action
			}
			if clean != w.Clean || content != w.Content || isAction != (w.Type == "action") || action != wantAction {
				if bad++; bad <= 10 {
					t.Errorf("%s reply %d %q: got (%q, %q, %v, %q), source (%q, %q, %s, %q)", bench, i, c.Reply, clean, content, isAction, action, w.Clean, w.Content, w.Type, wantAction)
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d replies parse otherwise than ExpeL's LLM_PARSER", bench, bad, len(cases))
		}
	}
}

// TestLifeMemClientParity: lifememProcess on the corpus against the
// release's get_response for ScienceWorld and API-Bank
// (testdata/parity/lifemem_<env>.json).
func TestLifeMemClientParity(t *testing.T) {
	var cases []parityCase
	readJSON(t, filepath.Join(parityDir, "replies.json"), &cases)
	for _, env := range []string{"scienceworld", "apibank"} {
		var want []string
		readJSON(t, filepath.Join(parityDir, "lifemem_"+env+".json"), &want)
		if len(want) != len(cases) {
			t.Fatalf("%s: %d captured results for %d replies (recapture)", env, len(want), len(cases))
		}
		bad := 0
		for i, c := range cases {
			if got := lifememProcess(c.Reply); got != want[i] {
				if bad++; bad <= 10 {
					t.Errorf("%s reply %d %q: %q, source %q", env, i, c.Reply, got, want[i])
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d replies differ", env, bad, len(cases))
		}
	}
}
