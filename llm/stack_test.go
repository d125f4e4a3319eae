package llm

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
)

// chaosServer injects faults on about 30 % of attempts, decided by a seeded
// hash of (request ID, attempt number) so the pattern does not depend on
// goroutine scheduling. IDs divisible by 50 always get a permanent 400.
type chaosServer struct {
	*fakeServer
	name string

	mu       sync.Mutex
	attempts map[string]int      // request ID -> attempts seen
	users    map[string]struct{} // affinity keys seen
}

func newChaosServer(t *testing.T, name string, seed uint64) *chaosServer {
	c := &chaosServer{name: name, attempts: map[string]int{}, users: map[string]struct{}{}}
	c.fakeServer = newFakeServer(t, func(_ int, body map[string]any) reply {
		content := body["messages"].([]any)[0].(map[string]any)["content"].(string)
		id, user, _ := strings.Cut(content, "@")
		c.mu.Lock()
		c.attempts[id]++
		n := c.attempts[id]
		c.users[user] = struct{}{}
		c.mu.Unlock()

		var num int
		fmt.Sscanf(id, "req-%d", &num)
		if num%50 == 0 {
			return reply{status: 400, body: errJSON("bad request " + id)}
		}
		h := fnv.New64a()
		fmt.Fprintf(h, "%d/%s/%d", seed, id, n)
		switch x := h.Sum64() % 100; {
		case x < 8:
			return reply{status: 429, header: map[string]string{"Retry-After": "1"}, body: errJSON("rate limited")}
		case x < 16:
			return reply{status: 500, body: errJSON("internal")}
		case x < 23:
			return reply{delay: 2 * time.Second, body: chatJSON("m", "late "+id, 1, 1, 0)}
		case x < 30:
			return reply{body: `{"id":"x","choices":[{"message":{"content":"` + id}
		}
		return reply{body: chatJSON("m", "echo "+id, 20, 3, 5)}
	})
	return c
}

func TestStackMixedFaults(t *testing.T) {
	servers := []*chaosServer{newChaosServer(t, "a", 1), newChaosServer(t, "b", 2), newChaosServer(t, "c", 3)}
	var urls []string
	for _, s := range servers {
		urls = append(urls, s.BaseURL())
	}
	sl := &sleepRecorder{cap: 2 * time.Millisecond}
	var outerRetries atomic.Int64
	st, err := OpenStack(StackConfig{
		OnRetry:  func(RetryEvent) { outerRetries.Add(1) },
		BaseURLs: urls, Model: "m", APIKey: "k",
		Timeout: 150 * time.Millisecond, Concurrency: 8, MaxConcurrency: 16,
		Prices: &Prices{PromptPer1M: 1, CompletionPer1M: 2},
		Sleep:  sl.Sleep,
	})
	if err != nil {
		t.Fatal(err)
	}

	const n = 200
	type outcome struct {
		resp Response
		err  error
	}
	results := make([]outcome, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			user := fmt.Sprintf("user-%d", i%17)
			req := userMsg("predict", fmt.Sprintf("req-%d@%s", i, user))
			req.Affinity = user
			req.SampleID = fmt.Sprint(i)
			resp, err := st.Generate(context.Background(), req)
			results[i] = outcome{resp, err}
		}()
	}
	wg.Wait()

	// Every request finished exactly once with its own answer or an error.
	var ok, failed, retries int
	for i, r := range results {
		id := fmt.Sprintf("req-%d", i)
		switch {
		case r.err != nil:
			failed++
			var re *RetryError
			if !errors.As(r.err, &re) || re.Attempts > 6 {
				t.Errorf("%s: error %v is not a bounded *RetryError", id, r.err)
			}
			if i%50 == 0 && (re == nil || re.Attempts != 1) {
				t.Errorf("%s: permanent 400 was retried: %v", id, r.err)
			}
		case r.resp.Text != "echo "+id:
			t.Errorf("%s got answer %q", id, r.resp.Text)
		default:
			ok++
			retries += r.resp.Retries
		}
	}
	if ok+failed != n {
		t.Fatalf("%d ok + %d failed != %d", ok, failed, n)
	}
	if failed < n/50 {
		t.Errorf("only %d failures; the 400s alone should give %d", failed, n/50)
	}
	if retries == 0 {
		t.Error("no retries happened; the fault injection is not working")
	}

	// Server side: every ID arrived, none more than MaxAttempts times, and
	// each user stayed on one endpoint.
	seenIDs := map[string]int{}
	userHome := map[string]string{}
	for _, s := range servers {
		s.mu.Lock()
		for id, a := range s.attempts {
			seenIDs[id] += a
		}
		for u := range s.users {
			if prev, dup := userHome[u]; dup {
				t.Errorf("user %s hit both %s and %s", u, prev, s.name)
			}
			userHome[u] = s.name
		}
		s.mu.Unlock()
	}
	if len(seenIDs) != n {
		t.Errorf("servers saw %d distinct IDs, want %d", len(seenIDs), n)
	}
	for id, a := range seenIDs {
		if a > 6 {
			t.Errorf("%s attempted %d times", id, a)
		}
	}
	for _, s := range servers {
		if len(s.users) == 0 {
			t.Errorf("server %s got no users", s.name)
		}
	}

	// The meter agrees with what the callers saw.
	snap := st.Meter.Snapshot()
	want := PurposeStats{Calls: n, Live: ok, Errors: failed}
	got := snap.ByPurpose["predict"]
	if got.Calls != want.Calls || got.Live != want.Live || got.Errors != want.Errors {
		t.Errorf("meter %+v, want calls %d live %d errors %d", got, n, ok, failed)
	}
	if got.Usage.PromptTokens != 20*ok || got.Usage.Cost <= 0 {
		t.Errorf("usage %+v for %d successes", got.Usage, ok)
	}
	if outerRetries.Load() != int64(snap.RetryEvents) {
		t.Errorf("outer retry hook saw %d events, meter %d", outerRetries.Load(), snap.RetryEvents)
	}
	if snap.RetryEvents < retries || got.Retries < retries {
		t.Errorf("retry events %d, meter retries %d, caller retries %d", snap.RetryEvents, got.Retries, retries)
	}
	cuts := 0
	for _, l := range st.Limiters {
		s := l.Stats()
		cuts += s.Cuts
		if s.InFlight != 0 || s.Waiting != 0 {
			t.Errorf("limiter left busy: %+v", s)
		}
	}
	if cuts == 0 {
		t.Error("429s never cut a limiter")
	}
	t.Logf("ok=%d failed=%d retries=%d cuts=%d waits=%d", ok, failed, retries, cuts, len(sl.all()))
}

func TestStackAppliesDefaults(t *testing.T) {
	f := newFakeServer(t, func(int, map[string]any) reply { return okReply("ok") })
	st, err := Open(StackConfig{
		BaseURLs: []string{f.BaseURL()}, Model: "m",
		Params: Params{Temperature: ptr(0.3), MaxTokens: 16, Extra: map[string]any{"a": 1, "b": 2}},
	})
	if err != nil {
		t.Fatal(err)
	}
	req := userMsg("p", "q")
	req.Params = Params{MaxTokens: 99, Extra: map[string]any{"b": 3}}
	if _, err := st.Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	body := f.requests()[0].body
	for k, want := range map[string]any{"temperature": 0.3, "max_tokens": 99.0, "a": 1.0, "b": 3.0} {
		if body[k] != want {
			t.Errorf("%s = %v, want %v", k, body[k], want)
		}
	}
}

func TestMergeParams(t *testing.T) {
	d := Params{Temperature: ptr(0.5), TopP: ptr(0.9), MaxTokens: 10, Seed: ptr(1),
		Stop: []string{"x"}, ReasoningEffort: "low", Extra: map[string]any{"k": 1}}
	tests := []struct {
		name string
		p    Params
		want Params
	}{
		{"empty takes all", Params{}, d},
		{"set fields win", Params{Temperature: ptr(0.0), MaxTokens: 5, Stop: []string{}, ReasoningEffort: "high",
			Extra: map[string]any{"k": 2, "j": 3}},
			Params{Temperature: ptr(0.0), TopP: ptr(0.9), MaxTokens: 5, Seed: ptr(1), Stop: []string{},
				ReasoningEffort: "high", Extra: map[string]any{"k": 2, "j": 3}}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, MergeParams(tc.p, d)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	if d.Extra["k"] != 1 {
		t.Error("MergeParams modified the defaults")
	}
}

func TestStackConfigYAML(t *testing.T) {
	src := `
base_urls: [http://gpu0:8000/v1, http://gpu1:8000/v1]
model: Qwen3-8B
timeout: 45s
max_retries: 3
concurrency: 24
max_concurrency: 96
weights: [1, 2]
prices: {prompt_per_1m: 0.1, completion_per_1m: 0.4}
params:
  temperature: 0
  max_tokens: 512
  extra: {chat_template_kwargs: {enable_thinking: false}}
`
	var cfg StackConfig
	dec := yaml.NewDecoder(strings.NewReader(src))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Timeout != 45*time.Second || cfg.Concurrency != 24 || cfg.Params.Temperature == nil ||
		*cfg.Params.Temperature != 0 || cfg.Prices.CompletionPer1M != 0.4 || len(cfg.Weights) != 2 {
		t.Errorf("decoded %+v", cfg)
	}
	if got := cfg.Identities(); !cmp.Equal(got, []string{"http://gpu0:8000/v1|Qwen3-8B", "http://gpu1:8000/v1|Qwen3-8B"}) {
		t.Errorf("Identities = %v", got)
	}
	bad := yaml.NewDecoder(strings.NewReader("model: m\napi_key: sk-x\n"))
	bad.KnownFields(true)
	if err := bad.Decode(&StackConfig{}); err == nil {
		t.Error("api_key was accepted from YAML; keys must come from the environment")
	}
	st, err := OpenStack(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Limiters) != 2 || st.Limiters[0].Limit() != 24 || !cmp.Equal(st.Router.Names(), []string{"http://gpu0:8000/v1", "http://gpu1:8000/v1"}) {
		t.Errorf("stack built wrong: %d limiters, names %v", len(st.Limiters), st.Router.Names())
	}
}

func TestOpenValidates(t *testing.T) {
	bad := []StackConfig{
		{Model: "m"},
		{BaseURLs: []string{"http://a/v1"}},
		{BaseURLs: []string{"http://a/v1", "http://a/v1/"}, Model: "m"},
		{BaseURLs: []string{"http://a/v1"}, Model: "m", Weights: []float64{1, 2}},
	}
	for _, c := range bad {
		if _, err := Open(c); err == nil {
			t.Errorf("Open(%v) succeeded", c)
		}
	}
}
