package lifememrel

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memharness/memharness/envs/taubench"
)

// tauCorpus generates n replies shaped like τ-bench agent turns: a thought
// and an "Action:" with a JSON call, plain replies to the customer, and
// the ways those go wrong (trailing text, code fences, two actions, JSON
// that is not an object or lacks a field, truncation, empty).
func tauCorpus(n int) []string {
	thoughts := []string{"", "", "Thought:\nI should look up the order.\n", "Thought: check the user first.\n", "I will help.\n", "Thought:\n\n",
		"Thought: 我需要查询订单。\n", "Sure!  ", "```\n", "Thought: the user said \"Action:\" earlier.\n"}
	labels := []string{"Action:\n", "Action: ", "Action:", "action:\n", "Action:\n\n", "ACTION:\n", "Action:\n```json\n", "Action 1:\n", ""}
	calls := []string{
		`{"name": "get_order_details", "arguments": {"order_id": "#W2378156"}}`,
		`{"name": "find_user_id_by_name_zip", "arguments": {"first_name": "Yusuf", "last_name": "Rossi", "zip": "19122"}}`,
		`{"name": "respond", "arguments": {"content": "Could you confirm your email?"}}`,
		`{"name": "respond", "arguments": {"content": "Hi! 你好"}}`,
		`{"name": "calculate", "arguments": {"expression": "2 + 2"}}`,
		`{"name": "think", "arguments": {"thought": "x"}}`,
		`{"name":"transfer_to_human_agents","arguments":{"summary":"done"}}`,
		`{"name": "modify_pending_order_items", "arguments": {"order_id": "#W1", "item_ids": ["1", "2"], "new_item_ids": ["3", "4"], "payment_method_id": "gift_card_1"}}`,
		`{"name": "book_reservation", "arguments": {"amount": 12.5, "count": 3, "flag": true, "none": null}}`,
		`{"arguments": {"order_id": "#W1"}}`, `{"name": "get_order_details"}`, `{"name": 5, "arguments": {}}`,
		`{"name": "get_order_details", "arguments": ["#W1"]}`, `{"name": "get_order_details", "arguments": "#W1"}`,
		`{"name": "respond", "arguments": {}}`, `{"name": "respond", "arguments": {"content": 3}}`, `{"name": "respond", "arguments": "hi"}`,
		`[1, 2]`, `5`, `"just a string"`, `null`, `true`, `{}`, `{"name": "x", "arguments": {}, "extra": 1}`,
		`{"name": "get_user_details", "arguments": {"user_id": "sara_doe_496"}} `, `{'name': 'x', 'arguments': {}}`,
		`{"name": "get_order_details", "arguments": {"order_id": "#W1"}`, `{"name": "get_order_details", "arguments": {"order_id": "#W1"}}}`,
		`{"name": "a", "arguments": {"k": NaN}}`, `{"name": "a", "arguments": {"k": 1e400}}`, `{"name": "a", "arguments": {"k": 12345678901234567890}}`,
		`{"name": "a", "arguments": {"k": "\u00e9\ud83d\ude00"}}`, `{"name": "a", "arguments": {"k": 1, "k": 2}}`,
		"Thank you, your order has been cancelled.", "I'm sorry, I can't help with that.", "", "   ",
	}
	tails := []string{"", "", "", "\n", "  \n", "\n```", " I hope this helps.", "\nAction:\n{\"name\": \"think\", \"arguments\": {\"thought\": \"y\"}}",
		"\nObservation: done", "}", "\u00a0", "\t"}
	rng := rand.New(rand.NewPCG(59, 200))
	var out []string
	for _, c := range calls {
		out = append(out, "Thought:\nok\nAction:\n"+c, c)
	}
	for len(out) < n {
		s := thoughts[rng.IntN(len(thoughts))] + labels[rng.IntN(len(labels))] + calls[rng.IntN(len(calls))] + tails[rng.IntN(len(tails))]
		if rng.IntN(10) == 0 && len(s) > 3 {
			s = s[:rng.IntN(len(s))]
		}
		if !utf8.ValidString(s) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// tauDeepCorpus generates n replies whose JSON json.loads refuses or reads
// in ways encoding/json does not: arrays and objects nested past the
// interpreter's recursion limit (RecursionError, which the agent does not
// catch) or well inside it, deep and unterminated, and lone or paired
// surrogate escapes in names, keys and values. Depths keep clear of
// 970–1,000, where the limit moves with the Python version and stack.
func tauDeepCorpus(n int) []string {
	depths := []int{2, 50, 199, 201, 500, 900, 960, 1050, 1200, 2000, 20000}
	nest := func(d int, open, close, inner string) string {
		return strings.Repeat(open, d) + inner + strings.Repeat(close, d)
	}
	strs := []string{`\ud800`, `\udfff`, `x\ud83dy`, `\ud83d\ude00`, `\udc00\ud800`, `\u00e9`, `\ud800\u0041`, `a\uDBFFb`}
	labels := []string{"Action:\n", "Thought:\nok\nAction:\n", "", "Action: ", "Assistant: Action:\n", "Assistant: ",
		"<think>The user wants order #W1.\nAction: {\"name\": \"think\", \"arguments\": {}}</think>\nAction:\n", "<think>check</think>\n\n"}
	rng := rand.New(rand.NewPCG(37, 1200))
	out := make([]string, 0, n)
	for len(out) < n {
		d := depths[rng.IntN(len(depths))]
		str := strs[rng.IntN(len(strs))]
		var body string
		switch rng.IntN(9) {
		case 8:
			body = `{"name": "get_order_details", "arguments": {"order_id": "#W2378156"}}`
		case 0:
			body = nest(d, "[", "]", "1")
		case 1:
			body = `{"name": "get_order_details", "arguments": {"order_id": ` + nest(d, "[", "]", `"#W1"`) + `}}`
		case 2:
			body = `{"name": "respond", "arguments": {"content": ` + nest(d, `{"a": `, "}", `"hi"`) + `}}`
		case 3:
			body = strings.Repeat("[", d) // unterminated
		case 4:
			body = `{"name": "respond", "arguments": {"content": "` + str + `"}}`
		case 5:
			body = `{"name": "get_user_details", "arguments": {"user_id": "` + str + `"}}`
		case 6:
			body = `{"name": "` + str + `", "arguments": {"` + str + `": 1}}`
		default:
			body = `{"name": "think", "arguments": {"thought": "` + str + `", "deep": ` + nest(d, "[", "]", "") + `}}`
		}
		out = append(out, labels[rng.IntN(len(labels))]+body)
	}
	return out
}

// TestTauParserParity: taubench.ParseAction on the τ-bench corpus against
// ChatReActAgent.generate_next_step's parse (testdata/parity/taubench.json):
// the same tool name and arguments, or an error where the source raises.
func TestTauParserParity(t *testing.T) {
	path := filepath.Join(parityDir, "taubench_replies.json")
	replies := append(tauCorpus(2200), tauDeepCorpus(200)...)
	if *update {
		b, err := json.MarshalIndent(replies, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	readJSON(t, path, &got)
	if !reflect.DeepEqual(got, replies) || len(got) < 2000 {
		t.Fatalf("%s: %d replies, not the generator's %d (run with -update)", path, len(got), len(replies))
	}
	var want []tauCapture
	readJSON(t, filepath.Join(parityDir, "taubench.json"), &want)
	if len(want) != len(got) {
		t.Fatalf("%d captured results for %d replies (recapture)", len(want), len(got))
	}
	bad := 0
	for i, r := range got {
		if ok, have := want[i].matches(r); !ok {
			if bad++; bad <= 10 {
				t.Errorf("reply %d %q: got %s, source %s%s %s", i, r, have, want[i].Error, want[i].Name, want[i].Kwargs)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d replies parse otherwise than τ-bench's", bad, len(got))
	}
	t.Logf("%d of %d replies identical", len(got)-bad, len(got))
}

// tauCapture is generate_next_step's reading of one reply.
type tauCapture struct {
	Name     string `json:"name"`
	NameJSON string `json:"name_json"`
	Kwargs   string `json:"kwargs"`
	Error    string `json:"error"`
}

// matches reports whether taubench.ParseAction reads text as the capture
// says the source did, and what it read.
func (w tauCapture) matches(text string) (bool, string) {
	a, err := taubench.ParseAction(text)
	switch {
	case w.Error != "":
		if err == nil {
			return false, a.Name + " " + taubench.Dumps(a.Args())
		}
		return true, "error"
	case err != nil:
		return false, "error " + err.Error()
	}
	have := a.Name + " " + taubench.Dumps(a.Args())
	// The same text once both sides' keys are sorted: int and float, NaN
	// and the infinities as Python has them. The capture is
	// json.dumps(sort_keys=True): ASCII with Python's escapes, so a lone
	// surrogate shows as \udXXXX.
	wk, werr := taubench.Decode([]byte(w.Kwargs))
	ok := werr == nil && taubench.Dumps(tauSorted(wk)) == taubench.Dumps(tauSorted(a.Args())) &&
		taubench.Dumps(tauSorted(a.Args())) == w.Kwargs && taubench.Dumps(a.Name) == w.NameJSON
	return ok, have
}

// tauSorted copies v with every object's keys in sorted order (the
// capture's json.dumps(sort_keys=True)).
func tauSorted(v taubench.Value) taubench.Value {
	switch x := v.(type) {
	case *taubench.Object:
		keys := slices.Clone(x.Keys())
		slices.Sort(keys)
		o := taubench.NewObject()
		for _, k := range keys {
			e, _ := x.Get(k)
			o.Set(k, tauSorted(e))
		}
		return o
	case []taubench.Value:
		out := make([]taubench.Value, len(x))
		for i, e := range x {
			out[i] = tauSorted(e)
		}
		return out
	}
	return v
}
