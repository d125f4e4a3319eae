package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// benchBody is the fixed answer of the benchmark servers.
var benchBody = chatJSON("bench-model", "<think>short</think>Answer: B", 512, 4, 256)

// benchServer answers every chat request with benchBody after delay.
func benchServer(b *testing.B, delay time.Duration) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if delay > 0 {
			time.Sleep(delay)
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, benchBody)
	}))
	b.Cleanup(s.Close)
	return s
}

func benchStack(b *testing.B, url string, conc int) *Stack {
	st, err := OpenStack(StackConfig{
		BaseURLs: []string{url + "/v1"}, Model: "bench-model", APIKey: "sk-bench",
		Concurrency: conc, MaxConcurrency: conc,
		Prices: &Prices{PromptPer1M: 0.1, CompletionPer1M: 0.4},
		Params: Params{Temperature: ptr(0.0), MaxTokens: 16},
	})
	if err != nil {
		b.Fatal(err)
	}
	return st
}

// benchRequest is a typical short classification prompt (~1.5 KB).
func benchRequest(i int) Request {
	return Request{
		Purpose:  "predict",
		SampleID: fmt.Sprint("s", i),
		Affinity: fmt.Sprint("u", i%64),
		Messages: []Message{
			{Role: "system", Content: "You predict a user's next action from their history."},
			{Role: "user", Content: strings.Repeat("watched video 123 (cooking, 45 s); ", 40) + "Will the user like it?"},
		},
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLiveCall measures harness CPU per live call through the full
// stack (meter, prices, router, retry, limiter, go-openai, HTTP). cpu-ns/call
// is process user+sys CPU over b.N, so it includes the in-process fake
// server's share: an upper bound on the harness's own cost.
func BenchmarkLiveCall(b *testing.B) {
	srv := benchServer(b, 0)
	st := benchStack(b, srv.URL, 64)
	var seq atomic.Int64
	b.SetParallelism(4)
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := st.Generate(context.Background(), benchRequest(int(seq.Add(1)))); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/call")
}

// BenchmarkThroughput50ms runs batches of 640 requests with 32 workers
// against a server that takes 50 ms per request: the ideal is 640 req/s.
func BenchmarkThroughput50ms(b *testing.B) {
	const workers, batch, ideal = 32, 640, 32 / 0.050
	srv := benchServer(b, 50*time.Millisecond)
	st := benchStack(b, srv.URL, workers)
	var total int64
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := next.Add(1); i <= batch; i = next.Add(1) {
					if _, err := st.Generate(context.Background(), benchRequest(int(i))); err != nil {
						b.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		total += batch
	}
	elapsed := time.Since(start)
	b.StopTimer()
	rps := float64(total) / elapsed.Seconds()
	b.ReportMetric(rps, "req/s")
	b.ReportMetric(rps/ideal, "ideal-fraction")
	if lim := st.Limiters[0].Limit(); lim < workers {
		b.Errorf("limiter shrank to %d", lim)
	}
}

// BenchmarkThroughput50msRawHTTP is the baseline for the benchmark above:
// the same server, workers, request body and response decoding with a bare
// http.Client, so the gap between the two is what the stack costs (the rest
// is timer and loopback slack).
func BenchmarkThroughput50msRawHTTP(b *testing.B) {
	const workers, batch, ideal = 32, 640, 32 / 0.050
	srv := benchServer(b, 50*time.Millisecond)
	hc := NewHTTPClient(workers)
	var total int64
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := next.Add(1); i <= batch; i = next.Add(1) {
					if err := rawCall(hc, srv.URL, benchRequest(int(i))); err != nil {
						b.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		total += batch
	}
	rps := float64(total) / time.Since(start).Seconds()
	b.ReportMetric(rps, "req/s")
	b.ReportMetric(rps/ideal, "ideal-fraction")
}

// BenchmarkLiveCallRawHTTP is make perf's same-run baseline for
// BenchmarkLiveCall: the same request and server through a bare http.Client
// and encoding/json, with no cache key, limiter, retry, router or meter.
func BenchmarkLiveCallRawHTTP(b *testing.B) {
	srv := benchServer(b, 0)
	client := NewHTTPClient(64)
	var seq atomic.Int64
	b.SetParallelism(4)
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := rawCall(client, srv.URL, benchRequest(int(seq.Add(1)))); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/call")
}

// rawCall is the equal-work baseline of one chat call: the same JSON body
// posted with a bare http.Client and the answer decoded with encoding/json.
func rawCall(hc *http.Client, base string, req Request) error {
	body, err := json.Marshal(map[string]any{"model": "bench-model", "messages": req.Messages, "temperature": 0, "max_tokens": 16})
	if err != nil {
		return err
	}
	resp, err := hc.Post(base+"/v1/chat/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var out struct {
		Choices []struct {
			Message Message `json:"message"`
		} `json:"choices"`
		Usage struct {
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
		} `json:"usage"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Choices) == 0 {
		return fmt.Errorf("decode: %v (%d choices)", err, len(out.Choices))
	}
	return nil
}
