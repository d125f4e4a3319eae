package cache_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/cache"
)

const ident = "http://localhost:8000/v1|qwen3-8b"

// counter is a fake model that answers with the call count and records calls.
type counter struct {
	calls atomic.Int64
	text  func(req llm.Request) string
	err   error
}

func (c *counter) Generate(_ context.Context, req llm.Request) (llm.Response, error) {
	n := c.calls.Add(1)
	if c.err != nil {
		return llm.Response{}, c.err
	}
	t := fmt.Sprintf("answer %d", n)
	if c.text != nil {
		t = c.text(req)
	}
	return llm.Response{
		Text: t, Reasoning: "because", Model: "qwen3-8b", Endpoint: "http://localhost:8000/v1",
		Usage:   llm.Usage{PromptTokens: 10, CompletionTokens: 2, CachedTokens: 1, Cost: 0.5},
		Latency: time.Second,
	}, nil
}

func openTemp(t testing.TB) (*cache.Cache, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "c.db")
	c, err := cache.Open(path, ident)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, path
}

func req(prompt string) llm.Request {
	return llm.Request{
		Purpose:  "predict",
		Messages: []llm.Message{{Role: "system", Content: "sys"}, {Role: "user", Content: prompt}},
		SampleID: "ml/1/0/movie_rating",
	}
}

func TestHitMiss(t *testing.T) {
	c, _ := openTemp(t)
	inner := &counter{}
	m := c.Wrap(inner)
	ctx := context.Background()
	first, err := m.Generate(ctx, req("p"))
	if err != nil {
		t.Fatal(err)
	}
	if first.Cached {
		t.Error("first call reported Cached")
	}
	second, err := m.Generate(ctx, req("p"))
	if err != nil {
		t.Fatal(err)
	}
	if !second.Cached || second.Latency != 0 {
		t.Errorf("second call: Cached=%v Latency=%v, want true, 0", second.Cached, second.Latency)
	}
	if inner.calls.Load() != 1 {
		t.Errorf("inner called %d times, want 1", inner.calls.Load())
	}
	want := first
	want.Cached, want.Latency, want.Content = true, 0, first.Reply()
	if second != want {
		t.Errorf("hit = %+v, want %+v", second, want)
	}
	if _, err := m.Generate(ctx, req("other")); err != nil {
		t.Fatal(err)
	}
	if inner.calls.Load() != 2 {
		t.Errorf("different prompt did not miss")
	}
}

func TestKeySensitivity(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	i := func(v int) *int { return &v }
	base := func() llm.Request {
		r := req("prompt")
		r.Params = llm.Params{Temperature: f(0.7), TopP: f(0.9), MaxTokens: 64, Seed: i(1),
			Stop: []string{"\n"}, ReasoningEffort: "low",
			Extra: map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": false, "a": 1}}}
		return r
	}
	for _, tc := range []struct {
		name    string
		mutate  func(r *llm.Request)
		changes bool
	}{
		{"same", func(r *llm.Request) {}, false},
		{"purpose", func(r *llm.Request) { r.Purpose = "summary" }, false},
		{"hint", func(r *llm.Request) { r.Hint = struct{ X int }{1} }, false},
		{"affinity", func(r *llm.Request) { r.Affinity = "user9" }, false},
		{"accept", func(r *llm.Request) { r.Accept = func(llm.Response) bool { return true } }, false},
		{"extra same content new map", func(r *llm.Request) {
			r.Params.Extra = map[string]any{"chat_template_kwargs": map[string]any{"a": 1, "enable_thinking": false}}
		}, false},
		{"message content", func(r *llm.Request) { r.Messages[1].Content = "prompt!" }, true},
		{"message role", func(r *llm.Request) { r.Messages[0].Role = "user" }, true},
		{"message added", func(r *llm.Request) { r.Messages = append(r.Messages, llm.Message{Role: "user"}) }, true},
		{"temperature", func(r *llm.Request) { r.Params.Temperature = f(0.8) }, true},
		{"temperature nil", func(r *llm.Request) { r.Params.Temperature = nil }, true},
		{"top_p", func(r *llm.Request) { r.Params.TopP = f(1) }, true},
		{"max_tokens", func(r *llm.Request) { r.Params.MaxTokens = 65 }, true},
		{"seed", func(r *llm.Request) { r.Params.Seed = i(2) }, true},
		{"stop", func(r *llm.Request) { r.Params.Stop = []string{"END"} }, true},
		{"reasoning effort", func(r *llm.Request) { r.Params.ReasoningEffort = "high" }, true},
		{"extra nested", func(r *llm.Request) {
			r.Params.Extra = map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": true, "a": 1}}
		}, true},
		{"extra removed", func(r *llm.Request) { r.Params.Extra = nil }, true},
		{"sample id", func(r *llm.Request) { r.SampleID = "ml/1/1/movie_rating" }, true},
		{"attempt", func(r *llm.Request) { r.Attempt = 1 }, true},
		{"repeat", func(r *llm.Request) { r.Repeat = 1 }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k0, err := cache.Key(ident, base())
			if err != nil {
				t.Fatal(err)
			}
			r := base()
			tc.mutate(&r)
			k1, err := cache.Key(ident, r)
			if err != nil {
				t.Fatal(err)
			}
			if (k0 != k1) != tc.changes {
				t.Errorf("key changed = %v, want %v", k0 != k1, tc.changes)
			}
		})
	}
	a, _ := cache.Key(ident, base())
	b, _ := cache.Key("http://other/v1|qwen3-8b", base())
	if a == b {
		t.Error("identity not in key")
	}
	// Absent and empty collections are the same request on the wire.
	r1, r2 := req("x"), req("x")
	r2.Params.Stop, r2.Params.Extra = []string{}, map[string]any{}
	k1, _ := cache.Key(ident, r1)
	k2, _ := cache.Key(ident, r2)
	if k1 != k2 {
		t.Error("nil and empty Stop/Extra give different keys")
	}
}

func TestKeyUnencodableExtra(t *testing.T) {
	r := req("x")
	r.Params.Extra = map[string]any{"f": func() {}}
	if _, err := cache.Key(ident, r); err == nil || !strings.Contains(err.Error(), "params.extra") {
		t.Errorf("err = %v, want params.extra error", err)
	}
}

// A rejected answer is stored marked invalid: replaying its attempt gives
// the same rejected text (the caller moves on to its next attempt, as live),
// so a re-run makes no call; PruneInvalid drops it to draw again.
func TestRejectedStoredInvalid(t *testing.T) {
	c, _ := openTemp(t)
	inner := &counter{text: func(llm.Request) string { return "garbage" }}
	m := c.Wrap(inner)
	r := req("p")
	r.Accept = func(resp llm.Response) bool { return resp.Text != "garbage" }
	for i := range 3 {
		resp, err := m.Generate(context.Background(), r)
		if err != nil || resp.Text != "garbage" || resp.Cached != (i > 0) {
			t.Fatalf("call %d: resp=%+v err=%v", i, resp, err)
		}
	}
	if inner.calls.Load() != 1 {
		t.Errorf("inner calls = %d, want 1 (the rejected answer replays)", inner.calls.Load())
	}
	st, err := c.Stats()
	if err != nil || st.Entries != 1 || st.Invalid != 1 {
		t.Fatalf("stats = %+v, %v; want 1 entry, 1 invalid", st, err)
	}
	r.Attempt = 1 // the next attempt is a different key: a fresh draw
	if _, err := m.Generate(context.Background(), r); err != nil || inner.calls.Load() != 2 {
		t.Fatalf("attempt 1: calls = %d, err = %v; want a live call", inner.calls.Load(), err)
	}
	n, err := c.PruneInvalid()
	if err != nil || n != 2 {
		t.Fatalf("PruneInvalid = %d, %v; want 2", n, err)
	}
	if _, err := m.Generate(context.Background(), r); err != nil || inner.calls.Load() != 3 {
		t.Fatalf("after prune: calls = %d, err = %v; want a redraw", inner.calls.Load(), err)
	}
}

func TestErrorsNotStored(t *testing.T) {
	c, _ := openTemp(t)
	boom := errors.New("503 overloaded")
	inner := &counter{err: boom}
	m := c.Wrap(inner)
	for range 2 {
		if _, err := m.Generate(context.Background(), req("p")); !errors.Is(err, boom) {
			t.Fatalf("err = %v, want %v", err, boom)
		}
	}
	if inner.calls.Load() != 2 {
		t.Errorf("inner calls = %d, want 2", inner.calls.Load())
	}
	assertEntries(t, c, 0)
}

func assertEntries(t *testing.T, c *cache.Cache, want int64) {
	t.Helper()
	s, err := c.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if s.Entries != want {
		t.Errorf("entries = %d, want %d", s.Entries, want)
	}
}

func TestIdentityMismatch(t *testing.T) {
	_, path := openTemp(t)
	_, err := cache.Open(path, "https://api.openai.com/v1|gpt-4o")
	if err == nil {
		t.Fatal("opened a cache created for another identity")
	}
	for _, s := range []string{ident, "https://api.openai.com/v1|gpt-4o"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not name %q", err, s)
		}
	}
	if _, err := cache.Open(path, ""); err == nil {
		t.Error("empty identity accepted")
	}
}

func TestPersistence(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.db")
	c, err := cache.Open(path, ident)
	if err != nil {
		t.Fatal(err)
	}
	first, err := c.Wrap(&counter{}).Generate(context.Background(), req("p"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c2, err := cache.Open(path, ident)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	inner := &counter{}
	got, err := c2.Wrap(inner).Generate(context.Background(), req("p"))
	if err != nil {
		t.Fatal(err)
	}
	if !got.Cached || got.Text != first.Text || inner.calls.Load() != 0 {
		t.Errorf("after reopen: %+v, inner calls %d", got, inner.calls.Load())
	}
}

func TestConcurrent(t *testing.T) {
	c, path := openTemp(t)
	inner := &counter{text: func(r llm.Request) string { return "re:" + r.Messages[1].Content }}
	m := c.Wrap(inner)
	const workers, perWorker, distinct = 16, 60, 50
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWorker {
				p := fmt.Sprintf("prompt %d", (w*7+i)%distinct)
				resp, err := m.Generate(context.Background(), req(p))
				if err != nil {
					errs <- err
					return
				}
				if resp.Text != "re:"+p {
					errs <- fmt.Errorf("got %q for %q", resp.Text, p)
					return
				}
			}
		}()
	}
	// A second handle on the same file (another shard process) writes too.
	other, err := cache.Open(path, ident)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		if _, err := other.Wrap(inner).Generate(context.Background(), req(fmt.Sprintf("other %d", i))); err != nil {
			t.Error(err)
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	other.Close()
	assertEntries(t, c, distinct+20)
}

func TestInspectScanPrune(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.db")
	c, err := cache.Open(path, ident)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	m := c.Wrap(&counter{text: func(llm.Request) string { return "12345" }})
	for i := range 3 {
		if _, err := m.Generate(context.Background(), req(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	b, err := cache.Open(filepath.Join(dir, "b.sqlite"), "http://b|m")
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
	all, err := cache.Scan(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 {
		t.Fatalf("scan found %d files, want 2", len(all))
	}
	a := all[0]
	// "12345" + "because" per entry.
	if a.Identity != ident || a.Entries != 3 || a.Bytes != 3*12 || a.Version != cache.Version ||
		a.FileBytes == 0 || a.Oldest.IsZero() || len(a.Identities) != 1 || a.Identities[0] != ident {
		t.Errorf("stats a = %+v", a)
	}
	if all[1].Identity != "http://b|m" || all[1].Entries != 0 || !all[1].Oldest.IsZero() {
		t.Errorf("stats b = %+v", all[1])
	}
	if _, err := cache.Inspect(filepath.Join(dir, "missing.db")); err == nil {
		t.Error("Inspect of a missing file succeeded")
	}
	if n, err := c.Prune(time.Hour); err != nil || n != 0 {
		t.Errorf("Prune(1h) = %d, %v; want 0", n, err)
	}
	if n, err := c.Prune(0); err != nil || n != 3 {
		t.Errorf("Prune(0) = %d, %v; want 3", n, err)
	}
	assertEntries(t, c, 0)
}

func TestExplain(t *testing.T) {
	c, _ := openTemp(t)
	r := req("p")
	x, err := c.Explain(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if x.Hit || !strings.Contains(x.Canonical, `"sample_id":"ml/1/0/movie_rating"`) {
		t.Errorf("explain before store = %+v", x)
	}
	if _, err := c.Wrap(&counter{}).Generate(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	y, err := c.Explain(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	k, _ := cache.Key(ident, r)
	if !y.Hit || y.Key != k || y.Stored.IsZero() {
		t.Errorf("explain after store = %+v", y)
	}
}

func TestClosed(t *testing.T) {
	c, _ := openTemp(t)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// BenchmarkCacheHit measures one hit through Wrap with ~10k entries of ~2 KB
// prompts in the file.
func BenchmarkCacheHit(b *testing.B) {
	c, _ := openTemp(b)
	inner := &counter{text: func(llm.Request) string { return "4" }}
	m := c.Wrap(inner)
	pad := strings.Repeat("The user watched a movie and rated it. ", 52) // ~2 KB
	const n = 10000
	reqs := make([]llm.Request, n)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 8 {
				reqs[i] = req(fmt.Sprintf("%s #%d", pad, i))
				if _, err := m.Generate(context.Background(), reqs[i]); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		resp, err := m.Generate(ctx, reqs[i%n])
		if err != nil || !resp.Cached {
			b.Fatalf("resp=%+v err=%v", resp, err)
		}
	}
}

// BenchmarkCacheKey is make perf's same-run baseline for BenchmarkCacheHit:
// computing the key alone (canonical encoding + SHA-256), without the lookup.
func BenchmarkCacheKey(b *testing.B) {
	r := req(strings.Repeat("The user watched a movie and rated it. ", 52) + " #1")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cache.Key(ident, r); err != nil {
			b.Fatal(err)
		}
	}
}

func TestRelativePath(t *testing.T) {
	t.Chdir(t.TempDir())
	c, err := cache.Open(filepath.Join("sub dir", "x.db"), ident)
	if err == nil {
		c.Close()
		t.Fatal("opened a file in a missing directory")
	}
	c, err = cache.Open("rel #1.db", ident)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	s, err := cache.Inspect("rel #1.db")
	if err != nil || s.Identity != ident {
		t.Errorf("Inspect(relative) = %+v, %v", s, err)
	}
}

// TestKeyFirstRepeatUnchanged: the first draw of a sample (Repeat 0) is
// encoded exactly as keys were before repeated draws existed (the encoding
// written out here by hand), so existing caches keep answering it; a later
// draw adds the repeat.
func TestKeyFirstRepeatUnchanged(t *testing.T) {
	r := llm.Request{Messages: []llm.Message{{Role: "user", Content: "q"}}, SampleID: "s1", Attempt: 2}
	kp, err := cache.Parts("id", r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := kp.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"v":1,"identity":"id","messages":[{"role":"user","content":"q"}],"temperature":null,"top_p":null,` +
		`"max_tokens":0,"seed":null,"stop":null,"reasoning_effort":"","extra":null,"sample_id":"s1","attempt":2}`
	if string(got) != want {
		t.Errorf("repeat 0 encodes as\n%s\nwant (the encoding before repeats)\n%s", got, want)
	}
	r.Repeat = 3
	kp, _ = cache.Parts("id", r)
	got, _ = kp.Canonical()
	if string(got) != want[:len(want)-1]+`,"repeat":3}` {
		t.Errorf("repeat 3 encodes as %s", got)
	}
}
