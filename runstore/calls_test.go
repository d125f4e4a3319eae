package runstore

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runrecord"
)

// exchangeFor is a deterministic call of sample id: a long prefix shared
// by every call (as prompts share their instructions and history) and a
// tail of its own.
func exchangeFor(id string, attempt int) *llm.Exchange {
	t := 0.7
	var sb strings.Builder
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&sb, "record %d: watched video %d for %ds, liked=%v\n", i, i*7%13, i%90, i%3 == 0)
	}
	return &llm.Exchange{
		Messages: []llm.Message{
			{Role: "system", Content: "You predict what a user does next."},
			{Role: "user", Content: sb.String() + "Question about " + id + ": will the user like it?"},
		},
		Params:   llm.Params{Temperature: &t, MaxTokens: 64, Extra: map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": false}}},
		SampleID: id, Attempt: attempt, Affinity: "u1",
		Text: fmt.Sprintf("Answer for %s draw %d: Yes", id, attempt), Reasoning: "because " + id,
		Model: "sim", Endpoint: "",
	}
}

func recordedCalls(id string, n int) []llm.CallRecord {
	out := make([]llm.CallRecord, n)
	for i := range out {
		out[i] = llm.CallRecord{Purpose: "predict", Usage: llm.Usage{PromptTokens: 10}, Invalid: i < n-1, Judged: true, Exchange: exchangeFor(id, i)}
	}
	return out
}

// checkRecord asserts that every call of ids reads back byte for byte.
func checkRecord(t *testing.T, dir string, ids []string, perSample int) {
	t.Helper()
	cr, err := OpenCalls(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cr.Close()
	for _, id := range ids {
		got, err := cr.Of(SampleUnit(id))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != perSample {
			t.Fatalf("%s: %d calls recorded, want %d", id, len(got), perSample)
		}
		for i, c := range got {
			want := exchangeFor(id, i)
			if c.Exchange == nil || !reflect.DeepEqual(*c.Exchange, *want) {
				t.Fatalf("%s call %d read back differs:\n got %+v\nwant %+v", id, i, c.Exchange, want)
			}
		}
	}
}

func TestCallRecordRoundTripSharesPrefixes(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	total := 0
	for i := 0; i < 40; i++ {
		id := fmt.Sprintf("m/%03d", i)
		ids = append(ids, id)
		cs := recordedCalls(id, 2)
		for _, c := range cs {
			for _, m := range c.Exchange.Messages {
				total += len(m.Content)
			}
		}
		if err := s.AppendWith(runrecord.Sample{ID: id, Valid: true}, cs); err != nil {
			t.Fatal(err)
		}
	}
	build := []llm.CallRecord{{Purpose: "mem0.extract", Exchange: &llm.Exchange{Messages: []llm.Message{{Role: "user", Content: "extract facts"}}, Text: "- likes cats"}}}
	if err := s.WriteJSONWith("memory/mem0/u1.json", map[string]string{"m": "x"}, build); err != nil {
		t.Fatal(err)
	}
	if err := s.Compact(nil); err != nil {
		t.Fatal(err)
	}
	s.Close()
	checkRecord(t, dir, ids, 2)
	cr, err := OpenCalls(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := cr.Of("file:memory/mem0/u1.json")
	cr.Close()
	if err != nil || len(got) != 1 || got[0].Exchange.Text != "- likes cats" || got[0].Purpose != "mem0.extract" {
		t.Fatalf("construction call: %+v, %v", got, err)
	}
	fi, err := os.Stat(filepath.Join(dir, runrecord.ChunksFile))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size()*20 > int64(total) {
		t.Errorf("chunk store is %d bytes for %d bytes of prompts: shared prefixes are not stored once", fi.Size(), total)
	}
	// Reopening for a resume keeps the record readable and appends to it.
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AppendWith(runrecord.Sample{ID: "m/new", Valid: true}, recordedCalls("m/new", 1)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	checkRecord(t, dir, []string{"m/new"}, 1)
}

func TestSplitChunksJoinsBack(t *testing.T) {
	var long strings.Builder
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&long, "%d,", i*i)
	}
	for _, s := range []string{"", "a", strings.Repeat("é", 3000), long.String(), strings.Repeat("x", 100000)} {
		parts := runrecord.SplitChunks(s)
		if strings.Join(parts, "") != s {
			t.Fatalf("chunks of a %d-byte text do not join back", len(s))
		}
		for _, p := range parts {
			if len(p) > 8<<10 {
				t.Fatalf("chunk of %d bytes", len(p))
			}
		}
	}
	// A shift at the front changes only the first chunks.
	a, b := runrecord.SplitChunks(long.String()), runrecord.SplitChunks("xyz"+long.String())
	shared := map[string]bool{}
	for _, p := range a {
		shared[p] = true
	}
	n := 0
	for _, p := range b {
		if shared[p] {
			n++
		}
	}
	if n < len(b)-2 {
		t.Errorf("after a 3-byte shift only %d of %d chunks are shared", n, len(b))
	}
}
