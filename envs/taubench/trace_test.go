package taubench

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/internal/testfixture"
)

// TestLifeMemTrace replays the tool calls of LifeMem's recorded τ-bench
// training trajectory and diffs our "API output: ..." observations against
// the real Python outputs, byte for byte.
func TestLifeMemTrace(t *testing.T) {
	s := openFixture(t, Retail)
	path := filepath.Join(testfixture.Need(t, "envs/lifemem_trainset_samples", "samples.jsonl"), "samples.jsonl")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type msg struct{ Role, Content string }
	var traces [][]msg
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var rec struct {
			Source   string `json:"source_file"`
			Messages []msg  `json:"messages"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(rec.Source, "taubench") {
			traces = append(traces, rec.Messages)
		}
	}
	if len(traces) == 0 {
		t.Skip("no taubench trajectory in the samples")
	}
	checked := 0
	for _, tr := range traces {
		db := s.d.base.Fresh()
		for i := 0; i+1 < len(tr); i++ {
			if tr[i].Role != "assistant" {
				continue
			}
			a, err := ParseAction(tr[i].Content)
			if err != nil || a.Name == Respond {
				continue
			}
			out, _, err := invoke(s.d.tools[a.Name], db, a.Kwargs)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := "API output: "+out, tr[i+1].Content; got != want {
				t.Errorf("%s:\n got %s\nwant %s", a.Name, got, want)
			}
			checked++
		}
	}
	t.Logf("%d tool outputs match the recorded Python outputs", checked)
}
