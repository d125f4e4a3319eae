package lifememrel

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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

// TestTauParserParity: taubench.ParseAction on the τ-bench corpus against
// ChatReActAgent.generate_next_step's parse (testdata/parity/taubench.json):
// the same tool name and arguments, or an error where the source raises.
func TestTauParserParity(t *testing.T) {
	path := filepath.Join(parityDir, "taubench_replies.json")
	replies := tauCorpus(2200)
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
	var want []struct {
		Name   string `json:"name"`
		Kwargs string `json:"kwargs"`
		Error  string `json:"error"`
	}
	readJSON(t, filepath.Join(parityDir, "taubench.json"), &want)
	if len(want) != len(got) {
		t.Fatalf("%d captured results for %d replies (recapture)", len(want), len(got))
	}
	bad := 0
	for i, r := range got {
		a, err := taubench.ParseAction(r)
		w := want[i]
		var ok bool
		var have string
		switch {
		case w.Error != "":
			ok, have = err != nil, "error"
			if err == nil {
				have = a.Name + " " + taubench.Dumps(a.Args())
			}
		case err != nil:
			have = "error " + err.Error()
		default:
			have = a.Name + " " + taubench.Dumps(a.Args())
			// The same text once both sides' keys are sorted: int and
			// float, NaN and the infinities as Python has them.
			wk, werr := taubench.Decode([]byte(w.Kwargs))
			ok = werr == nil && a.Name == w.Name && taubench.Dumps(tauSorted(wk)) == taubench.Dumps(tauSorted(a.Args()))
		}
		if !ok {
			if bad++; bad <= 10 {
				t.Errorf("reply %d %q: got %s, source %s%s %s", i, r, have, w.Error, w.Name, w.Kwargs)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d replies parse otherwise than τ-bench's", bad, len(got))
	}
	t.Logf("%d of %d replies identical", len(got)-bad, len(got))
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
