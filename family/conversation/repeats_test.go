package conversation_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/family/conversation"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// TestRepeatsResumeAndMerge asks every LongMemEval question (and its
// judge) twice on the sim backbone: a run stopped part-way by a token
// ceiling resumes asking only the missing draws, and two shards merge,
// into what one uninterrupted run writes; each draw has its own ID and
// its calls their own draw index and seed.
func TestRepeatsResumeAndMerge(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "longmemeval", "sim", "400")
	b, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, []byte(strings.Replace(string(b), "report:", "eval: {repeats: 2}\nreport:", 1)), 0o644)
	main := func(args ...string) (int, string) {
		var out bytes.Buffer
		code := bench.Main(context.Background(), args, bench.IO{Out: &out, Err: &out, Getenv: func(string) string { return "" }})
		return code, out.String()
	}
	one, stopped, sharded := filepath.Join(dir, "one"), filepath.Join(dir, "stopped"), filepath.Join(dir, "sharded")
	if code, log := main("run", "-c", cfg, "--out", one); code != 0 {
		t.Fatalf("run: exit %d:\n%s", code, log)
	}
	const questions, methods = 22, 3
	ss := readSamples(t, filepath.Join(one, "longmemeval_test"))
	if len(ss) != 2*questions*methods {
		t.Fatalf("%d samples, want %d (2 draws of %d questions × %d methods)", len(ss), 2*questions*methods, questions, methods)
	}
	for i := 0; i < len(ss); i += 2 {
		if ss[i].Repeat != 0 || ss[i+1].Repeat != 1 || ss[i+1].ID != ss[i].ID+"#r1" {
			t.Fatalf("samples %d, %d: %s (draw %d), %s (draw %d); want one question's draws 0 and 1", i, i+1, ss[i].ID, ss[i].Repeat, ss[i+1].ID, ss[i+1].Repeat)
		}
		if _, ok := ss[i+1].Scores[conversation.ScoreJudge]; !ok {
			t.Errorf("%s: the second draw was not judged", ss[i+1].ID)
		}
	}
	checkCallDraws(t, filepath.Join(one, "longmemeval_test"))

	if code, log := main("run", "-c", cfg, "--out", stopped, "--set", "eval.max_tokens=20000"); code == 0 {
		t.Fatalf("the run under a ceiling finished:\n%s", log)
	}
	kept := len(readSamples(t, filepath.Join(stopped, "longmemeval_test")))
	if kept == 0 || kept >= len(ss) {
		t.Fatalf("the stopped run kept %d of %d samples", kept, len(ss))
	}
	code, log := main("run", "-c", cfg, "--out", stopped)
	if code != 0 {
		t.Fatalf("resume: exit %d:\n%s", code, log)
	}
	if want := fmt.Sprintf("%d questions × %d methods × 2 draws", questions, methods); !strings.Contains(log, want) || !strings.Contains(log, fmt.Sprintf("%d already answered", kept)) {
		t.Errorf("the resumed run does not say %q and %d already answered:\n%s", want, kept, log)
	}
	for i := range 2 {
		if code, log := main("run", "-c", cfg, "--out", sharded, "--shard", fmt.Sprintf("%d/2", i)); code != 0 {
			t.Fatalf("shard %d: exit %d:\n%s", i, code, log)
		}
	}
	if code, log := main("merge", filepath.Join(sharded, "longmemeval_test")); code != 0 {
		t.Fatalf("merge: exit %d:\n%s", code, log)
	}
	for _, other := range []string{stopped, sharded} {
		for _, f := range []string{runrecord.SamplesFile, filepath.Join("report", conversation.MetricsFile)} {
			a, err1 := os.ReadFile(filepath.Join(one, "longmemeval_test", f))
			b, err2 := os.ReadFile(filepath.Join(other, "longmemeval_test", f))
			if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
				t.Errorf("%s of %s differs from one uninterrupted run's (%v, %v)", f, filepath.Base(other), err1, err2)
			}
		}
		if a, b := callsBySample(t, filepath.Join(one, "longmemeval_test")), callsBySample(t, filepath.Join(other, "longmemeval_test")); a != b {
			t.Errorf("the call record of %s differs from one uninterrupted run's", filepath.Base(other))
		}
	}
}

// callsBySample lists the recorded calls (unit, purpose, draw, seed and
// request) in unit order, for comparing runs.
func callsBySample(t *testing.T, dir string) string {
	t.Helper()
	cr, err := runstore.OpenCalls(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cr.Close()
	var lines []string
	err = cr.Each(nil, func(c runstore.Call) error {
		if ex := c.Exchange; ex != nil {
			seed := "none"
			if ex.Params.Seed != nil {
				seed = fmt.Sprint(*ex.Params.Seed)
			}
			lines = append(lines, fmt.Sprintf("%s %s r%d seed %s %q", c.Unit, c.Purpose, ex.Repeat, seed, ex.Text))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// checkCallDraws: every call of a second draw (answer and judge) is
// recorded as draw 1 with a seed no first-draw call of its question sends.
func checkCallDraws(t *testing.T, dir string) {
	t.Helper()
	cr, err := runstore.OpenCalls(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cr.Close()
	type key struct{ unit, purpose string }
	seeds := map[key]map[int]string{}
	err = cr.Each(nil, func(c runstore.Call) error {
		ex := c.Exchange
		if ex == nil {
			return nil
		}
		base, _, _ := strings.Cut(c.Unit, "#r")
		if strings.Contains(c.Unit, "#r1") != (ex.Repeat == 1) {
			t.Errorf("%s %s: recorded as draw %d", c.Unit, c.Purpose, ex.Repeat)
		}
		seed := "none"
		if ex.Params.Seed != nil {
			seed = fmt.Sprint(*ex.Params.Seed)
		}
		k := key{base, c.Purpose}
		if seeds[k] == nil {
			seeds[k] = map[int]string{}
		}
		seeds[k][ex.Repeat] = seed
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	judged := 0
	for k, s := range seeds {
		if s[1] == "" || s[1] == "none" || s[1] == s[0] {
			t.Errorf("%v: draw seeds %v, want a seed of its own for draw 1", k, s)
		}
		if strings.Contains(k.purpose, "judge") {
			judged++
		}
	}
	if judged == 0 {
		t.Error("no judge calls recorded")
	}
}
