package batch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memharness/memharness/llm"
)

// liveAnswers answers as the fake provider does, so a batched call and a
// live one give the same reply; it counts its calls.
func liveAnswers(calls *atomic.Int64) llm.Model {
	return llm.ModelFunc(func(_ context.Context, req llm.Request) (llm.Response, error) {
		calls.Add(1)
		text := "answer to " + req.Messages[len(req.Messages)-1].Content
		return llm.Response{Text: text, Content: text, Model: "m-2026", Usage: llm.Usage{PromptTokens: 10, CompletionTokens: 2}}, nil
	})
}

func testConfig(dir string) Config {
	return Config{
		Dir: dir, Purposes: []string{"predict"}, Model: "m", Identity: "fake|m", Provider: "fake", Endpoint: "fake",
		Linger: 30 * time.Millisecond, Poll: time.Millisecond,
		Sleep: func(ctx context.Context, d time.Duration) error {
			if d > time.Millisecond {
				d = time.Millisecond // Retry-After and backoffs, shortened
			}
			time.Sleep(d)
			return ctx.Err()
		},
	}
}

func request(i int) llm.Request {
	return llm.Request{Purpose: "predict", SampleID: fmt.Sprintf("s%d", i),
		Messages: []llm.Message{{Role: "user", Content: fmt.Sprintf("question %d", i)}}}
}

// askAll sends n batched requests at once (as n workers would) and returns
// their responses and errors.
func askAll(m llm.Model, n int) ([]llm.Response, []error) {
	resps, errs := make([]llm.Response, n), make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resps[i], errs[i] = m.Generate(context.Background(), request(i))
		}()
	}
	wg.Wait()
	return resps, errs
}

type answers struct {
	resps []llm.Response
	errs  []error
}

func ask(m llm.Model, n int) answers {
	r, e := askAll(m, n)
	return answers{r, e}
}

func checkAnswers(t *testing.T, a answers) {
	t.Helper()
	resps, errs := a.resps, a.errs
	for i, r := range resps {
		if errs[i] != nil {
			t.Fatalf("request %d: %v", i, errs[i])
		}
		if want := fmt.Sprintf("answer to question %d", i); r.Text != want || r.Reply() != want {
			t.Errorf("request %d: got %q, want %q", i, r.Text, want)
		}
	}
}

func TestBatchWaveAnswersEachCallerAndLeavesOtherPurposesLive(t *testing.T) {
	f := newFakeProvider(t)
	var live atomic.Int64
	cfg := testConfig(t.TempDir())
	cfg.Prices = &llm.Prices{PromptPer1M: 1, CompletionPer1M: 2}
	l, err := Open(context.Background(), cfg, f.provider(), liveAnswers(&live))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	resps, errs := askAll(l, 20)
	checkAnswers(t, answers{resps, errs})
	for i, r := range resps {
		if r.Batch == "" || r.Model != "m-2026" || r.Usage.PromptTokens != 10 || r.Usage.Cost != (10*1+2*2)/1e6 {
			t.Errorf("request %d: batch %q model %q usage %+v", i, r.Batch, r.Model, r.Usage)
		}
	}
	if live.Load() != 0 {
		t.Errorf("%d batched calls went live", live.Load())
	}
	other := llm.Request{Purpose: "memory.build", Messages: []llm.Message{{Role: "user", Content: "x"}}}
	if r, err := l.Generate(context.Background(), other); err != nil || r.Batch != "" || live.Load() != 1 {
		t.Errorf("an unbatched purpose: %+v %v (live calls %d)", r, err, live.Load())
	}
	st := l.Stats()
	if st.Answered != 20 || st.Submitted != st.Waves || st.Waves > 2 {
		t.Errorf("stats %+v: want 20 answered in one or two waves", st)
	}
	if f.maxSubmissions() != 1 {
		t.Errorf("a request went into %d batches", f.maxSubmissions())
	}
}

func TestBatchWaveSizeSplitsWaves(t *testing.T) {
	f := newFakeProvider(t)
	var live atomic.Int64
	cfg := testConfig(t.TempDir())
	cfg.WaveSize = 5
	l, err := Open(context.Background(), cfg, f.provider(), liveAnswers(&live))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	checkAnswers(t, ask(l, 12))
	if st := l.Stats(); st.Waves < 3 {
		t.Errorf("12 requests with wave size 5 went in %d waves", st.Waves)
	}
}

// TestBatchWaveBytesSplitsWaves: a wave goes out before its input file
// would pass WaveBytes, so a wave of long prompts stays within a
// provider's file limit; every file written stays under it.
func TestBatchWaveBytesSplitsWaves(t *testing.T) {
	f := newFakeProvider(t)
	var live atomic.Int64
	dir := t.TempDir()
	cfg := testConfig(dir)
	body, err := llm.ChatBody(cfg.Model, request(0))
	if err != nil {
		t.Fatal(err)
	}
	cfg.WaveBytes = 4 * lineSize("mh-0123456789012345678901234567890123456789", body)
	l, err := Open(context.Background(), cfg, f.provider(), liveAnswers(&live))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	checkAnswers(t, ask(l, 12))
	if st := l.Stats(); st.Waves < 3 || st.Requests != 12 {
		t.Errorf("12 requests with room for 4 a wave went in %d waves (%d requests)", st.Waves, st.Requests)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "wave-*[0-9].jsonl"))
	for _, name := range files {
		if fi, err := os.Stat(name); err != nil || fi.Size() > int64(cfg.WaveBytes) {
			t.Errorf("%s: %d bytes, past the %d allowed (%v)", name, fi.Size(), cfg.WaveBytes, err)
		}
	}
}

func TestBatchFaults(t *testing.T) {
	for _, tc := range []struct {
		name      string
		fault     func(f *fakeProvider)
		retryLive bool
		// wantLive is how many requests end live; wantFailed how many came
		// back without an answer at least once.
		wantLive, wantFailed, wantUnknown int
	}{
		{name: "failed batch, retried in the next wave", fault: func(f *fakeProvider) { f.nextStatus = StatusFailed }, wantFailed: 6},
		{name: "expired batch, retried live", fault: func(f *fakeProvider) { f.nextStatus = StatusExpired }, retryLive: true, wantLive: 6, wantFailed: 6},
		{name: "partial output with an error file", fault: func(f *fakeProvider) { f.partial = true }, wantFailed: 3},
		{name: "429 on upload", fault: func(f *fakeProvider) { f.upload429 = 2 }},
		{name: "output line for an unknown custom_id", fault: func(f *fakeProvider) { f.unknownLine = true }, wantUnknown: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeProvider(t)
			tc.fault(f)
			var live atomic.Int64
			cfg := testConfig(t.TempDir())
			cfg.RetryLive = tc.retryLive
			var notes []string
			var mu sync.Mutex
			cfg.Notify = func(s string) { mu.Lock(); notes = append(notes, s); mu.Unlock() }
			l, err := Open(context.Background(), cfg, f.provider(), liveAnswers(&live))
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			checkAnswers(t, ask(l, 6))
			st := l.Stats()
			if int(live.Load()) != tc.wantLive || st.WentLive != tc.wantLive || st.Failed != tc.wantFailed || st.Unknown != tc.wantUnknown {
				t.Errorf("live %d, stats %+v; want %d live, %d failed, %d unknown", live.Load(), st, tc.wantLive, tc.wantFailed, tc.wantUnknown)
			}
			if tc.wantUnknown > 0 && !strings.Contains(strings.Join(notes, "\n"), `"mh-not-sent"`) {
				t.Errorf("the unknown custom_id is not named: %q", notes)
			}
			waves, err := ReadJournal(cfg.Dir)
			if err != nil {
				t.Fatal(err)
			}
			failed := 0
			for _, w := range waves {
				failed += w.Failed
			}
			if failed != tc.wantFailed {
				t.Errorf("the journal counts %d failed requests, want %d", failed, tc.wantFailed)
			}
		})
	}
}

// TestBatchResumeNeverSubmitsTwice kills a run at each point between
// writing a wave and its answers, re-runs it on the same directory and
// counts the batches every request went into.
func TestBatchResumeNeverSubmitsTwice(t *testing.T) {
	for _, tc := range []struct {
		name string
		arm  func(f *fakeProvider, kill func())
	}{
		{"kill between upload and submit", func(f *fakeProvider, kill func()) { f.onSubmit = kill }},
		{"kill after the provider took the batch, before its id was journaled", func(f *fakeProvider, kill func()) { f.afterSubmit = kill }},
		{"kill between submit and completion", func(f *fakeProvider, kill func()) { f.onPoll = kill }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeProvider(t)
			dir := t.TempDir()
			var live atomic.Int64
			first, err := Open(context.Background(), testConfig(dir), f.provider(), liveAnswers(&live))
			if err != nil {
				t.Fatal(err)
			}
			tc.arm(f, first.cancel)
			_, errs := askAll(first, 8)
			first.Close()
			for i, err := range errs {
				if err == nil {
					t.Fatalf("request %d was answered although the run was killed", i)
				}
			}
			second, err := Open(context.Background(), testConfig(dir), f.provider(), liveAnswers(&live))
			if err != nil {
				t.Fatal(err)
			}
			defer second.Close()
			checkAnswers(t, ask(second, 8))
			if n := f.maxSubmissions(); n != 1 {
				t.Errorf("a request went into %d batches", n)
			}
			if live.Load() != 0 {
				t.Errorf("%d requests went live", live.Load())
			}
			if tc.name != "kill between submit and completion" && f.uploads != 1 {
				t.Errorf("%d uploads, want the first one reused", f.uploads)
			}
		})
	}
}

// TestBatchResumeTakesEndedBatchesAnswers re-runs after a batch ended: its
// saved output answers the re-run without any request.
func TestBatchResumeTakesEndedBatchesAnswers(t *testing.T) {
	f := newFakeProvider(t)
	dir := t.TempDir()
	var live atomic.Int64
	first, err := Open(context.Background(), testConfig(dir), f.provider(), liveAnswers(&live))
	if err != nil {
		t.Fatal(err)
	}
	checkAnswers(t, ask(first, 4))
	first.Close()
	second, err := Open(context.Background(), testConfig(dir), f.provider(), liveAnswers(&live))
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	checkAnswers(t, ask(second, 4))
	if st := second.Stats(); st.Waves != 0 || f.maxSubmissions() != 1 {
		t.Errorf("the re-run sent %d waves (max submissions %d)", st.Waves, f.maxSubmissions())
	}
}

func TestBatchStandInRunsWavesOnTheEmbeddedBackbone(t *testing.T) {
	var live atomic.Int64
	cfg := testConfig(t.TempDir())
	l, err := NewStandIn(context.Background(), cfg, liveAnswers(&live), 5*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	resps, errs := askAll(l, 10)
	l.Close()
	checkAnswers(t, answers{resps, errs})
	if live.Load() != 10 || resps[0].Batch == "" {
		t.Errorf("the stand-in asked the model %d times; batch %q", live.Load(), resps[0].Batch)
	}
	// A re-run: the stand-in's batches ended with the process, the saved
	// outputs answer.
	l2, err := NewStandIn(context.Background(), cfg, liveAnswers(&live), 5*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	checkAnswers(t, ask(l2, 10))
	if live.Load() != 10 {
		t.Errorf("the re-run asked the model again (%d calls)", live.Load())
	}
}

// TestBatchRunBatchFileRoundTrip writes the waiting requests as a vLLM
// run-batch input file, answers it as run-batch would and reads the output
// back; a reply for a request that is not waiting is refused, naming it.
func TestBatchRunBatchFileRoundTrip(t *testing.T) {
	root := t.TempDir()
	cfg := testConfig(filepath.Join(root, "m"))
	var live atomic.Int64
	l, err := Open(context.Background(), cfg, nil, liveAnswers(&live))
	if err != nil {
		t.Fatal(err)
	}
	_, errs := askAll(l, 5)
	l.Close()
	for _, err := range errs {
		if !errors.Is(err, llm.ErrStopRun) || !strings.Contains(err.Error(), "bench batch export") {
			t.Fatalf("an offline wave: %v", err)
		}
	}
	var in bytes.Buffer
	n, err := Export(root, []string{"predict"}, &in)
	if err != nil || n != 5 {
		t.Fatalf("export: %d lines, %v", n, err)
	}
	if n, _ := Export(root, []string{"judge"}, io.Discard); n != 0 {
		t.Errorf("export of another purpose wrote %d lines", n)
	}
	// Each line is the live call's exact body.
	want := map[string]string{}
	for i := range 5 {
		id, _ := CustomID(cfg.Identity, request(i))
		body, _ := llm.ChatBody("m", request(i))
		want[id] = string(body)
	}
	for i, raw := range bytes.Split(bytes.TrimSpace(in.Bytes()), []byte("\n")) {
		var line InputLine
		if err := jsonUnmarshal(raw, &line); err != nil {
			t.Fatal(err)
		}
		if line.Method != "POST" || line.URL != ChatURL || string(line.Body) != want[line.CustomID] {
			t.Errorf("line %d: %s %s %s, want body %s", i, line.Method, line.URL, line.Body, want[line.CustomID])
		}
	}
	out := runBatch(t, in.Bytes())
	bad := append(bytes.Clone(out), []byte(`{"id":"x","custom_id":"mh-from-elsewhere","response":{"status_code":200,"body":{}},"error":null}`+"\n")...)
	if _, _, err := Import(root, "results.jsonl", bad); err == nil || !strings.Contains(err.Error(), `"mh-from-elsewhere"`) || !strings.Contains(err.Error(), "line 6") {
		t.Fatalf("an unknown reply: %v", err)
	}
	if ok, failed, err := Import(root, "results.jsonl", out); err != nil || ok != 5 || failed != 0 {
		t.Fatalf("import: %d ok, %d failed, %v", ok, failed, err)
	}
	l2, err := Open(context.Background(), cfg, nil, liveAnswers(&live))
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	checkAnswers(t, ask(l2, 5))
	if live.Load() != 0 || l2.Stats().Waves != 0 {
		t.Errorf("the imported answers were not used: %d live, %+v", live.Load(), l2.Stats())
	}
}

// runBatch answers an input file as vLLM's run-batch writes its output.
func runBatch(t *testing.T, input []byte) []byte {
	var out bytes.Buffer
	for _, raw := range bytes.Split(bytes.TrimSpace(input), []byte("\n")) {
		var line InputLine
		if err := jsonUnmarshal(raw, &line); err != nil {
			t.Fatal(err)
		}
		var body struct {
			Messages []llm.Message `json:"messages"`
		}
		if err := jsonUnmarshal(line.Body, &body); err != nil {
			t.Fatal(err)
		}
		text := "answer to " + body.Messages[len(body.Messages)-1].Content
		fmt.Fprintf(&out, `{"id":"vllm-%s","custom_id":%q,"response":{"status_code":200,"request_id":"vllm-batch-1","body":{"id":"c","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":%q},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"total_tokens":12,"completion_tokens":2}}},"error":null}`+"\n",
			line.CustomID, line.CustomID, text)
	}
	return out.Bytes()
}

// TestBatchBodyIsTheLiveBody: what a wave line carries equals what a live
// call puts on the wire, parameters and extras included.
func TestBatchBodyIsTheLiveBody(t *testing.T) {
	var got []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ = io.ReadAll(r.Body)
		io.WriteString(w, `{"choices":[{"message":{"content":"ok"}}],"usage":{"prompt_tokens":1,"completion_tokens":1}}`)
	}))
	defer srv.Close()
	oa, err := llm.NewOpenAI(llm.EndpointConfig{BaseURL: srv.URL + "/v1", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	temp, seed := 0.0, 7
	req := request(3)
	req.Params = llm.Params{Temperature: &temp, Seed: &seed, MaxTokens: 64, Stop: []string{"\n"}, Extra: map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": false}}}
	if _, err := oa.Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	want, err := llm.ChatBody("m", req)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("batch body\n%s\nlive body\n%s", want, got)
	}
}

func TestBatchJournalToleratesATornLastLine(t *testing.T) {
	dir := t.TempDir()
	j, _ := OpenJournal(dir)
	j.Append(Entry{Step: StepWritten, Wave: 1, File: "wave-0001.jsonl", Requests: []Request{{ID: "a", Purpose: "p"}}})
	f, _ := os.OpenFile(filepath.Join(dir, JournalName), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"step":"uploa`)
	f.Close()
	waves, err := ReadJournal(dir)
	if err != nil || len(waves) != 1 || waves[0].Step != StepWritten {
		t.Fatalf("%+v %v", waves, err)
	}
}

// TestBatchProviderRefusalStopsTheRun: a provider that refuses a wave for
// good (a bad key) stops the run, as a live endpoint that is down does.
func TestBatchProviderRefusalStopsTheRun(t *testing.T) {
	f := newFakeProvider(t)
	p := f.provider()
	p.Key = "sk-wrong"
	var live atomic.Int64
	l, err := Open(context.Background(), testConfig(t.TempDir()), p, liveAnswers(&live))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, errs := askAll(l, 3)
	for _, err := range errs {
		if !errors.Is(err, llm.ErrStopRun) || !strings.Contains(err.Error(), "HTTP 401") {
			t.Errorf("a refused upload: %v", err)
		}
	}
}
