package predict

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm/tokens"
)

// TestCompiledRecordMatchesTemplate renders records through the compiled
// form and through text/template and wants the same bytes, for the
// embedded templates and for overrides inside and outside what compiles.
func TestCompiledRecordMatchesTemplate(t *testing.T) {
	dir := t.TempDir()
	overrides := map[string]struct {
		body     string
		compiles bool
	}{
		"if-else": {`{{if .Index}}#{{.Index}} {{else}}-{{end}}{{.Time}}|{{if .Scene}}{{.Scene}}{{else}}none{{end}}|{{.Context}}{{/* c */}}|{{.Result}}`, true},
		"else-if": {`{{if .Context}}c={{.Context}}{{else if .Result}}r={{.Result}}{{else}}empty{{end}} {{- " " -}} {{.Index}}`, false},
		"func":    {`[{{inc .Index}}] {{trimspace .Context}}`, false},
		"nested":  {`{{if .Index}}{{if .Result}}{{.Index}}:{{.Result}}{{end}}{{end}}`, true},
	}
	events := []behavior.Event{
		{Time: "2025-09-01 10:00:00", Scene: "视频浏览", RawScene: "Video Browsing", Context: "这是一个视频。", Result: "观看了 12 秒"},
		{Time: "2025-09-02", Scene: "直播间", Context: "", Result: ""},
		{Time: "", Scene: "", Context: "  spaced  ", Result: "r"},
	}
	check := func(name string, p *Prompts, compiles bool) {
		t.Helper()
		if got := p.compiled() != nil; got != compiles {
			t.Fatalf("%s: compiled %v, want %v", name, got, compiles)
		}
		for _, e := range events {
			for _, idx := range []int{0, 1, 7, 123} {
				r := newRecord(idx, e)
				want, err := p.exec("record", r)
				if err != nil {
					t.Fatal(err)
				}
				got, err := p.renderRecord(r)
				if err != nil || got != want {
					t.Errorf("%s: record %d of %+v = %q, %v; text/template %q", name, idx, e, got, err, want)
				}
			}
		}
	}
	for _, lang := range Languages() {
		p, err := LoadPrompts(lang)
		if err != nil {
			t.Fatal(err)
		}
		check("embedded "+lang, p, true)
		for name, o := range overrides {
			path := filepath.Join(dir, name+".tmpl")
			if err := os.WriteFile(path, []byte(o.body), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := LoadNamedPrompts(lang, map[string]string{"record": path})
			if err != nil {
				t.Fatal(err)
			}
			check(lang+" "+name, p, o.compiles)
		}
	}
}

// TestRecordCostMemo wants memoised costs equal to fresh ones, per
// counter, and a counter that cannot be a map key still served.
func TestRecordCostMemo(t *testing.T) {
	p, err := LoadPrompts("zh")
	if err != nil {
		t.Fatal(err)
	}
	e := behavior.Event{Time: "2025-09-01", Scene: "视频浏览", Context: "这是一个视频。", Result: "观看了 12 秒"}
	s, err := p.exec("record", newRecord(0, e))
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	double := tokens.CounterFunc(func(s string) int { calls++; return 2 * len(s) })
	for range 3 {
		if got, err := p.RecordCost(tokens.Approx{}, e); err != nil || got != (tokens.Approx{}).Count(s) {
			t.Fatalf("Approx cost %d, %v; want %d", got, err, tokens.Approx{}.Count(s))
		}
		if got, err := p.RecordCost(double, e); err != nil || got != 2*len(s) {
			t.Fatalf("CounterFunc cost %d, %v; want %d", got, err, 2*len(s))
		}
	}
	if calls != 3 {
		t.Errorf("a CounterFunc was called %d times for 3 costs, want 3 (not memoised)", calls)
	}
	e2 := e
	e2.Result = "观看了 13 秒，点赞"
	s2, _ := p.exec("record", newRecord(0, e2))
	if got, _ := p.RecordCost(tokens.Approx{}, e2); got != (tokens.Approx{}).Count(s2) {
		t.Errorf("a changed record kept the old cost: %d, want %d", got, tokens.Approx{}.Count(s2))
	}
}

// TestRecordsMatchTemplate wants the block of numbered records built in one
// builder to equal the records rendered by text/template and joined.
func TestRecordsMatchTemplate(t *testing.T) {
	events := []behavior.Event{
		{Time: "2025-09-01", Scene: "视频浏览", RawScene: "Video Browsing", Context: "c1", Result: "r1"},
		{Time: "2025-09-02", Scene: "直播间", Context: "", Result: "r2"},
		{Time: "2025-09-03", Scene: "广告推荐", Context: "c3\n多行", Result: ""},
	}
	for _, lang := range Languages() {
		p, err := LoadPrompts(lang)
		if err != nil {
			t.Fatal(err)
		}
		for n := range len(events) + 1 {
			var want []string
			for i, e := range events[:n] {
				s, err := p.exec("record", newRecord(i+1, e))
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, s)
			}
			got, err := p.Records(events[:n])
			if err != nil || got != strings.Join(want, "\n") {
				t.Errorf("%s, %d records: %q, %v; want %q", lang, n, got, err, strings.Join(want, "\n"))
			}
		}
	}
}

// TestRecordMemoConcurrent shares one Prompts between goroutines, as a
// run's workers do, and wants every window and block equal to a
// sequential render (run with -race to check the memo's locking).
func TestRecordMemoConcurrent(t *testing.T) {
	p, err := LoadPrompts("zh")
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := LoadPrompts("zh")
	if err != nil {
		t.Fatal(err)
	}
	hist := realisticHistory(200)
	w0, err := fresh.SelectWindow(tokens.Approx{}, hist, 4000)
	if err != nil {
		t.Fatal(err)
	}
	want, err := fresh.HistoryBlock(hist[w0.Start:], w0.Tokens)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			w, err := p.SelectWindow(tokens.Approx{}, hist, 4000)
			if err == nil && w != w0 {
				err = fmt.Errorf("window %+v, want %+v", w, w0)
			}
			if err == nil {
				var got string
				if got, err = p.HistoryBlock(hist[w.Start:], w.Tokens); err == nil && got != want {
					err = fmt.Errorf("block differs from a sequential render")
				}
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
