package bench

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/internal/prefixcache"
	"github.com/memharness/memharness/runstore"
)

// TestPrefixReuseReplayedFromTheCallRecord runs each paper config at the
// small size and replays its real send order from outside, as the call
// record keeps it (send_seq, answered_before_send), through a block-level
// LRU cache over the prompts' bytes (64-byte blocks): a call reuses what
// was answered before it was sent.
func TestPrefixReuseReplayedFromTheCallRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a config")
	}
	for _, name := range []string{"pramem_table1", "omnibehavior_table1", "movielens_confusion"} {
		t.Run(name, func(t *testing.T) { replaySendOrder(t, name) })
	}
}

func replaySendOrder(t *testing.T, name string) {
	stdio := IO{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}
	path := filepath.Join("..", "configs", "paper", name+".yaml")
	cfg, err := config.Options{Getenv: stdio.Getenv}.Load(path, planSmall(t, path))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	dir := filepath.Join(out, cfg.Name)
	if _, err := executeRun(context.Background(), stdio, family.Run{Config: cfg, ConfigPath: path, Dir: dir, Out: out}); err != nil {
		t.Fatal(err)
	}
	cr, err := runstore.OpenCalls(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cr.Close()
	type sent struct {
		seq, answered int64
		chain         prefixcache.Chain
	}
	var calls []sent
	err = cr.Each(nil, func(c runstore.Call) error {
		if c.Cached || c.Exchange == nil {
			return nil
		}
		if c.SendSeq == 0 {
			t.Errorf("%s call %d has no send number", c.Unit, c.Index)
		}
		var b bytes.Buffer
		for _, m := range c.Exchange.Messages {
			b.WriteString(m.Role + "\x00" + m.Content + "\x00")
		}
		ch := prefixcache.Chainer{Block: 64}
		for _, x := range b.Bytes() {
			ch.Add(uint64(x))
		}
		calls = append(calls, sent{c.SendSeq, c.AnsweredBeforeSend, ch.Chain})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(calls, func(a, b sent) int { return int(a.seq - b.seq) })
	// What a call sees is what was answered before it was sent, as
	// recorded; 4 MB of blocks is about 1M tokens.
	m := prefixcache.NewModel(prefixcache.Options{Block: 64, Capacity: 4 << 20})
	byAnswer := slices.Clone(calls)
	slices.SortFunc(byAnswer, func(a, b sent) int { return int(a.answered - b.answered) })
	reused, next := 0, 0
	chains := make([]prefixcache.Chain, len(calls))
	for i, c := range calls {
		// Answered before this send: in the cache.
		for next < len(byAnswer) && byAnswer[next].answered < c.seq {
			m.Insert(byAnswer[next].chain)
			next++
		}
		chains[i] = c.chain
		for _, h := range c.chain {
			if !m.Has(h) {
				break
			}
			reused += 64
		}
	}
	ideal := prefixcache.Ideal(chains, 64)
	t.Logf("%d calls replayed: reuse %d of ideal %d bytes (%.1f %%)", len(calls), reused, ideal, 100*float64(reused)/float64(ideal))
	if ideal == 0 || float64(reused) < 0.99*float64(ideal) {
		t.Errorf("the real send order reuses %d of the ideal %d bytes, want at least 99 %%", reused, ideal)
	}
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
