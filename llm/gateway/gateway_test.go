package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/llm/sim"
)

// simStack is the embedded backbone as a run builds it: the sim under a
// meter.
func simStack() *llm.Meter { return llm.NewMeter(sim.New(sim.Config{}, sim.Readers{})) }

func startGateway(t *testing.T, o Options) *Gateway {
	t.Helper()
	if o.Method == "" {
		o.Method = "mymem"
	}
	g, err := Start(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := g.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return g
}

type reply struct {
	status int
	header http.Header
	body   []byte
}

// call sends one request with a plain net/http client, as a child would.
func call(t *testing.T, g *Gateway, method, path string, body any, header map[string]string) reply {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, strings.TrimSuffix(g.URL(), "/v1")+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+g.token)
	for k, v := range header {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{resp.StatusCode, resp.Header, b}
}

// completion is the part of a chat completion reply the tests read.
type completion struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Model   string `json:"model"`
	Choices []struct {
		Index   int `json:"index"`
		Message struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	} `json:"usage"`
}

type errorReply struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

func decode[T any](t *testing.T, r reply) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("reply %d is not JSON: %v\n%s", r.status, err, r.body)
	}
	return v
}

// officialChat is a chat completion body as the openai Python client
// sends it for mem0's fact extraction.
func officialChat() map[string]any {
	return map[string]any{
		"model": "gpt-4.1-nano-2025-04-14",
		"messages": []any{
			map[string]any{"role": "system", "content": "Extract the facts about the user. Answer in JSON."},
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "I moved to Lyon and I love cycling."}}},
		},
		"temperature":           0.1,
		"top_p":                 0.9,
		"max_completion_tokens": 300,
		"stop":                  "\n\n\n",
		"seed":                  7,
		"response_format":       map[string]any{"type": "json_object"},
		"store":                 false,
	}
}

func TestGatewayChatOverSimIsRecordedAsAttributed(t *testing.T) {
	stack := simStack()
	g := startGateway(t, Options{Model: stack, ModelName: "sim"})
	var log llm.CallLog
	bind := g.Bind(llm.WithCallLog(context.Background(), &log), Scope{
		Purpose: "predict", SampleID: "u17#3", Unit: "mymem/u17#3", Affinity: "u17",
	})
	plain := call(t, g, "POST", "/v1/chat/completions", officialChat(), nil)
	named := call(t, g, "POST", "/v1/chat/completions", officialChat(), map[string]string{PurposeHeader: "extract"})
	again := call(t, g, "POST", "/v1/chat/completions", officialChat(), map[string]string{PurposeHeader: "extract"})
	bind.Release()
	for _, r := range []reply{plain, named, again} {
		if r.status != http.StatusOK {
			t.Fatalf("status %d: %s", r.status, r.body)
		}
		c := decode[completion](t, r)
		if c.Object != "chat.completion" || !strings.HasPrefix(c.ID, "chatcmpl-") || len(c.Choices) != 1 ||
			c.Choices[0].Message.Role != "assistant" || c.Choices[0].FinishReason != "stop" || c.Model != sim.Name {
			t.Fatalf("not a chat completion: %s", r.body)
		}
		if c.Choices[0].Message.Content == "" || c.Usage.PromptTokens == 0 ||
			c.Usage.TotalTokens != c.Usage.PromptTokens+c.Usage.CompletionTokens {
			t.Errorf("content or usage missing: %s", r.body)
		}
	}
	recs := log.Take()
	if len(recs) != 3 {
		t.Fatalf("call log holds %d records, want 3", len(recs))
	}
	wantPurpose := []string{"predict", "mymem.extract", "mymem.extract"}
	for i, rec := range recs {
		ex := rec.Exchange
		if rec.Purpose != wantPurpose[i] || ex.SampleID != "u17#3" || ex.Affinity != "u17" {
			t.Errorf("record %d attributed to purpose %q sample %q affinity %q", i, rec.Purpose, ex.SampleID, ex.Affinity)
		}
		if ex.Attempt != []int{0, 0, 1}[i] {
			t.Errorf("record %d: attempt %d (a repeated request is the next draw)", i, ex.Attempt)
		}
		p := ex.Params
		if p.Temperature == nil || *p.Temperature != 0.1 || p.TopP == nil || *p.TopP != 0.9 || p.MaxTokens != 300 ||
			!slices.Equal(p.Stop, []string{"\n\n\n"}) || p.Seed == nil || *p.Seed != 7 {
			t.Errorf("record %d: sampling parameters not carried: %+v", i, p)
		}
		if rf, _ := p.Extra["response_format"].(map[string]any); rf["type"] != "json_object" {
			t.Errorf("record %d: response_format not carried: %+v", i, p.Extra)
		}
		if len(ex.Messages) != 2 || ex.Messages[1] != (llm.Message{Role: "user", Content: "I moved to Lyon and I love cycling."}) {
			t.Errorf("record %d: messages %+v", i, ex.Messages)
		}
	}
	snap := stack.Snapshot()
	if snap.ByPurpose["predict"].Calls != 1 || snap.ByPurpose["mymem.extract"].Calls != 2 {
		t.Errorf("usage by purpose: %+v", snap.ByPurpose)
	}
}

func TestGatewayRefusesWithoutTheToken(t *testing.T) {
	var calls, embeds atomic.Int32
	model := llm.ModelFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		calls.Add(1)
		return llm.Response{Text: "x"}, nil
	})
	emb := embedFunc(func(ctx context.Context, texts []string) ([][]float32, error) {
		embeds.Add(1)
		return embed.Hash{Dim: 8}.Embed(ctx, texts)
	})
	g := startGateway(t, Options{Model: model, Embedder: emb})
	bind := g.Bind(context.Background(), Scope{})
	defer bind.Release()
	auths := map[string]string{
		"none":           "",
		"wrong":          "Bearer mh-0000",
		"almost":         "Bearer " + g.token[:len(g.token)-1],
		"longer":         "Bearer " + g.token + "0",
		"not bearer":     "Basic " + g.token,
		"bare token":     g.token,
		"lowercase kind": "bearer " + g.token,
	}
	for name, auth := range auths {
		for _, ep := range []struct{ method, path string }{
			{"POST", "/v1/chat/completions"}, {"POST", "/v1/embeddings"}, {"GET", "/v1/models"}, {"GET", "/v1/nowhere"},
		} {
			body := any(officialChat())
			if ep.path == "/v1/embeddings" {
				body = map[string]any{"input": "x"}
			}
			r := call(t, g, ep.method, ep.path, body, map[string]string{"Authorization": auth})
			if r.status != http.StatusUnauthorized {
				t.Errorf("%s %s with %s auth: status %d, want 401", ep.method, ep.path, name, r.status)
				continue
			}
			if e := decode[errorReply](t, r); e.Error.Type != "authentication_error" || e.Error.Message == "" {
				t.Errorf("%s: not an OpenAI error object: %s", name, r.body)
			}
			if bytes.Contains(r.body, []byte(g.token)) {
				t.Errorf("%s: the 401 reply repeats the token", name)
			}
		}
	}
	if n, e := calls.Load(), embeds.Load(); n != 0 || e != 0 {
		t.Fatalf("%d model calls and %d embedding calls reached the model without the token", n, e)
	}
	if r := call(t, g, "POST", "/v1/chat/completions", officialChat(), nil); r.status != http.StatusOK || calls.Load() != 1 {
		t.Fatalf("with the token: status %d, %d calls", r.status, calls.Load())
	}
}

type embedFunc func(ctx context.Context, texts []string) ([][]float32, error)

func (f embedFunc) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return f(ctx, texts)
}

func TestGatewayListensOnLoopbackOnly(t *testing.T) {
	g := startGateway(t, Options{Model: simStack()})
	addr, ok := g.Addr().(*net.TCPAddr)
	if !ok || !addr.IP.IsLoopback() || !addr.IP.Equal(net.IPv4(127, 0, 0, 1)) {
		t.Fatalf("listening on %v, want 127.0.0.1", g.Addr())
	}
	if addr.Port == 0 || !strings.HasPrefix(g.URL(), "http://127.0.0.1:") {
		t.Fatalf("URL %s", g.URL())
	}
	// Every address of this machine that is not loopback must refuse the
	// port. (A machine with no other address has nothing more to check.)
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		ipn, ok := a.(*net.IPNet)
		if !ok || ipn.IP.IsLoopback() || ipn.IP.IsLinkLocalUnicast() {
			continue
		}
		c, err := net.DialTimeout("tcp", net.JoinHostPort(ipn.IP.String(), strconv.Itoa(addr.Port)), time.Second)
		if err == nil {
			c.Close()
			t.Errorf("the gateway's port answers on %s", ipn.IP)
		}
	}
}

func TestGatewayRefusesMalformedRequests(t *testing.T) {
	var calls atomic.Int32
	model := llm.ModelFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		calls.Add(1)
		return llm.Response{Text: "ok"}, nil
	})
	g := startGateway(t, Options{Model: model, MaxBodyBytes: 4096})
	bind := g.Bind(context.Background(), Scope{})
	defer bind.Release()
	with := func(k string, v any) map[string]any {
		b := officialChat()
		b[k] = v
		return b
	}
	msgs := func(m ...any) map[string]any { return with("messages", m) }
	tests := []struct {
		name   string
		body   any
		header map[string]string
		status int
		param  string
		says   string
	}{
		{"not JSON", `{"messages": [`, nil, 400, "", "not a JSON object"},
		{"JSON array", `[1,2]`, nil, 400, "", "not a JSON object"},
		{"JSON null", `null`, nil, 400, "", "not a JSON object"},
		{"no messages", map[string]any{"model": "x"}, nil, 400, "messages", "at least one message"},
		{"n=2", with("n", 2), nil, 400, "n", "one choice per request"},
		{"tools", with("tools", []any{map[string]any{"type": "function", "function": map[string]any{"name": "f"}}}), nil, 400, "tools", "text only"},
		{"tool_choice required", with("tool_choice", "required"), nil, 400, "tool_choice", "not supported"},
		{"logprobs", with("logprobs", true), nil, 400, "logprobs", "log probabilities"},
		{"unknown field", with("temperatur", 0.5), nil, 400, "temperatur", "unknown field"},
		{"temperature a string", with("temperature", "hot"), nil, 400, "temperature", "temperature"},
		{"max_tokens zero", with("max_tokens", 0), nil, 400, "max_tokens", "positive"},
		{"max_tokens disagree", with("max_tokens", 10), nil, 400, "", "differ"},
		{"tool role", msgs(map[string]any{"role": "tool", "content": "x", "tool_call_id": "1"}), nil, 400, "messages", "tool results"},
		{"image part", msgs(map[string]any{"role": "user", "content": []any{map[string]any{"type": "image_url", "image_url": map[string]any{"url": "x"}}}}), nil, 400, "messages", "only text parts"},
		{"participant name", msgs(map[string]any{"role": "user", "content": "x", "name": "bob"}), nil, 400, "messages", "participant names"},
		{"body too large", with("messages", []any{map[string]any{"role": "user", "content": strings.Repeat("x", 5000)}}), nil, 413, "", "over the gateway's limit"},
		{"purpose with a space", officialChat(), map[string]string{PurposeHeader: "fact extract"}, 400, "", PurposeHeader},
		{"purpose with markup", officialChat(), map[string]string{PurposeHeader: "<b>"}, 400, "", PurposeHeader},
		{"unknown scope", officialChat(), map[string]string{ScopeHeader: "feedbeef"}, 409, "", "no harness call in progress"},
		{"wrong path", officialChat(), nil, 404, "", "not served"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := "/v1/chat/completions"
			if tt.name == "wrong path" {
				path = "/v1/completions"
			}
			r := call(t, g, "POST", path, tt.body, tt.header)
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
			e := decode[errorReply](t, r)
			if !strings.Contains(e.Error.Message, tt.says) || e.Error.Type == "" {
				t.Errorf("error %s does not say %q", r.body, tt.says)
			}
			if tt.param != "" && (e.Error.Param == nil || *e.Error.Param != tt.param) {
				t.Errorf("param %v, want %q", e.Error.Param, tt.param)
			}
		})
	}
	if n := calls.Load(); n != 0 {
		t.Fatalf("%d refused requests reached the model", n)
	}
}

func TestGatewayAttributesOnlyWithinABoundCall(t *testing.T) {
	g := startGateway(t, Options{Model: simStack()})
	if r := call(t, g, "POST", "/v1/chat/completions", officialChat(), nil); r.status != http.StatusConflict {
		t.Fatalf("no harness call bound: status %d, want 409", r.status)
	}
	var logA, logB llm.CallLog
	bindA := g.Bind(llm.WithCallLog(context.Background(), &logA), Scope{SampleID: "a"})
	bindB := g.Bind(llm.WithCallLog(context.Background(), &logB), Scope{SampleID: "b"})
	if r := call(t, g, "POST", "/v1/chat/completions", officialChat(), nil); r.status != http.StatusConflict ||
		!strings.Contains(string(r.body), ScopeHeader) {
		t.Fatalf("two calls bound, no scope named: status %d %s", r.status, r.body)
	}
	for _, id := range []string{bindA.ID(), bindB.ID(), bindB.ID()} {
		if r := call(t, g, "POST", "/v1/chat/completions", officialChat(), map[string]string{ScopeHeader: id}); r.status != 200 {
			t.Fatalf("scope %s: status %d %s", id, r.status, r.body)
		}
	}
	bindA.Release()
	bindB.Release()
	if a, b := logA.Take(), logB.Take(); len(a) != 1 || len(b) != 2 || a[0].Exchange.SampleID != "a" || b[1].Exchange.SampleID != "b" {
		t.Fatalf("calls landed in the wrong logs: %d in a, %d in b", len(a), len(b))
	}
	if r := call(t, g, "POST", "/v1/chat/completions", officialChat(), map[string]string{ScopeHeader: bindA.ID()}); r.status != http.StatusConflict {
		t.Fatalf("released scope: status %d, want 409", r.status)
	}
}

func TestGatewayReleaseEndsCallsInFlight(t *testing.T) {
	started := make(chan struct{})
	model := llm.NewMeter(llm.ModelFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		close(started)
		<-ctx.Done()
		return llm.Response{}, ctx.Err()
	}))
	g := startGateway(t, Options{Model: model})
	var log llm.CallLog
	bind := g.Bind(llm.WithCallLog(context.Background(), &log), Scope{})
	got := make(chan reply, 1)
	go func() { got <- call(t, g, "POST", "/v1/chat/completions", officialChat(), nil) }()
	<-started
	bind.Release()
	// Release waited for the call: its record is in the log already.
	if recs := log.Take(); len(recs) != 1 || !recs[0].Failed {
		t.Fatalf("after release the log holds %+v, want the one failed call", recs)
	}
	if err := bind.Err(); !errors.Is(err, context.Canceled) {
		t.Errorf("binding's error %v, want the cancellation", err)
	}
	if r := <-got; r.status != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503: %s", r.status, r.body)
	}
}

func TestGatewayClosesWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	g, err := Start(ctx, Options{Model: simStack(), Method: "m"})
	if err != nil {
		t.Fatal(err)
	}
	addr := g.Addr().String()
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the gateway still listens after its context ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := g.Close(); err != nil {
		t.Fatalf("close after the context ended: %v", err)
	}
	g2 := startGateway(t, Options{Model: simStack()})
	if err := g2.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := net.DialTimeout("tcp", g2.Addr().String(), time.Second); err == nil {
		t.Fatal("the gateway still listens after Close")
	}
}

func TestGatewayStartRefusesBadOptions(t *testing.T) {
	if _, err := Start(context.Background(), Options{Method: "m"}); err == nil {
		t.Error("no model: started")
	}
	for _, name := range []string{"", "my method", "a/b", strings.Repeat("x", 65)} {
		if _, err := Start(context.Background(), Options{Model: simStack(), Method: name}); err == nil {
			t.Errorf("method %q: started", name)
		}
	}
}

func TestGatewayStreamsAnswersAsServerSentEvents(t *testing.T) {
	g := startGateway(t, Options{Model: simStack()})
	bind := g.Bind(context.Background(), Scope{})
	defer bind.Release()
	body := officialChat()
	body["stream"] = true
	body["stream_options"] = map[string]any{"include_usage": true}
	r := call(t, g, "POST", "/v1/chat/completions", body, nil)
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("status %d type %q: %s", r.status, r.header.Get("Content-Type"), r.body)
	}
	events := strings.Split(strings.TrimSpace(string(r.body)), "\n\n")
	if len(events) != 4 || events[3] != "data: [DONE]" {
		t.Fatalf("want content, finish, usage and [DONE] events, got %q", events)
	}
	var text, finish string
	var usage map[string]any
	for _, ev := range events[:3] {
		var c struct {
			Object  string `json:"object"`
			Choices []struct {
				Delta struct {
					Content string `json:"content"`
				} `json:"delta"`
				FinishReason *string `json:"finish_reason"`
			} `json:"choices"`
			Usage map[string]any `json:"usage"`
		}
		data, ok := strings.CutPrefix(ev, "data: ")
		if !ok || json.Unmarshal([]byte(data), &c) != nil || c.Object != "chat.completion.chunk" {
			t.Fatalf("not a chunk event: %q", ev)
		}
		for _, ch := range c.Choices {
			text += ch.Delta.Content
			if ch.FinishReason != nil {
				finish = *ch.FinishReason
			}
		}
		if c.Usage != nil {
			usage = c.Usage
		}
	}
	if text == "" || finish != "stop" || usage["total_tokens"] == nil {
		t.Fatalf("stream text %q finish %q usage %v", text, finish, usage)
	}
}

func TestGatewayEmbeddings(t *testing.T) {
	hash := embed.Hash{Dim: 16}
	g := startGateway(t, Options{Model: simStack(), Embedder: hash, EmbeddingModelName: "hash-16"})
	bind := g.Bind(context.Background(), Scope{})
	defer bind.Release()
	texts := []string{"I love cycling", "Lyon"}
	want, _ := hash.Embed(context.Background(), texts)
	type data struct {
		Object    string          `json:"object"`
		Index     int             `json:"index"`
		Embedding json.RawMessage `json:"embedding"`
	}
	type embeddings struct {
		Object string `json:"object"`
		Model  string `json:"model"`
		Data   []data `json:"data"`
		Usage  struct {
			PromptTokens int `json:"prompt_tokens"`
		} `json:"usage"`
	}
	for _, format := range []string{"float", "base64", ""} {
		body := map[string]any{"input": texts, "model": "text-embedding-3-small"}
		if format != "" {
			body["encoding_format"] = format
		}
		r := call(t, g, "POST", "/v1/embeddings", body, nil)
		if r.status != 200 {
			t.Fatalf("%s: status %d %s", format, r.status, r.body)
		}
		out := decode[embeddings](t, r)
		if out.Object != "list" || out.Model != "hash-16" || len(out.Data) != 2 || out.Usage.PromptTokens == 0 {
			t.Fatalf("%s: %s", format, r.body)
		}
		for i, d := range out.Data {
			var got []float32
			if format == "base64" {
				var s string
				json.Unmarshal(d.Embedding, &s)
				got = decodeBase64(t, s)
			} else if err := json.Unmarshal(d.Embedding, &got); err != nil {
				t.Fatal(err)
			}
			if d.Index != i || d.Object != "embedding" || !slices.Equal(got, want[i]) {
				t.Errorf("%s: vector %d differs from the run's embedder's", format, i)
			}
		}
	}
	if r := call(t, g, "POST", "/v1/embeddings", map[string]any{"input": "x", "dimensions": 1536}, nil); r.status != 400 ||
		!strings.Contains(string(r.body), "gives 16") {
		t.Errorf("dimensions the embedder lacks: %d %s", r.status, r.body)
	}
	if r := call(t, g, "POST", "/v1/embeddings", map[string]any{"input": []int{1, 2}}, nil); r.status != 400 {
		t.Errorf("token arrays: %d %s", r.status, r.body)
	}
	g2 := startGateway(t, Options{Model: simStack()})
	bind2 := g2.Bind(context.Background(), Scope{})
	defer bind2.Release()
	if r := call(t, g2, "POST", "/v1/embeddings", map[string]any{"input": "x"}, nil); r.status != http.StatusNotImplemented {
		t.Errorf("no embedder: %d %s", r.status, r.body)
	}
}

func TestGatewayListsItsModels(t *testing.T) {
	g := startGateway(t, Options{Model: simStack(), ModelName: "qwen3-8b", EmbeddingModelName: "bge-m3"})
	r := call(t, g, "GET", "/v1/models", nil, nil)
	var out struct {
		Object string `json:"object"`
		Data   []struct {
			ID     string `json:"id"`
			Object string `json:"object"`
		} `json:"data"`
	}
	if json.Unmarshal(r.body, &out) != nil || r.status != 200 || out.Object != "list" || len(out.Data) != 2 ||
		out.Data[0].ID != "qwen3-8b" || out.Data[1].ID != "bge-m3" || out.Data[0].Object != "model" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if r := call(t, g, "GET", "/v1/models/qwen3-8b", nil, nil); r.status != 200 {
		t.Errorf("retrieve a listed model: %d", r.status)
	}
	if r := call(t, g, "GET", "/v1/models/gpt-4o", nil, nil); r.status != 404 {
		t.Errorf("retrieve another model: %d", r.status)
	}
}

func TestGatewayChildEnvironment(t *testing.T) {
	const secret = "sk-user-real-key-4242"
	t.Setenv("OPENAI_API_KEY", secret)
	t.Setenv("OPENROUTER_API_KEY", "sk-or-"+secret)
	g := startGateway(t, Options{Model: simStack(), ModelName: "m1", EmbeddingDims: 384})
	env := g.ChildEnviron(append(os.Environ(), "HF_TOKEN=hf_x", "AWS_SECRET_ACCESS_KEY=aws", "PATH_KEEP=1", "NO_PROXY=proxy.example"))
	get := map[string][]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		get[k] = append(get[k], v)
		if strings.Contains(v, secret) {
			t.Errorf("the child's environment holds the user's key in %s", k)
		}
	}
	for _, k := range []string{"OPENAI_BASE_URL", "OPENAI_API_BASE", EnvURL} {
		if !slices.Equal(get[k], []string{g.URL()}) {
			t.Errorf("%s = %v, want the gateway's URL once", k, get[k])
		}
	}
	for _, k := range []string{"OPENAI_API_KEY", EnvToken} {
		if !slices.Equal(get[k], []string{g.token}) {
			t.Errorf("%s = %v, want the gateway's token once", k, get[k])
		}
	}
	for _, k := range []string{"OPENROUTER_API_KEY", "HF_TOKEN", "AWS_SECRET_ACCESS_KEY"} {
		if get[k] != nil {
			t.Errorf("%s reached the child", k)
		}
	}
	if !slices.Equal(get[EnvEmbeddingDims], []string{"384"}) || !slices.Equal(get["OPENAI_MODEL"], []string{"m1"}) {
		t.Errorf("model names and sizes: %v %v", get[EnvEmbeddingDims], get["OPENAI_MODEL"])
	}
	m := g.ChildEnvMap()
	if len(m) != len(g.ChildEnv()) || m["OPENAI_API_KEY"] != g.token || m["OPENAI_BASE_URL"] != g.URL() {
		t.Errorf("ChildEnvMap %v differs from ChildEnv", m)
	}
	if get["PATH_KEEP"] == nil || !slices.Equal(get["NO_PROXY"], []string{"127.0.0.1,localhost"}) || get["MEM0_TELEMETRY"][0] != "False" {
		t.Errorf("environment: %v", get)
	}
}

// TestGatewayOverAFaultyEndpoint runs the gateway over a real-endpoint
// stack talking to a fake OpenAI server: requests reach it as the child
// sent them, with the user's key; faults come back as OpenAI errors that
// never hold the key; every call, failed or not, is in the call record.
func TestGatewayOverAFaultyEndpoint(t *testing.T) {
	const secret = "sk-user-real-key-4242"
	t.Setenv("OPENAI_API_KEY", secret)
	up := newUpstream(t, secret)
	stack, err := llm.OpenStack(llm.StackConfig{
		BaseURLs: []string{up.URL() + "/v1"}, Model: "upstream-model", APIKey: os.Getenv("OPENAI_API_KEY"),
		Timeout: 300 * time.Millisecond, MaxRetries: 2, BreakAfter: 1000,
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() },
	})
	if err != nil {
		t.Fatal(err)
	}
	g := startGateway(t, Options{Model: stack, Method: "mem0"})
	var log llm.CallLog
	bind := g.Bind(llm.WithCallLog(context.Background(), &log), Scope{SampleID: "u1#0", Affinity: "u1"})
	tests := []struct {
		fault  string
		status int
		code   string
	}{
		{"", 200, ""},
		{"429", 429, "rate_limit_exceeded"},
		{"500", 502, "backbone_error"},
		{"timeout", 504, "timeout"},
		{"garbage", 502, "backbone_error"},
	}
	var bodies [][]byte
	for _, tt := range tests {
		up.fault.Store(tt.fault)
		r := call(t, g, "POST", "/v1/chat/completions", officialChat(), map[string]string{PurposeHeader: "extract"})
		bodies = append(bodies, r.body)
		if r.status != tt.status {
			t.Errorf("fault %q: status %d, want %d: %s", tt.fault, r.status, tt.status, r.body)
			continue
		}
		if tt.status == 200 {
			c := decode[completion](t, r)
			if c.Choices[0].Message.Content != "<think>hm</think>{\"facts\": [\"lives in Lyon\"]}" || c.Model != "upstream-model" ||
				c.Usage.PromptTokens != 11 || c.Usage.CompletionTokens != 5 {
				t.Errorf("reply not passed on as the endpoint sent it: %s", r.body)
			}
			continue
		}
		if r.header.Get("X-Should-Retry") != "false" {
			t.Errorf("fault %q: the reply lets the client retry what the stack already retried", tt.fault)
		}
		if e := decode[errorReply](t, r); e.Error.Code == nil || *e.Error.Code != tt.code || e.Error.Message == "" {
			t.Errorf("fault %q: error %s, want code %s", tt.fault, r.body, tt.code)
		}
	}
	bind.Release()
	// What the endpoint received is what the child sent (the model named
	// is the run's, not the child's).
	got := up.first()
	want := map[string]any{
		"model": "upstream-model", "temperature": 0.1, "top_p": 0.9, "max_tokens": 300.0, "seed": 7.0,
		"stop": []any{"\n\n\n"}, "response_format": map[string]any{"type": "json_object"},
	}
	for k, v := range want {
		gj, _ := json.Marshal(got[k])
		wj, _ := json.Marshal(v)
		if !bytes.Equal(gj, wj) {
			t.Errorf("upstream got %s = %s, want %s", k, gj, wj)
		}
	}
	if _, ok := got["store"]; ok {
		t.Error("the client's bookkeeping field store reached the endpoint")
	}
	recs := log.Take()
	if len(recs) != len(tests) {
		t.Fatalf("%d calls recorded, want %d", len(recs), len(tests))
	}
	for i, rec := range recs {
		if rec.Purpose != "mem0.extract" || rec.Failed != (i > 0) || rec.Exchange.SampleID != "u1#0" {
			t.Errorf("record %d: purpose %q failed %v sample %q", i, rec.Purpose, rec.Failed, rec.Exchange.SampleID)
		}
	}
	if err := bind.Err(); !llm.IsRateLimit(err) {
		t.Errorf("binding's error %v, want the first failure (the 429)", err)
	}
	if recs[1].Retries != 2 {
		t.Errorf("429 record: %d retries, want 2", recs[1].Retries)
	}
	recJSON, _ := json.Marshal(recs)
	exJSON := []byte{}
	for _, rec := range recs {
		b, _ := json.Marshal(rec.Exchange)
		exJSON = append(exJSON, b...)
	}
	for where, b := range map[string][]byte{
		"replies": bytes.Join(bodies, nil), "call record": append(recJSON, exJSON...),
		"child env": []byte(strings.Join(g.ChildEnviron(os.Environ()), "\n")),
	} {
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("the user's key is in the %s", where)
		}
	}
	if up.wrongKey.Load() != 0 {
		t.Errorf("%d upstream requests came without the user's key", up.wrongKey.Load())
	}
}

func decodeBase64(t *testing.T, s string) []float32 {
	t.Helper()
	v, err := decodeVector(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

var errShort = errors.New("base64 vector: length not a multiple of 4")

// TestGatewayPythonStdlibClient runs a Python child that knows nothing but
// the environment the harness gives it and urllib.
func TestGatewayPythonStdlibClient(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH: install Python 3 to run the Python client test")
	}
	const secret = "sk-user-real-key-4242"
	t.Setenv("OPENAI_API_KEY", secret)
	stack := simStack()
	g := startGateway(t, Options{Model: stack, Embedder: embed.Hash{Dim: 8}, Method: "pymem", ModelName: "sim"})
	var log llm.CallLog
	bind := g.Bind(llm.WithCallLog(context.Background(), &log), Scope{SampleID: "u3#1", Affinity: "u3"})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, filepath.Join("testdata", "stdlib_client.py"))
	cmd.Env = g.ChildEnviron(os.Environ())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	bind.Release()
	if err != nil {
		t.Fatalf("python client: %v\n%s", err, stderr.String())
	}
	if bytes.Contains(stdout, []byte(secret)) {
		t.Fatal("the Python child saw the user's key")
	}
	var out struct {
		Models     [2]json.RawMessage `json:"models"`
		Chat       [2]json.RawMessage `json:"chat"`
		Embeddings [2]json.RawMessage `json:"embeddings"`
		NoKey      [2]json.RawMessage `json:"no_key"`
		BadJSON    [2]json.RawMessage `json:"bad_json"`
	}
	if err := json.Unmarshal(stdout, &out); err != nil {
		t.Fatalf("python output: %v\n%s", err, stdout)
	}
	status := func(raw json.RawMessage) string { return string(raw) }
	if status(out.Models[0]) != "200" || status(out.Chat[0]) != "200" || status(out.Embeddings[0]) != "200" ||
		status(out.NoKey[0]) != "401" || status(out.BadJSON[0]) != "400" {
		t.Fatalf("statuses: models %s chat %s embeddings %s no key %s bad json %s\n%s",
			out.Models[0], out.Chat[0], out.Embeddings[0], out.NoKey[0], out.BadJSON[0], stdout)
	}
	recs := log.Take()
	if len(recs) != 1 || recs[0].Purpose != "pymem.note" || recs[0].Exchange.SampleID != "u3#1" || recs[0].Exchange.Affinity != "u3" {
		t.Fatalf("call record %+v, want the one chat call attributed to pymem.note for u3#1", recs)
	}
	var c completion
	if err := json.Unmarshal(out.Chat[1], &c); err != nil || c.Choices[0].Message.Content != recs[0].Exchange.Text ||
		(c.Choices[0].Message.Content != "Yes" && c.Choices[0].Message.Content != "No") {
		t.Errorf("chat reply %s, want the sim's answer to the Yes/No question (%q)", out.Chat[1], recs[0].Exchange.Text)
	}
	if p := recs[0].Exchange.Params; p.Temperature == nil || *p.Temperature != 0 || p.MaxTokens != 16 {
		t.Errorf("sampling parameters as recorded: %+v", p)
	}
	if n := stack.Snapshot().Total.Calls; n != 1 {
		t.Fatalf("meter counts %d calls, want 1 (the refused ones never reach the model)", n)
	}
}

// TestGatewayCeilingStopsTheRun: a spending ceiling reached under a child's
// call answers 429 (the child should not retry at once) and stays
// findable as llm.ErrStopRun in the binding, for the harness to stop the run.
func TestGatewayCeilingStopsTheRun(t *testing.T) {
	model := llm.ModelFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		return llm.Response{}, fmt.Errorf("budget: %w", llm.ErrCeiling)
	})
	g := startGateway(t, Options{Model: model})
	bind := g.Bind(context.Background(), Scope{})
	r := call(t, g, "POST", "/v1/chat/completions", officialChat(), nil)
	bind.Release()
	if e := decode[errorReply](t, r); r.status != http.StatusTooManyRequests || e.Error.Code == nil || *e.Error.Code != "run_stopped" {
		t.Fatalf("status %d %s, want 429 run_stopped", r.status, r.body)
	}
	if !errors.Is(bind.Err(), llm.ErrStopRun) {
		t.Fatalf("binding's error %v does not stop the run", bind.Err())
	}
}
