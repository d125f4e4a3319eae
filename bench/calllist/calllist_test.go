package calllist

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runstore"
)

func TestOfUser(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    runstore.Call
		user string
		want bool
	}{
		{"affinity", runstore.Call{Unit: "sample:s1", CallRecord: llm.CallRecord{Exchange: &llm.Exchange{Affinity: "u1"}}}, "u1", true},
		{"other affinity", runstore.Call{Unit: "sample:s1", CallRecord: llm.CallRecord{Exchange: &llm.Exchange{Affinity: "u2"}}}, "u1", false},
		{"memory file", runstore.Call{Unit: "file:memory/pramem/u1.json"}, "u1", true},
		{"memory folder", runstore.Call{Unit: "file:checkpoints/u1/round_2.json"}, "u1", true},
		{"prefix only", runstore.Call{Unit: "file:memory/pramem/u10.json"}, "u1", false},
		{"sample, no texts", runstore.Call{Unit: "sample:u1"}, "u1", false},
	} {
		if got := OfUser(tc.c, tc.user); got != tc.want {
			t.Errorf("%s: OfUser = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestWriteRow(t *testing.T) {
	long := strings.Repeat("é", 40) + " the question?"
	for _, tc := range []struct {
		name string
		c    runstore.Call
		want string
	}{
		{"texts lost", runstore.Call{Unit: "sample:a", Index: 2, Lost: "chunk store cut short", CallRecord: llm.CallRecord{Purpose: "predict", Cached: true}},
			"sample:a #2\tpredict\tcached,texts-lost\t0+0 tok\t0s\tasked \"\"\tgot \"\"\n"},
		{"error", runstore.Call{Unit: "sample:b", CallRecord: llm.CallRecord{Purpose: "judge", Failed: true, LatencyNS: 1_500_000,
			Exchange: &llm.Exchange{Messages: []llm.Message{{Content: "sys"}, {Content: "q?"}}, Error: "boom"}}},
			"sample:b #0\tjudge\tfailed\t0+0 tok\t2ms\tasked \"q?\"\tgot \"error: boom\"\n"},
	} {
		var b bytes.Buffer
		if err := WriteRow(&b, tc.c); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, b.String(), tc.want)
		}
	}
	// The asked text keeps its end, cut at a rune boundary.
	got := tail(long, 20)
	if !strings.HasSuffix(got, " the question?") || !strings.HasPrefix(got, "…") || !utf8Valid(got) {
		t.Errorf("tail = %q", got)
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

func TestNewLineJSON(t *testing.T) {
	l := NewLine(runstore.Call{Unit: "sample:a", CallRecord: llm.CallRecord{Purpose: "predict"}})
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"request"`) || !strings.Contains(string(b), `"purpose":"predict"`) {
		t.Errorf("a call without texts: %s", b)
	}
	l = NewLine(runstore.Call{CallRecord: llm.CallRecord{Exchange: &llm.Exchange{Text: "yes", Model: "m"}}})
	if l.Request == nil || l.Response == nil || l.Response.Text != "yes" || l.Response.Model != "m" {
		t.Errorf("a call with texts: %+v", l)
	}
}
