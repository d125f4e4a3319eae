package llm

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestBreakerTripsOnConsecutiveConnectionFailures(t *testing.T) {
	var calls atomic.Int64
	refused := &Error{Kind: KindTransport, Retryable: true, Endpoint: "http://x", msg: "dial tcp: connection refused"}
	down := ModelFunc(func(ctx context.Context, req Request) (Response, error) {
		calls.Add(1)
		return Response{}, refused
	})
	b := WithBreaker(down, "http://x", 3)
	for i := 1; i <= 5; i++ {
		_, err := b.Generate(context.Background(), Request{})
		tripped := errors.Is(err, ErrEndpointDown)
		if tripped != (i >= 3) {
			t.Fatalf("call %d: err = %v; want endpoint down from the 3rd failure on", i, err)
		}
		if tripped && IsRetryable(err) {
			t.Fatalf("call %d: endpoint-down error is retryable", i)
		}
	}
	if calls.Load() != 3 {
		t.Errorf("inner calls = %d; a tripped breaker must not call the endpoint", calls.Load())
	}
	if !strings.Contains(refused.Error(), "connection refused") {
		t.Fatal("test error lost its text")
	}
}

func TestBreakerIgnoresHTTPErrorsAndResetsOnSuccess(t *testing.T) {
	fail := true
	m := ModelFunc(func(ctx context.Context, req Request) (Response, error) {
		if req.Purpose == "ok" {
			return Response{Text: "fine"}, nil
		}
		if fail {
			return Response{}, &Error{Kind: KindTransport, Retryable: true}
		}
		return Response{}, &Error{Kind: KindHTTP, StatusCode: 500, Retryable: true}
	})
	b := WithBreaker(m, "e", 2)
	b.Generate(context.Background(), Request{})
	b.Generate(context.Background(), Request{Purpose: "ok"}) // resets
	if _, err := b.Generate(context.Background(), Request{}); errors.Is(err, ErrEndpointDown) {
		t.Fatal("tripped although a success came between the failures")
	}
	fail = false
	for range 5 {
		if _, err := b.Generate(context.Background(), Request{}); errors.Is(err, ErrEndpointDown) {
			t.Fatal("HTTP errors tripped the breaker; the server is there")
		}
	}
}

func TestProbe(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/ok/v1/models", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"data":[{"id":"m1"},{"id":"m2"}]}`)
	})
	mux.HandleFunc("/key/v1/models", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer sk-secret" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		io.WriteString(w, `{"data":[]}`)
	})
	mux.HandleFunc("/boom/v1/models", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "broken", http.StatusBadGateway)
	})
	srv := httptest.NewServer(mux) // /nolist/ answers 404
	defer srv.Close()
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + l.Addr().String() + "/v1"
	l.Close()

	tests := []struct {
		name, url, key, model string
		errHas, warnHas       string
	}{
		{"listed", srv.URL + "/ok/v1", "", "m1", "", ""},
		{"not listed", srv.URL + "/ok/v1", "", "m3", "", `does not list model "m3"`},
		{"no list", srv.URL + "/nolist/v1", "", "m1", "", "has no model list"},
		{"bad key", srv.URL + "/key/v1", "sk-wrong", "m1", "rejected the API key", ""},
		{"good key", srv.URL + "/key/v1", "sk-secret", "m1", "", ""},
		{"server error", srv.URL + "/boom/v1", "", "m1", "HTTP 502", ""},
		{"unreachable", dead, "sk-secret", "m1", "connection refused", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := probe(context.Background(), nil, tt.url, tt.key, tt.model, 0, time.Millisecond, 50*time.Millisecond)
			switch {
			case tt.errHas != "":
				if err == nil || !strings.Contains(err.Error(), tt.errHas) {
					t.Fatalf("err = %v; want one containing %q", err, tt.errHas)
				}
				if tt.key != "" && strings.Contains(err.Error(), tt.key) {
					t.Fatalf("error leaks the key: %v", err)
				}
			case err != nil:
				t.Fatalf("err = %v", err)
			case !strings.Contains(res.Warning, tt.warnHas) || (tt.warnHas == "") != (res.Warning == ""):
				t.Fatalf("warning = %q; want %q", res.Warning, tt.warnHas)
			}
		})
	}
}

// A server that fails GET /models transiently (HTTP 500 and 503, a reset
// connection, an answer slower than the attempt's share of the timeout)
// passes once it recovers; one that keeps failing fails after a bounded few
// attempts, naming the last cause. A 401 is not retried.
func TestProbeRetriesTransientFailures(t *testing.T) {
	var calls atomic.Int64
	fail := map[string][]string{
		"/flaky500/v1/models": {"500", "503", "ok"},
		"/reset/v1/models":    {"reset", "ok"},
		"/slow/v1/models":     {"hang", "ok"},
		"/down/v1/models":     {"500", "500", "500", "500", "500", "500", "500", "500", "500", "500", "500", "500", "500", "500", "500", "500"},
		"/key/v1/models":      {"401", "ok"},
	}
	var mu sync.Mutex
	seen := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		mu.Lock()
		plan := fail[r.URL.Path]
		i := seen[r.URL.Path]
		seen[r.URL.Path]++
		mu.Unlock()
		step := "ok"
		if i < len(plan) {
			step = plan[i]
		}
		switch step {
		case "ok":
			io.WriteString(w, `{"data":[{"id":"m1"}]}`)
		case "reset":
			c, _, _ := w.(http.Hijacker).Hijack()
			c.Close()
		case "hang":
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		case "401":
			http.Error(w, "no", http.StatusUnauthorized)
		default:
			http.Error(w, "overloaded", map[string]int{"500": 500, "503": 503}[step])
		}
	}))
	defer srv.Close()
	for _, tt := range []struct {
		path     string
		errHas   string
		attempts int
	}{
		{"/flaky500", "", 3},
		{"/reset", "", 2},
		{"/slow", "", 2},
		{"/down", "HTTP 500", 0},
		{"/key", "rejected the API key", 1},
	} {
		mu.Lock()
		before := seen[tt.path+"/v1/models"]
		mu.Unlock()
		_, err := probe(context.Background(), nil, srv.URL+tt.path+"/v1", "", "m1", 4*time.Second, 5*time.Millisecond, 2500*time.Millisecond)
		mu.Lock()
		n := seen[tt.path+"/v1/models"] - before
		mu.Unlock()
		switch {
		case tt.errHas == "" && err != nil:
			t.Errorf("%s: %v; want a pass after the failures", tt.path, err)
		case tt.errHas != "" && (err == nil || !strings.Contains(err.Error(), tt.errHas)):
			t.Errorf("%s: err %v; want one naming %q", tt.path, err, tt.errHas)
		case tt.attempts > 0 && n != tt.attempts:
			t.Errorf("%s: %d attempts, want %d", tt.path, n, tt.attempts)
		case tt.attempts == 0 && (n < 2 || n > 16):
			t.Errorf("%s: %d attempts; want a few, bounded", tt.path, n)
		}
		if tt.path == "/down" && err != nil && !strings.Contains(err.Error(), "attempts") {
			t.Errorf("%s: error does not say it retried: %v", tt.path, err)
		}
	}
}
