package view

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// writeRun writes a run directory of n samples over three methods through
// the run store (each sample's prompt in its call record, as in a real
// run), plus a report table and a per-user memory with two PraMem practice
// rounds.
func writeRun(t testing.TB, dir string, n int) {
	t.Helper()
	st, err := runstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Large runs for the benchmarks skip the store's per-sample fsync and
	// write samples.jsonl and its index directly, in the same format, as
	// the store's Compact leaves them (their samples keep no call record).
	var direct *bufio.Writer
	var sf *os.File
	var recs []runrecord.Sample
	var spans []runrecord.Span
	var off int64
	if n > 1000 {
		sf, err = os.Create(filepath.Join(dir, runrecord.SamplesFile))
		must(t, err)
		direct = bufio.NewWriter(sf)
	}
	methods := []string{"truncation", "rag", "pramem"}
	var order []string
	for i := range n {
		m := methods[i%3]
		s := runrecord.Sample{
			ID: fmt.Sprintf("%s/u%03d/%d", m, i/3%50, i), Method: m, Dataset: "movielens", User: fmt.Sprintf("u%03d", i/3%50),
			Index: i, Field: "movie_rating", Kind: "multiclass", Label: fmt.Sprint(1 + i%5), Pred: fmt.Sprint(1 + i%4),
			Valid: i%17 != 0, Attempts: 1, Raw: fmt.Sprintf("Rating: %d", 1+i%4), Calls: 1, CachedCalls: i % 2,
			PromptTokens: 100 + i%7, CompletionTokens: 3, LatencyMS: 12.5,
			Prompt: fmt.Sprintf("Predict the rating of sample %d.\nHistory: ...", i),
		}
		if i == 4 {
			s.Raw = `<script>alert("raw")</script>`
			s.Prompt = `<img src=x onerror="alert('prompt')">`
		}
		if !s.Valid {
			s.Pred = ""
		}
		order = append(order, s.ID)
		if direct != nil {
			b, _ := json.Marshal(s)
			direct.Write(append(b, '\n'))
			recs, spans = append(recs, s), append(spans, runrecord.Span{Off: off, Len: int64(len(b) + 1)})
			off += int64(len(b) + 1)
			continue
		}
		call := llm.CallRecord{Purpose: "predict", Judged: true, Cached: s.CachedCalls > 0, Usage: llm.Usage{PromptTokens: s.PromptTokens, CompletionTokens: 3},
			Exchange: &llm.Exchange{Messages: []llm.Message{{Role: "user", Content: s.Prompt}}, SampleID: s.ID, Affinity: s.User, Text: s.Raw}}
		if err := st.AppendWith(s, []llm.CallRecord{call}); err != nil {
			t.Fatal(err)
		}
	}
	if direct == nil {
		if err := st.Compact(order); err != nil {
			t.Fatal(err)
		}
	} else {
		must(t, direct.Flush())
		must(t, sf.Close())
		must(t, runrecord.WriteSampleIndex(dir, runrecord.NewSampleIndex(recs, spans)))
	}
	man := runrecord.Manifest{Name: "demo<b>", Backbone: "sim", Model: "m", DataSource: "synthetic", Methods: methods, Samples: n,
		Config: map[string]any{"name": "demo"}}
	if err := st.WriteJSON(runrecord.ManifestFile, man); err != nil {
		t.Fatal(err)
	}
	st.Close()
	must(t, os.WriteFile(filepath.Join(dir, "config.yaml"), []byte("name: demo\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(dir, "report"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "report", "table.md"), []byte("# Metrics\n\n| method | acc |\n|---|---|\n| rag | 0.42 |\n| x\\|y | <i>1</i> |\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(dir, "memory", "pramem"), 0o755))
	mem, _ := json.Marshal(map[string]any{"text": "- likes <b>drama</b>", "tokens": 5, "calls": 2, "meta": map[string]any{"rounds": 2}})
	must(t, os.WriteFile(filepath.Join(dir, "memory", "pramem", "u001.json"), mem, 0o644))
	must(t, os.MkdirAll(filepath.Join(dir, "checkpoints", "u001"), 0o755))
	for r, after := range [][]string{{"- a"}, {"- a", "- b"}} {
		b, _ := json.Marshal(map[string]any{"round_idx": r, "memory_snapshot_after": map[string]any{"user_exp": after, "model_exp": []string{"- bias +0.1"}, "proposal": []string{}}})
		must(t, os.WriteFile(filepath.Join(dir, "checkpoints", "u001", fmt.Sprintf("pramem-abc-round-%03d.json", r)), b, 0o644))
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, h http.Handler, target string) (int, string) {
	t.Helper()
	rec := httptestDo(h, target)
	b, _ := io.ReadAll(rec.Body)
	return rec.Code, string(b)
}

func httptestDo(h http.Handler, target string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, localReq(target))
	return rec
}

// localReq is a GET of target as a browser on this machine sends it: the
// viewer answers requests to its own address only.
func localReq(target string) *http.Request {
	req := httptest.NewRequest("GET", target, nil)
	req.Host = "127.0.0.1:8080"
	return req
}

func newTestServer(t *testing.T, n int) (http.Handler, string) {
	root := t.TempDir()
	writeRun(t, filepath.Join(root, "demo"), n)
	// index.md links table.md; stale.png is left over from an older report.
	must(t, os.WriteFile(filepath.Join(root, "demo", "report", "index.md"), []byte("- [table.md](table.md)\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "demo", "report", "stale.png"), []byte("\x89PNG"), 0o644))
	sw := filepath.Join(root, "sw")
	writeRun(t, filepath.Join(sw, "top_k=5"), 30)
	must(t, os.WriteFile(filepath.Join(sw, "sweep.md"), []byte("# Sweep sw\n\n| variant | rag |\n|---|---|\n| top_k=5 | 0.40 [0.30, 0.50] |\n\n![plot](sweep.png)\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(sw, "sweep.png"), []byte("\x89PNG"), 0o644))
	s, err := NewServer(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s.Handler(), root
}

func TestPages(t *testing.T) {
	h, _ := newTestServer(t, 300)
	tests := []struct {
		name, target string
		code         int
		want         []string
		not          []string
	}{
		{"home lists the run", "/", 200, []string{`href="/run?r=demo"`, "synthetic"}, nil},
		{"run overview", "/run?r=demo", 200, []string{"table.md", "index.md", "name: demo", "pramem", `&#34;backbone&#34;: &#34;sim&#34;`, "Run demo&lt;b&gt;"}, []string{"demo<b>", "stale.png"}},
		{"table rendered and escaped", "/table?r=demo&f=table.md", 200, []string{"<td>0.42</td>", "<td>x|y</td>", "&lt;i&gt;1&lt;/i&gt;"}, []string{"<i>1</i>"}},
		{"filter by method and outcome", "/samples?r=demo&method=rag&outcome=invalid", 200, []string{"rag/"}, []string{"truncation/", `class="correct"`}},
		{"last page", "/samples?r=demo&page=3", 200, []string{"page 3 of 3", `id="prev"`}, []string{`id="next"`}},
		{"sample with prompt, escaped", "/sample?r=" + url.QueryEscape("demo") + "&id=" + url.QueryEscape("rag/u001/4"), 200,
			[]string{"&lt;script&gt;alert(&#34;raw&#34;)&lt;/script&gt;", "&lt;img src=x onerror=", "0 of 1 calls answered from the cache"},
			[]string{"<script>alert", "<img src=x"}},
		{"memory with round diffs", "/memory?r=demo&method=pramem&user=u001", 200, []string{"likes &lt;b&gt;drama&lt;/b&gt;", `<li class="add">+ - b</li>`, "round 1"}, nil},
		{"sweep listed", "/", 200, []string{`href="/sweep?s=sw"`, `/run?r=sw%2Ftop_k%3D5`}, nil},
		{"sweep page", "/sweep?s=sw", 200, []string{"<td>0.40 [0.30, 0.50]</td>", `src="/file?s=sw&amp;f=sweep.png"`, "top_k=5"}, nil},
		{"sweep figure", "/file?s=sw&f=sweep.png", 200, []string{"PNG"}, nil},
		{"sweep traversal", "/file?s=../..&f=sweep.png", 404, nil, nil},
		{"traversal in run", "/run?r=../etc", 404, nil, nil},
		{"traversal in file", "/file?r=demo&f=report/../manifest.json", 404, nil, nil},
		{"only report types served", "/file?r=demo&f=report/table.md", 200, []string{"| rag | 0.42 |"}, nil},
		{"unknown sample", "/sample?r=demo&id=nope", 404, nil, nil},
		{"memory outside the run", "/memory?r=demo&method=..&user=x", 404, nil, nil},
	}
	for _, tt := range tests {
		code, body := get(t, h, tt.target)
		if code != tt.code {
			t.Errorf("%s: GET %s = %d, want %d\n%s", tt.name, tt.target, code, tt.code, body)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: GET %s lacks %q", tt.name, tt.target, w)
			}
		}
		for _, w := range tt.not {
			if strings.Contains(body, w) {
				t.Errorf("%s: GET %s contains %q", tt.name, tt.target, w)
			}
		}
	}
}

// The filters select exactly the samples that match, page by page.
func TestSampleFilterCounts(t *testing.T) {
	root := t.TempDir()
	writeRun(t, root, 500)
	ri, err := loadRun(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	samples, err := runrecord.ReadSamples(filepath.Join(root, runrecord.SamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []Filter{{}, {Method: "rag"}, {User: "u007"}, {Outcome: "invalid"}, {Method: "pramem", Outcome: "correct"}, {Field: "none"}} {
		want := 0
		for i := range samples {
			s := &samples[i]
			if (f.Method == "" || s.Method == f.Method) && (f.User == "" || s.User == f.User) &&
				(f.Field == "" || s.Field == f.Field) && (f.Outcome == "" || outcomeOf(s) == f.Outcome) {
				want++
			}
		}
		seen := 0
		d, err := samplesData(ri, f, 1, serverLinks{"."}, false)
		if err != nil {
			t.Fatal(err)
		}
		for p := 1; p <= d.Pages; p++ {
			pd, _ := samplesData(ri, f, p, serverLinks{"."}, false)
			seen += len(pd.Rows)
		}
		if d.Total != want || seen != want {
			t.Errorf("filter %+v: total %d, rows over pages %d, want %d", f, d.Total, seen, want)
		}
	}
}

// The static report opens from disk: every page it links to exists.
func TestWriteStatic(t *testing.T) {
	root := t.TempDir()
	writeRun(t, root, 250)
	index, err := WriteStatic(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	var walk func(page string)
	seen := map[string]bool{}
	walk = func(page string) {
		if seen[page] {
			return
		}
		seen[page] = true
		b, err := os.ReadFile(page)
		if err != nil {
			t.Errorf("linked page missing: %v", err)
			return
		}
		for _, part := range strings.Split(string(b), `href="`)[1:] {
			target := part[:strings.IndexByte(part, '"')]
			target, _, _ = strings.Cut(target, "#")
			if target == "" || strings.Contains(target, "://") {
				continue
			}
			target = strings.ReplaceAll(target, "&amp;", "&")
			checked++
			walk(filepath.Join(filepath.Dir(page), filepath.FromSlash(target)))
		}
	}
	walk(index)
	if checked < 10 {
		t.Errorf("only %d links checked", checked)
	}
	b, _ := os.ReadFile(filepath.Join(root, "report", StaticDir, "samples-all-1.html"))
	if !strings.Contains(string(b), `id="s4"`) || strings.Contains(string(b), "<script>alert") {
		t.Error("static sample list lacks sample 4's inline details or does not escape its response")
	}
}

func TestNaturalLess(t *testing.T) {
	for _, c := range [][2]string{{"stage 2", "stage 10"}, {"01", "10"}, {"r5", "r20"}, {"a", "b"}, {"user_9", "user_10"}} {
		if !naturalLess(c[0], c[1]) || naturalLess(c[1], c[0]) {
			t.Errorf("naturalLess(%q, %q) wrong", c[0], c[1])
		}
	}
}

// BenchmarkSamplesPage measures one filtered list page of a run of
// 100,000 samples once the run is indexed (what every page view costs).
func BenchmarkSamplesPage(b *testing.B) {
	root := b.TempDir()
	writeRun(b, filepath.Join(root, "big"), 100_000)
	s, err := NewServer(root, nil)
	if err != nil {
		b.Fatal(err)
	}
	h := s.Handler()
	warm := httptest.NewRecorder()
	h.ServeHTTP(warm, localReq("/run?r=big"))
	runtime.GC() // the setup's garbage is not the page's cost
	targets := []string{
		"/samples?r=big&page=500",
		"/samples?r=big&method=rag&outcome=wrong&page=3",
		"/sample?r=big&id=" + url.QueryEscape("pramem/u032/99998"),
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, localReq(targets[i%len(targets)]))
		if rec.Code != 200 {
			b.Fatalf("%s: %d", targets[i%len(targets)], rec.Code)
		}
	}
}

// BenchmarkOpenRun measures the first page of a run of 200,000 samples
// (a fresh viewer each time): loading the sample index and rendering the
// first page of the sample list; "unindexed" is a run whose index is
// missing (built from samples.jsonl, as for a run still being written).
func BenchmarkOpenRun(b *testing.B) {
	root := b.TempDir()
	run := filepath.Join(root, "big")
	writeRun(b, run, 200_000)
	open := func(b *testing.B) {
		b.ReportAllocs()
		runtime.GC()
		cpu0 := cpuTime()
		defer func() { b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op") }()
		for b.Loop() {
			s, err := NewServer(root, nil)
			if err != nil {
				b.Fatal(err)
			}
			rec := httptest.NewRecorder()
			s.Handler().ServeHTTP(rec, localReq("/samples?r=big"))
			if rec.Code != 200 || !strings.Contains(rec.Body.String(), "200000") {
				b.Fatalf("%d: %.300s", rec.Code, rec.Body.String())
			}
		}
	}
	b.Run("indexed", open)
	must(b, os.Remove(filepath.Join(run, runrecord.SampleIndexFile)))
	b.Run("unindexed", open)
}

// The sample index agrees with runrecord.ReadSamples: last record per ID,
// torn final line ignored, a malformed line elsewhere an error naming it.
func TestReadSamples(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, body string
		ids        []string
		preds      []string
		err        string
	}{
		{"last wins, first-seen order", `{"id":"a","pred":"1"}` + "\n" + `{"id":"b","pred":"2"}` + "\n" + `{"id":"a","pred":"3"}` + "\n", []string{"a", "b"}, []string{"3", "2"}, ""},
		{"torn tail", `{"id":"a","pred":"1"}` + "\n" + `{"id":"b","pr`, []string{"a"}, []string{"1"}, ""},
		{"blank lines", "\n" + `{"id":"a"}` + "\n\n", []string{"a"}, []string{""}, ""},
		{"malformed", `{"id":"a"}` + "\nnot json\n" + `{"id":"b"}` + "\n", nil, nil, ":2:"},
	}
	for _, tt := range tests {
		run := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_"))
		must(t, os.MkdirAll(run, 0o755))
		path := filepath.Join(run, runrecord.SamplesFile)
		must(t, os.WriteFile(path, []byte(tt.body), 0o644))
		x, err := runrecord.BuildSampleIndex(run)
		var got []runrecord.Sample
		if err == nil {
			f, _ := os.Open(path)
			for i := range x.Count() {
				s, err := runrecord.ReadSampleAt(f, x.Span(i))
				if err != nil {
					t.Fatalf("%s: sample %d: %v", tt.name, i, err)
				}
				got = append(got, s)
			}
			f.Close()
		}
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: err %v, want one naming %s", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		want, err := runrecord.ReadSamples(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(tt.ids) || len(want) != len(got) {
			t.Fatalf("%s: %d samples (runrecord %d), want %d", tt.name, len(got), len(want), len(tt.ids))
		}
		for i := range got {
			if got[i].ID != tt.ids[i] || got[i].Pred != tt.preds[i] || !reflect.DeepEqual(got[i], want[i]) {
				t.Errorf("%s: sample %d = %s/%s, want %s/%s", tt.name, i, got[i].ID, got[i].Pred, tt.ids[i], tt.preds[i])
			}
		}
	}
}

// cpuTime is the CPU time the process used so far: on a shared machine the
// wall time of a benchmark says more about the neighbours than the code.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// The sample index is trusted only while samples.jsonl is what it was made
// from: samples appended by a resumed run, or a damaged index, are seen.
func TestSampleIndexFollowsTheLog(t *testing.T) {
	root := t.TempDir()
	run := filepath.Join(root, "r")
	writeRun(t, run, 30)
	if _, err := runrecord.LoadSampleIndex(run); err != nil {
		t.Fatalf("the run's Compact left no usable index: %v", err)
	}
	total := func() string {
		s, err := NewServer(root, nil)
		must(t, err)
		_, body := get(t, s.Handler(), "/samples?r=r&method=rag")
		i := strings.Index(body, `<span id="total">`)
		if i < 0 {
			t.Fatalf("no total on the page:\n%.400s", body)
		}
		return body[i+len(`<span id="total">`) : i+len(`<span id="total">`)+strings.Index(body[i+len(`<span id="total">`):], "<")]
	}
	if got := total(); got != "10" {
		t.Fatalf("rag samples %s, want 10", got)
	}
	// A resumed run appends (the index on disk is now stale).
	st, err := runstore.Open(run)
	must(t, err)
	must(t, st.Append(runrecord.Sample{ID: "rag/u999/1", Method: "rag", User: "u999", Field: "f", Valid: true, Pred: "1", Label: "1"}))
	st.Close()
	if got := total(); got != "11" {
		t.Errorf("after a resumed append rag samples %s, want 11", got)
	}
	s, err := NewServer(root, nil)
	must(t, err)
	if _, body := get(t, s.Handler(), "/sample?r=r&id="+url.QueryEscape("rag/u999/1")); !strings.Contains(body, "u999") {
		t.Errorf("appended sample's page lacks it:\n%.400s", body)
	}
	must(t, os.WriteFile(filepath.Join(run, runrecord.SampleIndexFile), []byte{1, 2, 3}, 0o644))
	if got := total(); got != "11" {
		t.Errorf("with a damaged index rag samples %s, want 11", got)
	}
}
