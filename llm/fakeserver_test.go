package llm

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// reply is what the fake server sends for one request.
type reply struct {
	status int
	header map[string]string
	body   string
	delay  time.Duration // waits this long (or until the client gives up)
	reset  bool          // drops the connection without answering
}

// seen is one request the fake server received.
type seen struct {
	n      int
	body   map[string]any
	header http.Header
}

// fakeServer is an OpenAI-compatible /chat/completions endpoint whose answers
// a test scripts with handle (n counts requests from 0).
type fakeServer struct {
	*httptest.Server
	handle func(n int, body map[string]any) reply

	mu   sync.Mutex
	reqs []seen
}

func newFakeServer(t testing.TB, handle func(n int, body map[string]any) reply) *fakeServer {
	t.Helper()
	f := &fakeServer{handle: handle}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

// BaseURL returns the API root clients should use.
func (f *fakeServer) BaseURL() string { return f.Server.URL + "/v1" }

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	n := len(f.reqs)
	f.reqs = append(f.reqs, seen{n: n, body: body, header: r.Header.Clone()})
	f.mu.Unlock()

	rep := f.handle(n, body)
	if rep.reset {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
				return
			}
		}
	}
	if rep.delay > 0 {
		select {
		case <-time.After(rep.delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, v := range rep.header {
		w.Header().Set(k, v)
	}
	if rep.status == 0 {
		rep.status = http.StatusOK
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rep.status)
	io.WriteString(w, rep.body)
}

// requests returns a copy of what the server has received.
func (f *fakeServer) requests() []seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seen(nil), f.reqs...)
}

// chatJSON renders a chat completion body.
func chatJSON(model, content string, prompt, completion, cached int) string {
	b, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": model,
		"choices": []any{map[string]any{
			"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content},
		}},
		"usage": map[string]any{
			"prompt_tokens": prompt, "completion_tokens": completion,
			"total_tokens":          prompt + completion,
			"prompt_tokens_details": map[string]any{"cached_tokens": cached},
		},
	})
	return string(b)
}

// errJSON renders an OpenAI-style error body.
func errJSON(msg string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "test"}})
	return string(b)
}

// okReply answers with content and fixed usage.
func okReply(content string) reply { return reply{body: chatJSON("test-model", content, 10, 2, 0)} }

// sleepRecorder is a Sleep hook that records waits and sleeps at most cap.
type sleepRecorder struct {
	mu    sync.Mutex
	waits []time.Duration
	cap   time.Duration
}

func (s *sleepRecorder) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return sleepCtx(ctx, min(d, s.cap))
}

func (s *sleepRecorder) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

// userMsg builds a one-message request.
func userMsg(purpose, content string) Request {
	return Request{Purpose: purpose, Messages: []Message{{Role: "user", Content: content}}}
}

// mustOpenAI builds a client against f.
func mustOpenAI(t testing.TB, baseURL, key string, timeout time.Duration) *OpenAI {
	t.Helper()
	o, err := NewOpenAI(EndpointConfig{BaseURL: baseURL, Model: "test-model", APIKey: key, Timeout: timeout})
	if err != nil {
		t.Fatalf("NewOpenAI: %v", err)
	}
	return o
}
