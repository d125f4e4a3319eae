package llm

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
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
			res, err := Probe(context.Background(), nil, tt.url, tt.key, tt.model, 0)
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
