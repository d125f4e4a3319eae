package view_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/bench/view"
)

// heavyConfig is a lifelong run whose last stage shows every stream
// environment, each task's agent steps repeating a growing prompt.
const heavyConfig = `name: heavy
task: lifemem
seed: 5
backbone: {kind: sim}
lifelong:
  stream: similarity
  envs: [alfworld, scienceworld, apibank, hotpotqa, webshop, dbbench]
  batch: 5
  tasks_per_env: 12
  methods:
    - {name: expel, kind: expel, top_k: 2}
`

// BenchmarkTranscriptsPage times the transcripts page of the last stage
// of a generated lifelong run: cold (a new viewer, as the first click
// after bench view starts) and warm (the run loaded, its cells cached),
// and reports the page's size.
func BenchmarkTranscriptsPage(b *testing.B) {
	dir := b.TempDir()
	cfg := filepath.Join(dir, "heavy.yaml")
	if err := os.WriteFile(cfg, []byte(heavyConfig), 0o644); err != nil {
		b.Fatal(err)
	}
	root := filepath.Join(dir, "runs")
	var stderr strings.Builder
	if code := bench.Main(context.Background(), []string{"run", "-c", cfg, "--out", root}, bench.IO{Out: io.Discard, Err: &stderr}); code != 0 {
		b.Fatalf("bench run: exit %d\n%s", code, stderr.String())
	}
	stages, _ := filepath.Glob(filepath.Join(root, "heavy", "lifelong", "expel", "transcripts", "*"))
	if len(stages) == 0 {
		b.Fatal("no transcripts")
	}
	page := "/transcripts?r=heavy&method=expel&stage=" + filepath.Base(stages[len(stages)-1])
	get := func(b *testing.B, h http.Handler) int {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost"+page, nil))
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), "step-calls") {
			b.Fatalf("%s: %d, recorded inputs missing", page, rec.Code)
		}
		return rec.Body.Len()
	}
	handler := func(b *testing.B) http.Handler {
		srv, err := view.NewServer(root, nil)
		if err != nil {
			b.Fatal(err)
		}
		return srv.Handler()
	}
	b.Run("cold", func(b *testing.B) {
		n := 0
		for b.Loop() {
			b.StopTimer()
			h := handler(b)
			b.StartTimer()
			n = get(b, h)
		}
		b.ReportMetric(float64(n), "html_bytes")
	})
	b.Run("warm", func(b *testing.B) {
		h := handler(b)
		n := get(b, h)
		for b.Loop() {
			n = get(b, h)
		}
		b.ReportMetric(float64(n), "html_bytes")
	})
}
