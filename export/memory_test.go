package export

import (
	"archive/zip"
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// writeSyntheticRun writes a finished prediction run of n samples in one
// method: samples.jsonl, a call record whose requests reuse a small set of
// stored texts (as a real run's shared prompt prefixes do), the manifest
// and the report's metrics.csv.
func writeSyntheticRun(t testing.TB, dir string, n int) {
	t.Helper()
	const method = "truncation"
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	fin := start.Add(time.Hour)
	man := runrecord.Manifest{Name: "big", ConfigHash: "cafe", HarnessVersion: "test", Backbone: "sim", Model: "sim",
		DataSource: "synthetic", Methods: []string{method}, Samples: n, Started: start, Finished: &fin,
		Config: map[string]any{"task": "movielens", "report": map[string]any{"bootstrap": 1000, "level": 0.95},
			"methods": []any{map[string]any{"name": method, "kind": method}}}}
	b, _ := json.Marshal(man)
	if err := os.WriteFile(filepath.Join(dir, runrecord.ManifestFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "report"), 0o755)
	csv := "method,field,metric,value,ci_low,ci_high,n,unit\n" +
		fmt.Sprintf("%s,rating,accuracy_all,50.000000,49.000000,51.000000,%d,%%\n", method, n)
	if err := os.WriteFile(filepath.Join(dir, "report", "metrics.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	// 64 distinct prompts and 5 answers, stored once in the chunk store.
	chunks, order := map[string]string{}, []string(nil)
	contents := make([]*llm.CallContent, 64*5)
	for p := range 64 {
		for a := range 5 {
			ex := &llm.Exchange{Messages: []llm.Message{{Role: "system", Content: fmt.Sprintf("You predict ratings (variant %d).", p%4)},
				{Role: "user", Content: fmt.Sprintf("History of user group %d: liked comedies, disliked horror. Rate the movie 1-5.", p)}},
				Text: fmt.Sprint(a + 1)}
			contents[p*5+a] = runrecord.ChunkExchange(ex, chunks, &order)
		}
	}
	enc, err := runrecord.NewChunkEncoder()
	if err != nil {
		t.Fatal(err)
	}
	texts := make([]string, len(order))
	for i, id := range order {
		texts[i] = chunks[id]
	}
	line, err := enc.Encode(texts)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, runrecord.ChunksFile), line, 0o644); err != nil {
		t.Fatal(err)
	}
	sf, _ := os.Create(filepath.Join(dir, runrecord.SamplesFile))
	uf, _ := os.Create(filepath.Join(dir, runstore.UsageJournal))
	sw, uw := bufio.NewWriter(sf), bufio.NewWriter(uf)
	for i := range n {
		pred := i % 5
		s := runrecord.Sample{ID: fmt.Sprintf("%s/movielens/%d/%d/rating", method, i/10, i%10), Method: method, Dataset: "movielens",
			User: fmt.Sprint(i / 10), Index: i % 10, Field: "rating", Kind: "multi_class", Label: fmt.Sprint((i/3)%5 + 1),
			Pred: fmt.Sprint(pred + 1), Valid: true, Attempts: 1, Raw: fmt.Sprint(pred + 1), Calls: 1, PromptTokens: 40, CompletionTokens: 1}
		sb, _ := json.Marshal(s)
		sw.Write(append(sb, '\n'))
		rec := llm.CallRecord{Purpose: "predict", Usage: llm.Usage{PromptTokens: 40, CompletionTokens: 1}, Judged: true,
			SampleID: s.ID, Content: contents[(i%64)*5+pred]}
		ub, _ := json.Marshal(struct {
			Unit  string           `json:"unit"`
			Calls []llm.CallRecord `json:"calls"`
		}{runstore.SampleUnit(s.ID), []llm.CallRecord{rec}})
		uw.Write(append(ub, '\n'))
	}
	for _, w := range []*bufio.Writer{sw, uw} {
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	sf.Close()
	uf.Close()
}

// TestExportMemoryIsBounded exports a 200,000-sample run in every format
// while sampling the heap: the peak stays a few MiB above the start while
// about a GiB is written, so no format holds the samples, their calls or
// the .eval zip's directory (measured: 5 MiB).
func TestExportMemoryIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short: writes a 200,000-sample run")
	}
	const n = 200_000
	dir := t.TempDir()
	writeSyntheticRun(t, dir, n)
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
			}
		}
	}()
	out := t.TempDir()
	files, err := Write(dir, out, Formats())
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	var written int64
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			written += fi.Size()
		}
	}
	grew := int64(peak) - int64(base.HeapInuse)
	t.Logf("%d samples: peak heap in use %.1f MiB above the start, %d files, %.1f MiB written", n, float64(grew)/(1<<20), len(files), float64(written)/(1<<20))
	const limit = 32 << 20
	if grew > limit {
		t.Errorf("exporting %d samples took %.1f MiB of heap (limit %d MiB): the export is not streaming", n, float64(grew)/(1<<20), limit>>20)
	}
	// The .eval zip (ZIP64: more than 65,535 entries) opens with one entry per sample.
	zr, err := zip.OpenReader(filepath.Join(out, "inspect", "big_truncation.eval"))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var inZip int
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "samples/") {
			inZip++
		}
	}
	if inZip != n {
		t.Errorf("the .eval holds %d samples, want %d", inZip, n)
	}
	if written < 4*limit {
		t.Errorf("only %.1f MiB written: the run is too small to show the bound", float64(written)/(1<<20))
	}
}
