package apibank

import (
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/memharness/memharness/internal/pystr/pystrtest"
)

var update = flag.Bool("update", false, "rewrite the inputs of testdata/check_golden.json (the official outputs must then be captured again, see testdata/README.md)")

// checkCase is one generated (response, ground truth) pair for an API's
// correctness check, with what the official check_api_call_correctness
// returned under CPython 3.11 ("true", "false", or "raise" when it raised,
// which the official evaluator counts as a wrong call).
type checkCase struct {
	API      string          `json:"api"`
	Resp     json.RawMessage `json:"resp"`
	GT       json.RawMessage `json:"gt"`
	Official string          `json:"official"`
}

// checkFields are the string inputs of the APIs whose checks normalise
// text (strip, lower, upper, split on spaces, remove spaces).
var checkFields = map[string][]string{
	"AddAgenda": {"content", "time", "location"}, "AddReminder": {"content", "time"},
	"AddMeeting": {"meeting_topic", "start_time", "end_time", "location"}, "QueryScene": {"name"},
	"DeleteScene": {"name"}, "SendEmail": {"receiver", "subject", "content"}, "Calculator": {"formula"},
	"DocumentQA": {"url", "question"}, "CancelRegistration": {"appointment_id"}, "QueryBalance": {"token"},
	"AddAlarm": {"time"}, "PlayMusic": {"music_name"},
}

func genCheckCases(n int) []checkCase {
	rng := rand.New(rand.NewPCG(14, 3))
	apis := make([]string, 0, len(checkFields))
	for a := range checkFields {
		apis = append(apis, a)
	}
	sortStrings(apis)
	outputs := []any{"success", nil, 1, 1.0, true, "SUCCESS", map[string]any{"a": 1}}
	var cs []checkCase
	for i := 0; i < n; i++ {
		api := apis[rng.IntN(len(apis))]
		gtIn, respIn := map[string]any{}, map[string]any{}
		for _, f := range checkFields[api] {
			p, g := pystrtest.Pair(rng)
			gtIn[f] = g
			if rng.IntN(3) == 0 {
				respIn[f] = g
			} else {
				respIn[f] = p
			}
		}
		out := outputs[rng.IntN(len(outputs))]
		respOut := out
		if rng.IntN(4) == 0 {
			respOut = outputs[rng.IntN(len(outputs))]
		}
		var exc, respExc any
		if rng.IntN(6) == 0 {
			exc = "boom"
		}
		respExc = exc
		if rng.IntN(6) == 0 {
			respExc = nil
		}
		r, _ := json.Marshal(map[string]any{"api_name": api, "input": respIn, "output": respOut, "exception": respExc})
		g, _ := json.Marshal(map[string]any{"api_name": api, "input": gtIn, "output": out, "exception": exc})
		cs = append(cs, checkCase{API: api, Resp: r, GT: g})
	}
	return cs
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// TestCheckGolden compares correct() with the official checks on 1,500
// generated pairs heavy in Unicode white space and case.
func TestCheckGolden(t *testing.T) {
	path := filepath.Join("testdata", "check_golden.json")
	if *update {
		b, _ := json.MarshalIndent(map[string]any{"cases": genCheckCases(1500)}, "", " ")
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
	var g struct{ Cases []checkCase }
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(g.Cases) < 1500 {
		t.Fatalf("%s: %d cases", path, len(g.Cases))
	}
	diff := 0
	for i, c := range g.Cases {
		rv, err1 := decodeJSON(c.Resp)
		gv, err2 := decodeJSON(c.GT)
		if err1 != nil || err2 != nil {
			t.Fatalf("case %d: %v %v", i, err1, err2)
		}
		got := correct(c.API, resultFromDict(rv.(*Dict), c.API), resultFromDict(gv.(*Dict), c.API))
		if got != (c.Official == "true") {
			diff++
			if diff <= 10 {
				t.Errorf("case %d %s: correct = %v, official %s\n resp %s\n gt   %s", i, c.API, got, c.Official, c.Resp, c.GT)
			}
		}
	}
	t.Logf("%d cases: verdicts differing %d", len(g.Cases), diff)
}
