package embed_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/llm/embed"
)

// fakeServer answers /embeddings with vector [len(text), index-in-request],
// listing the data in reverse order to check that the client reorders it.
type fakeServer struct {
	mu      sync.Mutex
	batches [][]string
	auth    []string
	fail    bool
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/embeddings" {
		http.NotFound(w, r)
		return
	}
	var req struct {
		Input []string `json:"input"`
		Model string   `json:"model"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.batches = append(f.batches, req.Input)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	fail := f.fail
	f.mu.Unlock()
	if fail {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`{"error":{"message":"overloaded","type":"server_error"}}`))
		return
	}
	type item struct {
		Object    string    `json:"object"`
		Embedding []float32 `json:"embedding"`
		Index     int       `json:"index"`
	}
	var data []item
	for i := len(req.Input) - 1; i >= 0; i-- {
		data = append(data, item{"embedding", []float32{float32(len(req.Input[i])), float32(i)}, i})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
}

func TestOpenAIBatchingAndOrder(t *testing.T) {
	fake := &fakeServer{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	e, err := embed.NewOpenAI(embed.OpenAIConfig{BaseURL: srv.URL + "/v1", Model: "emb", APIKey: "sk-secret", Batch: 3})
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"a", "bb", "ccc", "dddd", "eeeee", "ffffff", "g"}
	vs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		if int(v[0]) != len(texts[i]) || int(v[1]) != i%3 {
			t.Errorf("vector %d = %v, want [%d %d]", i, v, len(texts[i]), i%3)
		}
	}
	if got := len(fake.batches); got != 3 {
		t.Errorf("%d requests, want 3 (batches of 3)", got)
	}
	for _, a := range fake.auth {
		if a != "Bearer sk-secret" {
			t.Errorf("Authorization = %q", a)
		}
	}
	if vs, err := e.Embed(context.Background(), nil); err != nil || len(vs) != 0 {
		t.Errorf("empty input: %v, %v", vs, err)
	}
}

func TestOpenAIErrors(t *testing.T) {
	fake := &fakeServer{fail: true}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	e, err := embed.NewOpenAI(embed.OpenAIConfig{BaseURL: srv.URL + "/v1", Model: "emb", APIKey: "sk-secret"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Embed(context.Background(), []string{"x"})
	if err == nil {
		t.Fatal("server error not reported")
	}
	if !strings.Contains(err.Error(), "emb") || strings.Contains(err.Error(), "sk-secret") {
		t.Errorf("error %q should name the model and not the key", err)
	}
	if _, err := embed.NewOpenAI(embed.OpenAIConfig{Model: "emb"}); err == nil {
		t.Error("missing BaseURL accepted")
	}
}

func TestOpenAIShortResponse(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"object":"list","data":[{"object":"embedding","embedding":[1],"index":0}]}`))
	}))
	defer srv.Close()
	e, _ := embed.NewOpenAI(embed.OpenAIConfig{BaseURL: srv.URL, Model: "emb"})
	if _, err := e.Embed(context.Background(), []string{"x", "y"}); err == nil || !strings.Contains(err.Error(), "1 embeddings for 2") {
		t.Errorf("err = %v", err)
	}
}
