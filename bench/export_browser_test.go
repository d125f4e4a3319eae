package bench_test

// An exported Inspect log opened in Inspect's own published log viewer
// (npm @metrevals/inspect-log-viewer, bundled by scripts/ci-chromium.sh
// into export/inspectview/dist) in headless Chromium: the sample table
// shows a sample's ID with the model's answer.

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

const viewerDir = "../export/inspectview"

func TestExportOpensInInspectViewer(t *testing.T) {
	var browser string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		t.Skip("skipping: no chromium on PATH (scripts/ci-chromium.sh installs it)")
	}
	if _, err := os.Stat(filepath.Join(viewerDir, "dist", "main.js")); err != nil {
		t.Skip("skipping: Inspect's log viewer is not built (scripts/ci-chromium.sh builds export/inspectview/dist)")
	}
	tmp := t.TempDir()
	benchMain(t, "run", "-c", "../configs/smoke.yaml", "--out", tmp, "--set", "backbone.kind=sim",
		"--set", "dataset.max_users=2", "--set", "dataset.test_per_user=2", "--set", "report.bootstrap=50")
	out := filepath.Join(tmp, "x")
	benchMain(t, "export", filepath.Join(tmp, "smoke"), "--format", "inspect", "--out", out)

	// The sample to find: the first of the truncation log.
	b, err := os.ReadFile(filepath.Join(out, "inspect", "smoke_truncation.json"))
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Samples []struct {
			ID     string
			Scores map[string]struct{ Answer string }
		}
	}
	if err := json.Unmarshal(b, &log); err != nil || len(log.Samples) == 0 {
		t.Fatalf("exported log: %v (%d samples)", err, len(log.Samples))
	}
	id, answer := log.Samples[0].ID, log.Samples[0].Scores["memharness"].Answer

	mux := http.NewServeMux()
	mux.Handle("/logs/", http.StripPrefix("/logs/", http.FileServer(http.Dir(filepath.Join(out, "inspect")))))
	mux.Handle("/", http.FileServer(http.Dir(viewerDir)))
	ts := httptest.NewServer(mux)
	defer ts.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox)
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer acancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, tcancel := context.WithTimeout(ctx, 2*time.Minute)
	defer tcancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/index.html#/logs/logs/smoke_truncation.json")); err != nil {
		t.Fatal(err)
	}
	// The sample list's row of the sample: its ID cell and answer cell.
	js := `(function(){var id = Array.from(document.querySelectorAll(".sample-id")).find(function(e){return e.innerText.trim() === ` + strconv.Quote(id) + `});` +
		`if (!id) return ""; var a = id.parentElement.querySelector(".sample-answer"); return a ? a.innerText.trim() : "(no answer cell)"})()`
	got, err := chromedp.Run(ctx, chromedp.Poll[string](js))
	if err == nil && got != answer {
		t.Fatalf("the viewer's row of sample %s shows answer %q, want %q", id, got, answer)
	}
	if err != nil {
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
		if len(text) > 2000 {
			text = text[:2000]
		}
		t.Fatalf("the viewer shows no row with sample %s and answer %q (%v); the page reads:\n%s", id, answer, err, text)
	}
}
