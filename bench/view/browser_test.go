package view_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/bench/view"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// Two small runs on the sim backbone: behaviour prediction with PraMem
// (samples, prompts, per-round memory) and a lifelong run (transcripts,
// LifeMem clusters and rules).
const (
	predictConfig = `name: viewdemo
task: movielens
seed: 5
dataset:
  name: movielens
  test_per_user: 4
  max_users: 3
  synthetic: {users: 12, movies: 800, seed: 3}
backbone: {kind: sim}
prompt: {language: en}
methods:
  - {name: truncation, kind: truncation, history_tokens: 4000}
  - {name: pramem, kind: pramem, pramem: {rounds: 3}}
report: {bootstrap: 50}
`
	lifelongConfig = `name: viewlife
task: lifemem
seed: 5
backbone: {kind: sim}
lifelong:
  stream: similarity
  envs: [alfworld, hotpotqa]
  batch: 5
  tasks_per_env: 3
  methods:
    - {name: react, kind: react}
    - {name: lifemem, kind: lifemem, top_k: 2}
`
)

func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("skipping: no chromium on PATH (apt-get install chromium, or scripts/ci-chromium.sh)")
	return ""
}

// makeRuns runs both configs into a fresh folder with the bench CLI.
func makeRuns(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "runs")
	for name, cfg := range map[string]string{"predict.yaml": predictConfig, "life.yaml": lifelongConfig} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		if code := bench.Main(context.Background(), []string{"run", "-c", path, "--out", out}, bench.IO{Out: &stdout, Err: &stderr}); code != 0 {
			t.Fatalf("bench run %s: exit %d\n%s", name, code, stderr.String())
		}
	}
	return out
}

func browser(t *testing.T, bin string) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1280, 900))
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	// A generous bound that only catches a hang.
	ctx, tcancel := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { tcancel(); cancel(); acancel() })
	return ctx
}

// shots saves screenshots under the test's temporary folder, and also
// under $VIEW_SCREENSHOTS when set (how docs/ gets its picture).
type shots struct {
	t   *testing.T
	dir string
}

func (s shots) take(ctx context.Context, name string) {
	s.t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		s.t.Fatalf("screenshot %s: %v", name, err)
	}
	for _, d := range []string{s.dir, os.Getenv("VIEW_SCREENSHOTS")} {
		if d != "" {
			if err := os.WriteFile(filepath.Join(d, name+".png"), png, 0o644); err != nil {
				s.t.Fatal(err)
			}
		}
	}
}

// stepTimeout bounds one browser step, so a missing element fails fast
// with its selector rather than at the test's overall bound.
const stepTimeout = 30 * time.Second

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel), chromedp.NodeVisible))
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible), chromedp.WaitReady(chromedp.CSS("main"))); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
}

// TestViewerClickThrough loads the viewer on two small runs and clicks run
// → table → sample → memory, then transcripts and the lifelong memory,
// checking what each page shows against the run's files.
func TestViewerClickThrough(t *testing.T) {
	bin := chromium(t)
	root := makeRuns(t)
	srv, err := view.NewServer(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	ctx := browser(t, bin)
	sh := shots{t, t.TempDir()}
	run := filepath.Join(root, "viewdemo")

	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatal(err)
	}
	sh.take(ctx, "home")
	click(t, ctx, `#runs a[href*="viewdemo"]`)
	man, err := runrecord.ReadManifest(filepath.Join(run, runrecord.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if h := text(t, ctx, "h1"); !strings.Contains(h, man.Name) {
		t.Errorf("run page title %q lacks the manifest's name %q", h, man.Name)
	}
	sh.take(ctx, "run")

	// A table: its rows are the report's.
	click(t, ctx, `#tables a[href*="f=table.md"]`)
	md, err := os.ReadFile(filepath.Join(run, "report", "table.md"))
	if err != nil {
		t.Fatal(err)
	}
	tbl := text(t, ctx, "#table")
	for _, m := range man.Methods {
		if !strings.Contains(string(md), m) || !strings.Contains(tbl, m) {
			t.Errorf("table page lacks method %s of table.md", m)
		}
	}
	sh.take(ctx, "table")

	// The sample list, then the first PraMem sample.
	click(t, ctx, "#nav-samples")
	samples, err := runrecord.ReadSamples(filepath.Join(run, runrecord.SamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	if got := text(t, ctx, "#total"); got != fmt.Sprint(len(samples)) {
		t.Errorf("list shows %s samples, samples.jsonl has %d", got, len(samples))
	}
	sh.take(ctx, "samples")
	var want runrecord.Sample
	for _, s := range samples {
		if s.Method == "pramem" {
			want = s
			break
		}
	}
	click(t, ctx, fmt.Sprintf(`a.sample-link[href*=%q]`, "pramem%2F"))
	if got := text(t, ctx, "#sample-id"); got != want.ID {
		t.Errorf("sample page shows %q, want the first pramem sample %q", got, want.ID)
	}
	if got := text(t, ctx, "#sample-label"); got != want.Label {
		t.Errorf("label %q, want %q", got, want.Label)
	}
	prompt := promptOf(t, run, want.ID)
	if got := text(t, ctx, "#sample-prompt"); strings.TrimSpace(got) != strings.TrimSpace(prompt) || prompt == "" {
		t.Errorf("prompt on the page (%d chars) differs from the call record (%d chars)", len(got), len(prompt))
	}
	if got := text(t, ctx, "#sample-raw"); strings.TrimSpace(got) != strings.TrimSpace(want.Raw) {
		t.Errorf("response %q, want %q", got, want.Raw)
	}
	sh.take(ctx, "sample")
	// Every draw, from the call record: as many as the sample's attempts,
	// the last one the response; its link opens that call on the calls page.
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#sample-draws li.draw").length`)); err != nil || n != want.Attempts {
		t.Errorf("%d draws shown, the sample took %d (%v)", n, want.Attempts, err)
	}
	if got := text(t, ctx, "#sample-draws li.draw:last-child pre"); strings.TrimSpace(got) != strings.TrimSpace(want.Raw) {
		t.Errorf("last draw %q, want the response %q", got, want.Raw)
	}
	click(t, ctx, "#sample-draws li.draw:last-child a.call")
	if got := text(t, ctx, "#calls li:target details[open] pre"); strings.TrimSpace(got) == "" {
		t.Errorf("the draw's call did not open on the calls page")
	}
	sh.take(ctx, "sample-call")

	// The memory PraMem built for the first user, round by round.
	click(t, ctx, "#nav-memory")
	click(t, ctx, `p.pills a[href^="/memory?method=pramem&"]`)
	memFiles, _ := filepath.Glob(filepath.Join(run, "memory", "pramem", "*.json"))
	if len(memFiles) == 0 {
		t.Fatal("the run stored no PraMem memory")
	}
	var mem struct{ Text string }
	b, _ := os.ReadFile(memFiles[0])
	json.Unmarshal(b, &mem)
	if got := text(t, ctx, "#memory-text"); strings.TrimSpace(got) != strings.TrimSpace(mem.Text) {
		t.Errorf("memory text differs from %s", memFiles[0])
	}
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("details.round").length`)); err != nil || n == 0 {
		t.Errorf("no practice rounds shown (%d, %v)", n, err)
	}
	sh.take(ctx, "memory")

	// The lifelong run: transcripts step by step, then LifeMem's memory.
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatal(err)
	}
	click(t, ctx, `#runs a[href*="viewlife"]`)
	click(t, ctx, "#nav-transcripts")
	life := filepath.Join(root, "viewlife")
	stages, _ := filepath.Glob(filepath.Join(life, "lifelong", "*", "transcripts", "*", "*.jsonl"))
	if len(stages) == 0 {
		t.Fatal("the lifelong run wrote no transcripts")
	}
	summary := text(t, ctx, "details.episode summary")
	turns := text(t, ctx, "details.episode ol.turns")
	found := false
	for _, f := range stages {
		b, _ := os.ReadFile(f)
		var tr envs.Transcript
		if json.Unmarshal(bytes.SplitN(b, []byte("\n"), 2)[0], &tr) == nil && strings.HasPrefix(summary, tr.Task) &&
			len(tr.Turns) > 0 && strings.Contains(turns, strings.TrimSpace(tr.Turns[0].Text[:min(40, len(tr.Turns[0].Text))])) {
			found = true
		}
	}
	if !found {
		t.Errorf("first episode on the page (%q) matches no transcript file", summary)
	}
	sh.take(ctx, "transcripts")
	// The first agent step's model input, fetched when the step is opened:
	// the messages as sent, the first observation among them.
	click(t, ctx, "details.episode[open] details.step-calls summary")
	input := text(t, ctx, "details.episode[open] details.step-calls[data-loaded] .step-call")
	var first envs.Transcript
	for _, f := range stages {
		b, _ := os.ReadFile(f)
		var tr envs.Transcript
		if json.Unmarshal(bytes.SplitN(b, []byte("\n"), 2)[0], &tr) == nil && strings.HasPrefix(summary, tr.Task) {
			first = tr
		}
	}
	if len(first.Turns) == 0 || !strings.Contains(input, "system") || !strings.Contains(input, strings.TrimSpace(first.Turns[0].Text[:min(40, len(first.Turns[0].Text))])) {
		t.Errorf("the first step's input lacks the system message or the first observation:\n%s", input)
	}
	sh.take(ctx, "transcript-step-input")
	click(t, ctx, "#nav-memory")
	click(t, ctx, `p.pills a[href^="/lifelong?method=lifemem&"]`)
	if d := text(t, ctx, "#lifemem-describe"); !strings.Contains(d, "trajectories in") || !strings.Contains(d, "construction cost") {
		t.Errorf("LifeMem listing lacks its totals:\n%s", d)
	}
	sh.take(ctx, "lifelong-memory")
	t.Logf("screenshots in %s", sh.dir)
}

// promptOf is sample id's prompt as its call record holds it.
func promptOf(t *testing.T, run, id string) string {
	t.Helper()
	cr, err := runstore.OpenCalls(run)
	if err != nil {
		t.Fatal(err)
	}
	defer cr.Close()
	calls, err := cr.Of(runstore.SampleUnit(id))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := runstore.SamplePrompt(calls)
	return p
}

// TestStaticReportInBrowser opens report/index.html from disk, checks a
// figure loads, then follows the samples list to a sample's inline details.
func TestStaticReportInBrowser(t *testing.T) {
	bin := chromium(t)
	root := makeRuns(t)
	run := filepath.Join(root, "viewdemo")
	index, err := view.WriteStatic(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	ctx := browser(t, bin)
	sh := shots{t, t.TempDir()}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+index)); err != nil {
		t.Fatal(err)
	}
	// Figures load lazily: bring the first into view and wait for it.
	pctx, pcancel := context.WithTimeout(ctx, stepTimeout)
	w, err := chromedp.Run(pctx, chromedp.Poll[int](`(function(){var i=document.querySelector("#figures img");if(!i)return -1;i.scrollIntoView();return i.complete&&i.naturalWidth>0?i.naturalWidth:0})()`))
	pcancel()
	if err != nil || w <= 0 {
		t.Errorf("first figure did not load from disk (naturalWidth %d, %v)", w, err)
	}
	sh.take(ctx, "static-index")
	click(t, ctx, "#nav-samples")
	click(t, ctx, "a.sample-link")
	// The page's script opens the details on the hash change.
	if got := text(t, ctx, "details[open] #sample-id"); !strings.Contains(got, "/") {
		t.Errorf("the opened details show sample %q", got)
	}
	// The filter narrows the rows of the page in place.
	hidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(function(){
		var sel = document.querySelector('select[name="outcome"]');
		sel.value = "correct";
		sel.form.dispatchEvent(new Event("change"));
		var rows = Array.from(document.querySelectorAll("tr.sample"));
		return rows.every(function(r){ return r.hidden === (r.dataset.outcome !== "correct"); });
	})()`))
	if err != nil || !hidden {
		t.Errorf("the outcome filter did not hide exactly the other rows (%v)", err)
	}
	sh.take(ctx, "static-samples")
}

// TestViewerSearchSortInstance searches the sample list, sorts it by a
// column and opens one instance's page with every method's answer.
func TestViewerSearchSortInstance(t *testing.T) {
	bin := chromium(t)
	root := makeRuns(t)
	srv, err := view.NewServer(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	ctx := browser(t, bin)
	sh := shots{t, t.TempDir()}
	run := filepath.Join(root, "viewdemo")
	samples, err := runrecord.ReadSamples(filepath.Join(run, runrecord.SamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	nPramem := 0
	for _, s := range samples {
		if strings.HasPrefix(s.ID, "pramem/") {
			nPramem++
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/samples?r=viewdemo")); err != nil {
		t.Fatal(err)
	}
	// A submit's or a click's WaitReady can see the old page still: wait for the new URL.
	// The poll's script can run while the old page goes away ("Cannot
	// find context with specified id"): that is the navigation under way,
	// so poll again until the step's time is up.
	waitURL := func(frag string) {
		deadline := time.Now().Add(stepTimeout)
		for {
			pctx, cancel := context.WithTimeout(ctx, time.Until(deadline))
			_, err := chromedp.Run(pctx, chromedp.Poll[bool](fmt.Sprintf(`document.readyState==="complete"&&location.search.indexOf(%q)>=0`, frag)))
			cancel()
			if err == nil {
				return
			}
			if time.Now().After(deadline) || !strings.Contains(err.Error(), "context with specified id") && !strings.Contains(err.Error(), "context was destroyed") {
				t.Fatalf("no page with %s: %v", frag, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	// Search: the IDs of one method.
	sctx, scancel := context.WithTimeout(ctx, stepTimeout)
	err = chromedp.Do(sctx, chromedp.SendKeys("#q", "pramem/", chromedp.NodeVisible), chromedp.Submit("#q"), chromedp.WaitReady(chromedp.CSS("#total")))
	scancel()
	if err != nil {
		t.Fatal(err)
	}
	waitURL("q=pramem")
	if got := text(t, ctx, "#total"); got != fmt.Sprint(nPramem) {
		t.Errorf("search pramem/ lists %s samples, samples.jsonl has %d", got, nPramem)
	}
	// Sort by tokens, then the other way round.
	tokens := func() []int {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`Array.from(document.querySelectorAll("tr.sample")).map(function(r){return +r.dataset.tokens})`))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	click(t, ctx, "#sort-tokens")
	waitURL("sort=tokens")
	up := tokens()
	click(t, ctx, "#sort-tokens")
	waitURL("desc=1")
	down := tokens()
	if len(up) != len(down) {
		t.Fatalf("%d rows ascending, %d descending", len(up), len(down))
	}
	for i := 1; i < len(up); i++ {
		if up[i] < up[i-1] || down[i] > down[i-1] {
			t.Fatalf("not sorted by tokens: ascending %v, descending %v", up, down)
		}
	}
	if len(up) > 1 && up[0] == up[len(up)-1] {
		t.Logf("every sample has %d tokens: the sort check is weak here", up[0])
	}
	if got := text(t, ctx, "#total"); got != fmt.Sprint(nPramem) {
		t.Errorf("sorting lost the search: %s samples", got)
	}
	sh.take(ctx, "samples-search-sort")
	// One instance, every method side by side.
	click(t, ctx, "a.instance-link")
	heads := text(t, ctx, "#instance tr")
	for _, m := range []string{"truncation", "pramem"} {
		if !strings.Contains(heads, m) {
			t.Errorf("instance page lacks method %s: %q", m, heads)
		}
	}
	sh.take(ctx, "instance")
}
