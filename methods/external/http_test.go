package external

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/predict"
)

// fakeService is a method served over HTTP that answers every predict
// with its own answer, or misbehaves as fault says.
func fakeService(t *testing.T, fault string) *httptest.Server {
	t.Helper()
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     int64  `json:"id"`
			Method string `json:"method"`
		}
		b, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(b, &req); err != nil || r.Method != http.MethodPost {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		result := map[string]any{}
		switch req.Method {
		case MethodInit:
			result = map[string]any{"protocol_version": "1.0", "name": "svc", "version": "3"}
		case MethodSave:
			result = map[string]any{"state": 1}
		case MethodPredict:
			switch fault {
			case "status":
				http.Error(w, "overloaded", http.StatusServiceUnavailable)
				return
			case "hang":
				select {
				case <-stop:
				case <-r.Context().Done():
				}
				return
			case "wrongid":
				req.ID++
			case "garbage":
				w.Write([]byte("<html>hello</html>"))
				return
			}
			result = map[string]any{"answer": "No"}
		}
		json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	}))
	t.Cleanup(func() { close(stop); srv.Close() })
	return srv
}

func TestExternalHTTPService(t *testing.T) {
	for _, tc := range []struct{ fault, want string }{
		{"", ""},
		{"status", "HTTP 503 Service Unavailable"},
		{"hang", "no answer to predict within 300ms (the method's timeout)"},
		{"wrongid", "answers id 6, not the request's id 5"},
		{"garbage", "not a JSON-RPC response"},
	} {
		t.Run("fault="+tc.fault, func(t *testing.T) {
			srv := fakeService(t, tc.fault)
			m, err := New(predict.Spec{Name: "svc", Kind: Kind, Options: map[string]any{"url": srv.URL, "timeout": "300ms"}})
			if err != nil {
				t.Fatal(err)
			}
			x := m.(*Method)
			defer x.Close()
			d, err := x.Start(context.Background(), Launch{})
			if err != nil {
				t.Fatal(err)
			}
			if d.URL != srv.URL || d.Version != "3" {
				t.Errorf("manifest entry %+v", d)
			}
			start := time.Now()
			out, err := runOne(context.Background(), x, "")
			if tc.fault == "" {
				if err != nil || !out.Valid || out.Pred != "0" {
					t.Errorf("%+v, %v", out, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "external method svc ("+srv.URL+")") {
				t.Fatalf("error %v, want one naming the service and %q", err, tc.want)
			}
			if !errors.Is(err, llm.ErrStopRun) {
				t.Errorf("a broken service does not stop the run: %v", err)
			}
			if time.Since(start) > 10*time.Second {
				t.Errorf("the failure took %s", time.Since(start))
			}
		})
	}
}
