package cache_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/cache"
)

// liveAnswer is the fixed chat completion the benchmark server sends.
const liveAnswer = `{"id":"x","object":"chat.completion","model":"bench-model","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"<think>short</think>Answer: B"}}],"usage":{"prompt_tokens":512,"completion_tokens":4,"total_tokens":516}}`

func liveServer(b *testing.B) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, liveAnswer)
	}))
	b.Cleanup(s.Close)
	return s
}

func liveRequest(i int) llm.Request {
	return llm.Request{
		Purpose: "predict", SampleID: fmt.Sprint("s", i), Affinity: fmt.Sprint("u", i%64),
		Messages: []llm.Message{
			{Role: "system", Content: "You predict a user's next action from their history."},
			{Role: "user", Content: strings.Repeat("watched video 123 (cooking, 45 s); ", 40) + "Will the user like it?"},
		},
		Accept: func(r llm.Response) bool { return strings.HasPrefix(r.Text, "Answer:") },
	}
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLiveCallCached is a live call as a real run makes it: the meter
// above the response cache (a miss, then the write of the answer) above the
// whole endpoint stack. cpu-ns/call is process CPU per call, the in-process
// fake server's share included.
func BenchmarkLiveCallCached(b *testing.B) {
	srv := liveServer(b)
	st, err := llm.OpenStack(llm.StackConfig{BaseURLs: []string{srv.URL + "/v1"}, Model: "bench-model", APIKey: "sk-bench",
		Concurrency: 64, MaxConcurrency: 64, NoMeter: true})
	if err != nil {
		b.Fatal(err)
	}
	c, err := cache.Open(filepath.Join(b.TempDir(), "live.sqlite"), llm.Identity(srv.URL+"/v1", "bench-model"))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	m := llm.NewMeter(c.Wrap(st))
	var seq atomic.Int64
	b.SetParallelism(4)
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuNow()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			resp, err := m.Generate(context.Background(), liveRequest(int(seq.Add(1))))
			if err != nil || resp.Cached {
				b.Errorf("resp %+v err %v", resp, err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(cpuNow()-start)/float64(b.N), "cpu-ns/call")
}

// BenchmarkLiveCallRawHTTPStore is its equal-work baseline: the same body
// posted with a bare http.Client, the answer decoded with encoding/json and
// stored as one row of a plain SQLite table (same driver, WAL, one insert
// per answer), with no key canonicalisation, limiter, retry, router or meter.
func BenchmarkLiveCallRawHTTPStore(b *testing.B) {
	srv := liveServer(b)
	hc := llm.NewHTTPClient(64)
	db, err := sql.Open("sqlite", "file:"+filepath.Join(b.TempDir(), "raw.sqlite")+"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=busy_timeout(10000)")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE answers (id TEXT PRIMARY KEY, text TEXT, prompt_tokens INTEGER, completion_tokens INTEGER)`); err != nil {
		b.Fatal(err)
	}
	var seq atomic.Int64
	b.SetParallelism(4)
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuNow()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := int(seq.Add(1))
			req := liveRequest(i)
			body, _ := json.Marshal(map[string]any{"model": "bench-model", "messages": req.Messages})
			resp, err := hc.Post(srv.URL+"/v1/chat/completions", "application/json", bytes.NewReader(body))
			if err != nil {
				b.Error(err)
				return
			}
			var out struct {
				Choices []struct {
					Message llm.Message `json:"message"`
				} `json:"choices"`
				Usage struct {
					PromptTokens     int `json:"prompt_tokens"`
					CompletionTokens int `json:"completion_tokens"`
				} `json:"usage"`
			}
			err = json.NewDecoder(resp.Body).Decode(&out)
			resp.Body.Close()
			if err != nil || len(out.Choices) == 0 {
				b.Errorf("decode: %v", err)
				return
			}
			if _, err := db.Exec(`INSERT INTO answers VALUES (?, ?, ?, ?)`, req.SampleID, out.Choices[0].Message.Content, out.Usage.PromptTokens, out.Usage.CompletionTokens); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(cpuNow()-start)/float64(b.N), "cpu-ns/call")
}

// BenchmarkSQLitePointLookup is the equal-work baseline of BenchmarkCacheHit:
// one primary-key lookup of a ~2 KB row among 10,000 in a plain SQLite table
// through the same driver, without key canonicalisation, hashing or the
// response assembly.
func BenchmarkSQLitePointLookup(b *testing.B) {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(b.TempDir(), "plain.sqlite")+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE kv (key BLOB PRIMARY KEY, text TEXT, prompt_tokens INTEGER)`); err != nil {
		b.Fatal(err)
	}
	pad := strings.Repeat("The user watched a movie and rated it. ", 52)
	tx, _ := db.Begin()
	const n = 10000
	keys := make([][]byte, n)
	for i := range n {
		keys[i] = []byte(fmt.Sprintf("%032d", i))
		if _, err := tx.Exec(`INSERT INTO kv VALUES (?, ?, ?)`, keys[i], pad, i); err != nil {
			b.Fatal(err)
		}
	}
	tx.Commit()
	get, err := db.Prepare(`SELECT text, prompt_tokens FROM kv WHERE key = ?`)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		var text string
		var p int
		if err := get.QueryRow(keys[i%n]).Scan(&text, &p); err != nil {
			b.Fatal(err)
		}
	}
}
