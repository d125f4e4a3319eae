package batch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// fakeProvider is an httptest server speaking OpenAI's Files and Batches
// API, with faults a test switches on. A batch ends at its first poll.
type fakeProvider struct {
	t   *testing.T
	srv *httptest.Server

	mu      sync.Mutex
	seq     int
	files   map[string][]byte
	batches map[string]*apiBatch
	// submitted counts, per custom id, the batches that carried it.
	submitted map[string]int
	uploads   int

	// Faults.
	upload429    int    // refuse this many uploads with 429
	nextStatus   string // the next batch ends in this status instead of completed
	partial      bool   // the next batch answers every other line, the rest go to its error file
	unknownLine  bool   // the next batch's output carries a line for a custom id it was not sent
	onSubmit     func() // called when a submission arrives, before it is taken (a kill before submit)
	afterSubmit  func() // called after a batch was created; the reply is then a 500 (a kill before the id is journaled)
	onPoll       func() // called at a poll, which then fails (a kill while waiting)
	answerPrefix string
}

func newFakeProvider(t *testing.T) *fakeProvider {
	f := &fakeProvider{t: t, files: map[string][]byte{}, batches: map[string]*apiBatch{}, submitted: map[string]int{}, answerPrefix: "answer to "}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeProvider) provider() *OpenAI {
	p, err := NewOpenAI(f.srv.URL+"/v1", "sk-test", f.srv.Client())
	if err != nil {
		f.t.Fatal(err)
	}
	return p
}

func (f *fakeProvider) id(prefix string) string {
	f.seq++
	return fmt.Sprintf("%s_%d", prefix, f.seq)
}

func (f *fakeProvider) serve(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer sk-test" {
		http.Error(w, "no key", http.StatusUnauthorized)
		return
	}
	path := strings.TrimPrefix(r.URL.Path, "/v1")
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case r.Method == http.MethodPost && path == "/files":
		if f.upload429 > 0 {
			f.upload429--
			w.Header().Set("Retry-After", "0")
			http.Error(w, `{"error":{"message":"rate limited"}}`, http.StatusTooManyRequests)
			return
		}
		if r.FormValue("purpose") != "batch" {
			http.Error(w, "purpose must be batch", http.StatusBadRequest)
			return
		}
		file, _, err := r.FormFile("file")
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		data, _ := io.ReadAll(file)
		f.uploads++
		id := f.id("file")
		f.files[id] = data
		json.NewEncoder(w).Encode(map[string]string{"id": id, "object": "file", "purpose": "batch"})
	case r.Method == http.MethodPost && path == "/batches":
		var in struct {
			InputFileID string `json:"input_file_id"`
			Endpoint    string `json:"endpoint"`
			Window      string `json:"completion_window"`
		}
		json.NewDecoder(r.Body).Decode(&in)
		if f.onSubmit != nil {
			hook := f.onSubmit
			f.onSubmit = nil
			hook()
			http.Error(w, "gone", http.StatusServiceUnavailable)
			return
		}
		data, ok := f.files[in.InputFileID]
		if !ok || in.Endpoint != "/v1/chat/completions" || in.Window != "24h" {
			http.Error(w, "bad submission", http.StatusBadRequest)
			return
		}
		b := &apiBatch{ID: f.id("batch"), Status: "validating", InputFileID: in.InputFileID, ExpiresAt: 1900000000}
		for _, raw := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
			var l InputLine
			if err := json.Unmarshal(raw, &l); err != nil {
				http.Error(w, "bad line", http.StatusBadRequest)
				return
			}
			f.submitted[l.CustomID]++
			b.RequestCounts.Total++
		}
		f.batches[b.ID] = b
		if f.afterSubmit != nil {
			hook := f.afterSubmit
			f.afterSubmit = nil
			hook()
			http.Error(w, "lost reply", http.StatusInternalServerError)
			return
		}
		json.NewEncoder(w).Encode(b)
	case r.Method == http.MethodGet && path == "/batches":
		var list []*apiBatch
		for _, b := range f.batches {
			list = append(list, b)
		}
		json.NewEncoder(w).Encode(map[string]any{"data": list, "has_more": false})
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/batches/"):
		if f.onPoll != nil {
			hook := f.onPoll
			f.onPoll = nil
			hook()
			http.Error(w, "gone", http.StatusServiceUnavailable)
			return
		}
		b, ok := f.batches[strings.TrimPrefix(path, "/batches/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if !Terminal(b.Status) {
			f.end(b)
		}
		json.NewEncoder(w).Encode(b)
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/cancel"):
		b, ok := f.batches[strings.TrimSuffix(strings.TrimPrefix(path, "/batches/"), "/cancel")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		b.Status = StatusCancelled
		json.NewEncoder(w).Encode(b)
	case r.Method == http.MethodGet && strings.HasSuffix(path, "/content"):
		data, ok := f.files[strings.TrimSuffix(strings.TrimPrefix(path, "/files/"), "/content")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(data)
	default:
		http.NotFound(w, r)
	}
}

// end finishes a batch as the faults say.
func (f *fakeProvider) end(b *apiBatch) {
	status := f.nextStatus
	f.nextStatus = ""
	if status == "" {
		status = StatusCompleted
	}
	b.Status = status
	if status != StatusCompleted {
		return
	}
	var out, errs bytes.Buffer
	for i, raw := range bytes.Split(bytes.TrimSpace(f.files[b.InputFileID]), []byte("\n")) {
		var l InputLine
		json.Unmarshal(raw, &l)
		if f.partial && i%2 == 1 {
			line, _ := json.Marshal(map[string]any{"custom_id": l.CustomID, "response": map[string]any{"status_code": 500, "body": map[string]any{"error": "overloaded"}}})
			errs.Write(append(line, '\n'))
			b.RequestCounts.Failed++
			continue
		}
		var body struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		json.Unmarshal(l.Body, &body)
		text := f.answerPrefix + body.Messages[len(body.Messages)-1].Content
		line, _ := json.Marshal(map[string]any{"id": "r", "custom_id": l.CustomID, "error": nil, "response": map[string]any{
			"status_code": 200, "body": map[string]any{"model": "m-2026", "choices": []any{map[string]any{"message": map[string]any{"content": text}}},
				"usage": map[string]int{"prompt_tokens": 10, "completion_tokens": 2}}}})
		out.Write(append(line, '\n'))
		b.RequestCounts.Completed++
	}
	if f.unknownLine {
		line, _ := json.Marshal(map[string]any{"custom_id": "mh-not-sent", "response": map[string]any{"status_code": 200, "body": map[string]any{"choices": []any{}}}})
		out.Write(append(line, '\n'))
	}
	f.partial, f.unknownLine = false, false
	b.OutputFileID = f.id("file")
	f.files[b.OutputFileID] = out.Bytes()
	if errs.Len() > 0 {
		b.ErrorFileID = f.id("file")
		f.files[b.ErrorFileID] = errs.Bytes()
	}
}

func (f *fakeProvider) maxSubmissions() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := 0
	for _, n := range f.submitted {
		m = max(m, n)
	}
	return m
}
