package gateway

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// upstream is a fake OpenAI-compatible endpoint with faults: fault ""
// answers, "429" is overloaded, "500" fails, "timeout" answers too late,
// "garbage" sends a body that is not JSON.
type upstream struct {
	srv      *httptest.Server
	fault    atomic.Value
	wrongKey atomic.Int32
	mu       sync.Mutex
	bodies   []map[string]any
}

func newUpstream(t *testing.T, key string) *upstream {
	u := &upstream{}
	u.fault.Store("")
	u.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+key {
			u.wrongKey.Add(1)
		}
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		json.Unmarshal(b, &body)
		u.mu.Lock()
		u.bodies = append(u.bodies, body)
		u.mu.Unlock()
		switch u.fault.Load().(string) {
		case "429":
			w.Header().Set("Retry-After", "1")
			http.Error(w, `{"error":{"message":"slow down"}}`, http.StatusTooManyRequests)
		case "500":
			http.Error(w, `{"error":{"message":"boom"}}`, http.StatusInternalServerError)
		case "timeout":
			select {
			case <-r.Context().Done():
			case <-time.After(3 * time.Second):
			}
		case "garbage":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"choices": [ {"message": `)
		default:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":"x","object":"chat.completion","model":"upstream-model",`+
				`"choices":[{"index":0,"message":{"role":"assistant","content":"<think>hm</think>{\"facts\": [\"lives in Lyon\"]}"},"finish_reason":"stop"}],`+
				`"usage":{"prompt_tokens":11,"completion_tokens":5,"total_tokens":16}}`)
		}
	}))
	t.Cleanup(u.srv.Close)
	return u
}

func (u *upstream) URL() string { return u.srv.URL }

// first is the first request body the endpoint received.
func (u *upstream) first() map[string]any {
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.bodies) == 0 {
		return nil
	}
	return u.bodies[0]
}

// decodeVector reads OpenAI's base64 form of a vector.
func decodeVector(s string) ([]float32, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	if len(b)%4 != 0 {
		return nil, errShort
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}
