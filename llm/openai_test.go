package llm

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func ptr[T any](v T) *T { return &v }

func TestOpenAIRequestAndResponse(t *testing.T) {
	body := `{"id":"x","object":"chat.completion","created":1,"model":"served-model",` +
		`"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant",` +
		`"content":"<think>inline why</think>\n Answer: Yes ","reasoning_content":"server why"}}],` +
		`"usage":{"prompt_tokens":120,"completion_tokens":7,"total_tokens":127,"prompt_tokens_details":{"cached_tokens":64}}}`
	f := newFakeServer(t, func(int, map[string]any) reply { return reply{body: body} })
	o := mustOpenAI(t, f.BaseURL(), "sk-test", time.Second)

	req := Request{
		Purpose: "predict",
		Messages: []Message{
			{Role: "system", Content: "You predict."},
			{Role: "user", Content: "Will the user like it?"},
		},
		Params: Params{
			Temperature:     ptr(0.0),
			TopP:            ptr(0.95),
			MaxTokens:       64,
			Seed:            ptr(7),
			Stop:            []string{"\n\n"},
			ReasoningEffort: "low",
			Extra: map[string]any{
				"chat_template_kwargs": map[string]any{"enable_thinking": false},
				"repetition_penalty":   1.05,
			},
		},
	}
	resp, err := o.Generate(context.Background(), req)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}

	reqs := f.requests()
	if len(reqs) != 1 {
		t.Fatalf("server saw %d requests, want 1", len(reqs))
	}
	wantBody := map[string]any{
		"model": "test-model",
		"messages": []any{
			map[string]any{"role": "system", "content": "You predict."},
			map[string]any{"role": "user", "content": "Will the user like it?"},
		},
		"temperature":          0.0,
		"top_p":                0.95,
		"max_tokens":           64.0,
		"seed":                 7.0,
		"stop":                 []any{"\n\n"},
		"reasoning_effort":     "low",
		"chat_template_kwargs": map[string]any{"enable_thinking": false},
		"repetition_penalty":   1.05,
	}
	if d := cmp.Diff(wantBody, reqs[0].body); d != "" {
		t.Errorf("request body (-want +got):\n%s", d)
	}
	if got := reqs[0].header.Get("Authorization"); got != "Bearer sk-test" {
		t.Errorf("Authorization = %q", got)
	}

	want := Response{
		Text: "Answer: Yes",
		// The content as sent, for the sources' own parsers.
		Content:   "<think>inline why</think>\n Answer: Yes ",
		Reasoning: "server why\ninline why",
		Usage:     Usage{PromptTokens: 120, CompletionTokens: 7, CachedTokens: 64},
		Model:     "served-model",
		Endpoint:  f.BaseURL(),
	}
	if resp.Latency <= 0 {
		t.Errorf("Latency = %v, want > 0", resp.Latency)
	}
	resp.Latency = 0
	if d := cmp.Diff(want, resp); d != "" {
		t.Errorf("response (-want +got):\n%s", d)
	}
}

func TestOpenAIOmitsUnsetParams(t *testing.T) {
	f := newFakeServer(t, func(int, map[string]any) reply { return okReply("ok") })
	o := mustOpenAI(t, f.BaseURL(), "", time.Second)
	if _, err := o.Generate(context.Background(), userMsg("p", "hi")); err != nil {
		t.Fatal(err)
	}
	body := f.requests()[0].body
	for _, k := range []string{"temperature", "top_p", "max_tokens", "seed", "stop", "reasoning_effort"} {
		if _, ok := body[k]; ok {
			t.Errorf("unset param %q was sent: %v", k, body[k])
		}
	}
	if h := f.requests()[0].header.Get("Authorization"); h != "" {
		t.Errorf("empty key sent Authorization %q", h)
	}
}

func TestOpenAIReasoningModelUsesMaxCompletionTokens(t *testing.T) {
	f := newFakeServer(t, func(int, map[string]any) reply { return okReply("ok") })
	o, err := NewOpenAI(EndpointConfig{BaseURL: f.BaseURL(), Model: "o3-mini"})
	if err != nil {
		t.Fatal(err)
	}
	req := userMsg("p", "hi")
	req.Params.MaxTokens = 50
	if _, err := o.Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	body := f.requests()[0].body
	if body["max_completion_tokens"] != 50.0 || body["max_tokens"] != nil {
		t.Errorf("body = %v, want max_completion_tokens only", body)
	}
}

func TestOpenAIReasoningField(t *testing.T) {
	body := `{"model":"m","choices":[{"message":{"role":"assistant","content":"B","reasoning":"vllm why"}}],"usage":{}}`
	f := newFakeServer(t, func(int, map[string]any) reply { return reply{body: body} })
	resp, err := mustOpenAI(t, f.BaseURL(), "", time.Second).Generate(context.Background(), userMsg("p", "q"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "B" || resp.Reasoning != "vllm why" {
		t.Errorf("got text %q reasoning %q", resp.Text, resp.Reasoning)
	}
}

func TestOpenAIErrorClassification(t *testing.T) {
	future := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	tests := []struct {
		name       string
		rep        reply
		kind       ErrorKind
		status     int
		retryable  bool
		retryAfter time.Duration // minimum expected
	}{
		{"429 seconds", reply{status: 429, header: map[string]string{"Retry-After": "1"}, body: errJSON("slow down")}, KindHTTP, 429, true, time.Second},
		{"429 http date", reply{status: 429, header: map[string]string{"Retry-After": future}, body: errJSON("slow down")}, KindHTTP, 429, true, 80 * time.Second},
		{"429 ms header", reply{status: 429, header: map[string]string{"Retry-After-Ms": "250"}, body: errJSON("x")}, KindHTTP, 429, true, 250 * time.Millisecond},
		{"408", reply{status: 408, body: errJSON("timeout")}, KindHTTP, 408, true, 0},
		{"500", reply{status: 500, body: errJSON("boom")}, KindHTTP, 500, true, 0},
		{"502 html", reply{status: 502, body: "<html>bad gateway</html>"}, KindHTTP, 502, true, 0},
		{"503", reply{status: 503, header: map[string]string{"Retry-After": "3"}, body: errJSON("overloaded")}, KindHTTP, 503, true, 3 * time.Second},
		{"504", reply{status: 504, body: ""}, KindHTTP, 504, true, 0},
		{"400", reply{status: 400, body: errJSON("bad request")}, KindHTTP, 400, false, 0},
		{"401", reply{status: 401, body: errJSON("no key")}, KindHTTP, 401, false, 0},
		{"403", reply{status: 403, body: errJSON("forbidden")}, KindHTTP, 403, false, 0},
		{"404", reply{status: 404, body: errJSON("no model")}, KindHTTP, 404, false, 0},
		{"422", reply{status: 422, body: errJSON("unprocessable")}, KindHTTP, 422, false, 0},
		{"malformed 200", reply{body: `{"choices":[{"message":`}, KindDecode, 0, true, 0},
		{"no choices", reply{body: `{"model":"m","choices":[]}`}, KindDecode, 0, true, 0},
		{"slow", reply{delay: 2 * time.Second, body: chatJSON("m", "late", 1, 1, 0)}, KindTimeout, 0, true, 0},
		{"connection reset", reply{reset: true}, KindTransport, 0, true, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeServer(t, func(int, map[string]any) reply { return tc.rep })
			o := mustOpenAI(t, f.BaseURL(), "k", 150*time.Millisecond)
			_, err := o.Generate(context.Background(), userMsg("p", "q"))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not *Error", err, err)
			}
			if e.Kind != tc.kind || e.StatusCode != tc.status || e.Retryable != tc.retryable {
				t.Errorf("got kind=%v status=%d retryable=%v, want %v %d %v (%v)",
					e.Kind, e.StatusCode, e.Retryable, tc.kind, tc.status, tc.retryable, err)
			}
			if IsRetryable(err) != tc.retryable {
				t.Errorf("IsRetryable = %v", !tc.retryable)
			}
			if e.RetryAfter < tc.retryAfter || (tc.retryAfter == 0 && e.RetryAfter != 0) {
				t.Errorf("RetryAfter = %v, want >= %v", e.RetryAfter, tc.retryAfter)
			}
			if e.Endpoint != f.BaseURL() {
				t.Errorf("Endpoint = %q", e.Endpoint)
			}
		})
	}
}

func TestOpenAICanceledIsPermanent(t *testing.T) {
	f := newFakeServer(t, func(int, map[string]any) reply { return reply{delay: 2 * time.Second} })
	o := mustOpenAI(t, f.BaseURL(), "", time.Minute)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := o.Generate(ctx, userMsg("p", "q"))
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindCanceled || e.Retryable {
		t.Fatalf("err = %v, want a permanent cancellation", err)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err does not wrap the context's error: %v", err)
	}
}

func TestOpenAIRefusesReservedExtra(t *testing.T) {
	f := newFakeServer(t, func(int, map[string]any) reply { return okReply("ok") })
	req := userMsg("p", "q")
	req.Params.Extra = map[string]any{"model": "other"}
	_, err := mustOpenAI(t, f.BaseURL(), "", time.Second).Generate(context.Background(), req)
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindRequest || e.Retryable {
		t.Fatalf("err = %v, want a permanent request error", err)
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("server saw %d requests, want 0", n)
	}
}

func TestNewOpenAIValidates(t *testing.T) {
	for _, cfg := range []EndpointConfig{
		{Model: "m"},
		{BaseURL: "localhost:8000", Model: "m"},
		{BaseURL: "http://localhost:8000/v1"},
	} {
		if _, err := NewOpenAI(cfg); err == nil {
			t.Errorf("NewOpenAI(%v) succeeded", cfg)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		h    map[string]string
		want time.Duration
	}{
		{nil, 0},
		{map[string]string{"Retry-After": "2"}, 2 * time.Second},
		{map[string]string{"Retry-After": "0.5"}, 500 * time.Millisecond},
		{map[string]string{"Retry-After": "-3"}, 0},
		{map[string]string{"Retry-After": "soon"}, 0},
		{map[string]string{"Retry-After": now.Add(10 * time.Second).Format(http.TimeFormat)}, 10 * time.Second},
		{map[string]string{"Retry-After": now.Add(-10 * time.Second).Format(http.TimeFormat)}, 0},
		{map[string]string{"Retry-After-Ms": "1500", "Retry-After": "9"}, 1500 * time.Millisecond},
	}
	for _, tc := range tests {
		h := http.Header{}
		for k, v := range tc.h {
			h.Set(k, v)
		}
		if got := parseRetryAfter(h, now); got != tc.want {
			t.Errorf("parseRetryAfter(%v) = %v, want %v", tc.h, got, tc.want)
		}
	}
}

func TestSanitizeURL(t *testing.T) {
	tests := map[string]string{
		"http://localhost:8000/v1/":                  "http://localhost:8000/v1",
		"https://user:pass@api.example.com/v1?k=s#f": "https://api.example.com/v1",
		"http://[::1]:80/v1":                         "http://[::1]:80/v1",
		"%zz":                                        "[invalid-url]",
	}
	for in, want := range tests {
		if got := SanitizeURL(in); got != want {
			t.Errorf("SanitizeURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOpenAIReleaseRequestShape is the request the PraMem release's
// practice client sends (model, one user message, max_completion_tokens):
// a cap carried in the extra body replaces max_tokens, and no stream or
// sampling field appears.
func TestOpenAIReleaseRequestShape(t *testing.T) {
	f := newFakeServer(t, func(int, map[string]any) reply { return okReply("ok") })
	o, err := NewOpenAI(EndpointConfig{BaseURL: f.BaseURL(), Model: "gpt-oss-120b"})
	if err != nil {
		t.Fatal(err)
	}
	req := userMsg("pramem.trial", "hi")
	req.Params.MaxTokens = 16000
	req.Params.Extra = map[string]any{"max_completion_tokens": 16000}
	if _, err := o.Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	body := f.requests()[0].body
	var keys []string
	for k := range body {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if got := strings.Join(keys, ","); got != "max_completion_tokens,messages,model" || body["max_completion_tokens"] != 16000.0 {
		t.Errorf("body keys %s (%v), want max_completion_tokens,messages,model", got, body)
	}
}
