package bench

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/memharness/memharness/internal/prefixcache"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runstore"
)

// replayedReuse replays a finished run's real send order from outside, as
// its call record keeps it (send_seq, answered_before_send), through a
// block-level LRU cache over the prompts' bytes (llm.PromptChain's blocks,
// the default cache size): a call reuses what was answered before it was
// sent. It returns the bytes reused and the ideal (every distinct prefix
// computed once) and the calls replayed; cached calls, which no server saw,
// are left out.
func replayedReuse(t *testing.T, dir string) (reused, ideal, calls int) {
	t.Helper()
	cr, err := runstore.OpenCalls(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cr.Close()
	type sent struct {
		seq, answered int64
		chain         prefixcache.Chain
	}
	var sends []sent
	err = cr.Each(nil, func(c runstore.Call) error {
		if c.Cached || c.Exchange == nil || c.Batch != "" {
			return nil
		}
		if c.SendSeq == 0 {
			t.Errorf("%s call %d has no send number", c.Unit, c.Index)
		}
		sends = append(sends, sent{c.SendSeq, c.AnsweredBeforeSend, llm.PromptChain(c.Exchange.Messages)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(sends, func(a, b sent) int { return cmp.Compare(a.seq, b.seq) })
	m := prefixcache.NewModel(prefixcache.Options{Block: prefixcache.TextBlock, Capacity: llm.DefaultPrefixCacheTokens * prefixcache.BytesPerToken})
	byAnswer := slices.Clone(sends)
	slices.SortFunc(byAnswer, func(a, b sent) int { return cmp.Compare(a.answered, b.answered) })
	next := 0
	chains := make([]prefixcache.Chain, len(sends))
	for i, c := range sends {
		// Answered before this send: in the cache.
		for next < len(byAnswer) && byAnswer[next].answered < c.seq {
			m.Insert(byAnswer[next].chain)
			next++
		}
		chains[i] = c.chain
		reused += m.Cached(c.chain) * prefixcache.TextBlock
	}
	return reused, prefixcache.Ideal(chains, prefixcache.TextBlock), len(sends)
}

// TestLifelongSendNumbers: a lifelong run numbers its calls in send order
// too, continuing the numbers of the process before it on resume, so its
// order can be replayed from the call record.
func TestLifelongSendNumbers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a config twice")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ll.yaml")
	os.WriteFile(cfg, []byte(`name: ll
task: lifemem
backbone: {kind: sim}
lifelong:
  stream: similarity
  envs: [scienceworld, webshop]
  tasks_per_env: 2
  methods:
    - {name: react, kind: react}
    - {name: lifemem, kind: lifemem, top_k: 2}
`), 0o644)
	out := filepath.Join(dir, "out")
	// A first part stopped at a token ceiling, then the rest.
	if log, code := runCLI(t, "run", "-c", cfg, "--out", out, "--set", "eval.max_tokens=20000"); code != exitCeiling {
		t.Fatalf("first part: exit %d, want %d:\n%s", code, exitCeiling, log)
	}
	if log, code := runCLI(t, "run", "-c", cfg, "--out", out); code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	cr, err := runstore.OpenCalls(filepath.Join(out, "ll"))
	if err != nil {
		t.Fatal(err)
	}
	defer cr.Close()
	seen := map[int64]bool{}
	n := 0
	err = cr.Each(nil, func(c runstore.Call) error {
		n++
		if c.SendSeq == 0 || seen[c.SendSeq] {
			t.Errorf("call %d of %s: send number %d (missing or repeated)", c.Index, c.Unit, c.SendSeq)
		}
		seen[c.SendSeq] = true
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("%d calls, %v", n, err)
	}
}
