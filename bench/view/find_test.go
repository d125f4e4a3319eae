package view

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// writeCompareRun writes a finished run of two methods answering the same
// two binary instances, with one redrawn answer in usage.jsonl and a Table 1
// CSV for the front page's headline.
func writeCompareRun(t *testing.T, dir string) {
	t.Helper()
	st, err := runstore.Open(dir)
	must(t, err)
	var order []string
	for _, m := range []string{"truncation", "pramem"} {
		for i, inst := range []string{"omni/u1/3/liked", "omni/u2/5/liked"} {
			s := runrecord.Sample{ID: m + "/" + inst, Method: m, Dataset: "omnibehavior", User: fmt.Sprintf("u%d", i+1), Field: "liked",
				Kind: "binary", Label: "1", Pred: fmt.Sprint(i), Valid: true, Attempts: 1, Raw: fmt.Sprintf("Answer: %s by %s", map[int]string{0: "No", 1: "Yes"}[i], m),
				Calls: 1, PromptTokens: 50 + i, CompletionTokens: 2, Prompt: "Will " + m + " like it? Instance " + inst}
			if m == "pramem" && i == 0 {
				s.Attempts, s.Calls = 2, 2
			}
			// The prompt reaches the viewer through the call record.
			must(t, st.AppendWith(s, []llm.CallRecord{{Purpose: "predict", Judged: true,
				Exchange: &llm.Exchange{Messages: []llm.Message{{Role: "user", Content: s.Prompt}}, Text: s.Raw}}}))
			order = append(order, s.ID)
		}
	}
	must(t, st.Compact(order))
	done := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	must(t, st.WriteJSON(runrecord.ManifestFile, runrecord.Manifest{Name: "cmp", Backbone: "sim", Methods: []string{"truncation", "pramem"},
		Samples: 4, Finished: &done, Config: map[string]any{"name": "cmp"}}))
	st.Close()
	// The store journals every call; the rejected draw of pramem/omni/u1/3/liked
	// is written here as the meter books it.
	journal := `{"unit":"sample:pramem/omni/u1/3/liked","calls":[{"purpose":"predict","usage":{"prompt_tokens":50,"completion_tokens":9},"judged":true,"invalid":true,"invalid_text":"I cannot tell yet.","sample_id":"omni/u1/3/liked"},{"purpose":"predict","usage":{"prompt_tokens":50,"completion_tokens":2},"judged":true,"sample_id":"omni/u1/3/liked"}]}` + "\n"
	f, err := os.OpenFile(filepath.Join(dir, "usage.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	must(t, err)
	_, err = f.WriteString(journal)
	must(t, err)
	f.Close()
	must(t, os.WriteFile(filepath.Join(dir, "config.yaml"), []byte("name: cmp\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(dir, "report"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "report", "table1.csv"), []byte("method,scene,metric,value,ci_low,ci_high\ntruncation,overall,f1,12.500000,1,20\npramem,overall,f1,31.250000,20,40\npramem,overall,acc,90,80,95\n"), 0o644))
}

func TestSearchSortCompare(t *testing.T) {
	h, root := newTestServer(t, 300)
	writeCompareRun(t, filepath.Join(root, "cmp"))
	tests := []struct {
		name, target string
		want, not    []string
	}{
		{"search matches the prompt", "/samples?r=demo&q=" + url.QueryEscape("SAMPLE 42."), []string{"truncation/u014/42", `<span id="total">1</span>`}, []string{"rag/u014/43"}},
		{"search matches the ID", "/samples?r=demo&q=" + url.QueryEscape("rag/u001/"), []string{"rag/u001/4"}, []string{"truncation/"}},
		{"search keeps the other filters", "/samples?r=demo&method=pramem&q=" + url.QueryEscape("rag/"), []string{`<span id="total">0</span>`}, nil},
		{"sorted column links the reverse order", "/samples?r=demo&sort=tokens", []string{`id="sort-tokens" href="/samples?desc=1&amp;r=demo&amp;sort=tokens">tokens ▲</a>`}, nil},
		{"search box keeps the query", "/samples?r=demo&q=abc", []string{`name="q" id="q" value="abc"`}, nil},
		{"binary labels in the data's terms", "/samples?r=cmp", []string{"<td>Yes</td><td>No</td>"}, []string{"<td>1</td><td>0</td>"}},
		{"instance side by side", "/instance?r=cmp&i=" + url.QueryEscape("omni/u1/3/liked"),
			[]string{`id="instance"`, ">truncation</a></th>", ">pramem</a></th>", "Answer: No by truncation", "Answer: No by pramem", "Will pramem like it?", `<b id="instance-label">Yes</b>`}, nil},
		{"unknown instance", "/instance?r=cmp&i=nope", []string{"no instance"}, nil},
		{"every draw shown", "/sample?r=cmp&id=" + url.QueryEscape("pramem/omni/u1/3/liked"),
			[]string{`id="sample-draws"`, "I cannot tell yet.", `draw 2</b> <span class="verdict">accepted`, `id="sample-instance"`}, nil},
		{"front page status and headline", "/", []string{`<td class="status">finished</td>`, "best Overall F1 31.25 (pramem)", `<td class="status">running or stopped</td>`}, nil},
	}
	for _, tt := range tests {
		_, body := get(t, h, tt.target)
		for _, w := range tt.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: %s lacks %q", tt.name, tt.target, w)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(body, n) {
				t.Errorf("%s: %s has %q", tt.name, tt.target, n)
			}
		}
	}
	// Sorting by tokens, descending: the most tokens come first.
	_, body := get(t, h, "/samples?r=demo&sort=tokens&desc=1")
	if i, j := strings.Index(body, "<td>109</td>"), strings.Index(body, "<td>103</td>"); i < 0 || j >= 0 && j < i {
		t.Errorf("sort=tokens&desc=1: 109 tokens at %d, 103 at %d", i, j)
	}
}

var (
	inlineScript  = regexp.MustCompile(`<script(\s[^>]*)?>`)
	handlerAttr   = regexp.MustCompile(`<[a-zA-Z][^>]*\son[a-z]+\s*=`)
	scriptWithSrc = regexp.MustCompile(`\ssrc="[^"]+"`)
)

// noInlineScript fails when a page carries script other than a src'd file:
// a <script> without src or an on*= handler attribute.
func noInlineScript(t *testing.T, name, body string) {
	t.Helper()
	for _, m := range inlineScript.FindAllString(body, -1) {
		if !scriptWithSrc.MatchString(m) {
			t.Errorf("%s: inline script %q", name, m)
		}
	}
	if m := handlerAttr.FindString(body); m != "" {
		t.Errorf("%s: event handler attribute in %q", name, m)
	}
}

func TestNoInlineScript(t *testing.T) {
	h, root := newTestServer(t, 30)
	writeCompareRun(t, filepath.Join(root, "cmp"))
	for _, target := range []string{"/", "/run?r=demo", "/samples?r=demo", "/sample?r=demo&id=" + url.QueryEscape("rag/u001/4"),
		"/instance?r=cmp&i=" + url.QueryEscape("omni/u1/3/liked"), "/memory?r=demo&method=pramem&user=u001", "/sweep?s=sw", "/run?r=nope"} {
		_, body := get(t, h, target)
		noInlineScript(t, target, body)
		if !strings.Contains(body, `<script src="/static/viewer.js" defer></script>`) {
			t.Errorf("%s: no viewer.js", target)
		}
	}
	code, js := get(t, h, "/static/viewer.js")
	if code != 200 || !strings.Contains(js, "addEventListener") {
		t.Errorf("/static/viewer.js: %d %q", code, js[:min(len(js), 80)])
	}
	// The static report too, with the script written beside its pages.
	index, err := WriteStatic(t.Context(), filepath.Join(root, "demo"))
	must(t, err)
	pages, _ := filepath.Glob(filepath.Join(filepath.Dir(index), StaticDir, "*.html"))
	for _, p := range append(pages, index) {
		b, err := os.ReadFile(p)
		must(t, err)
		noInlineScript(t, filepath.Base(p), string(b))
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(index), StaticDir, ScriptName)); err != nil {
		t.Errorf("static report: %v", err)
	}
}

// A lifelong run plans episodes, not samples: the front page says so.
func TestPlannedText(t *testing.T) {
	dir := t.TempDir()
	if got := plannedText(dir, runrecord.Manifest{Samples: 12}); got != "12" {
		t.Errorf("planned = %q, want 12", got)
	}
	must(t, os.MkdirAll(filepath.Join(dir, "lifelong"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "lifelong", "run.json"), []byte("{}"), 0o644))
	if got := plannedText(dir, runrecord.Manifest{}); !strings.Contains(got, "lifelong") {
		t.Errorf("planned = %q for a lifelong run", got)
	}
}

func TestEpisodeInputs(t *testing.T) {
	e := episodeOf(envTranscript())
	if e.Inputs[0] != "" || !strings.Contains(e.Inputs[1], "[env] You are in a room.") || strings.Contains(e.Inputs[1], "go to desk") {
		t.Errorf("inputs %q", e.Inputs)
	}
	if !strings.Contains(e.Inputs[3], "[agent] go to desk 1") {
		t.Errorf("the second step's input lacks the first action: %q", e.Inputs[3])
	}
}

func envTranscript() envs.Transcript {
	return envs.Transcript{Env: "alfworld", Task: "t", Turns: []envs.Turn{
		{Role: "env", Text: "You are in a room."}, {Role: "agent", Text: "go to desk 1"},
		{Role: "env", Text: "You arrive at the desk."}, {Role: "agent", Text: "look"},
	}}
}

func TestHeadline(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "metrics.csv"), []byte("method,field,metric,value\nrag,r,accuracy_valid,50\nrag,r,accuracy_all,43.5\ntruncation,r,accuracy_all,41\n"), 0o644))
	if got := headline(dir); got != "best accuracy 43.50 (rag)" {
		t.Errorf("headline from metrics.csv = %q", got)
	}
	must(t, os.WriteFile(filepath.Join(dir, "lifemem_table2.csv"), []byte("method,kind,category,metric,value,unit\nreact,react,Avg,op,6.5,%\nlifemem,lifemem,Avg,op,44,%\nlifemem,lifemem,Embodied,op,90,%\nlifemem,lifemem,Avg,bwt_percent,95,%\n"), 0o644))
	if got := headline(dir); got != "best average OP 44.00 (lifemem)" {
		t.Errorf("headline from lifemem_table2.csv = %q", got)
	}
}
