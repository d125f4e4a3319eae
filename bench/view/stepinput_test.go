package view_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/bench/view"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runstore"
)

const stepConfig = `name: steps
task: lifemem
seed: 5
backbone: {kind: sim}
lifelong:
  stream: similarity
  envs: [alfworld, hotpotqa]
  batch: 5
  tasks_per_env: 2
  methods:
    - {name: react, kind: react}
`

var (
	msgRE  = regexp.MustCompile(`(?s)<h4>([^<]*)</h4><pre class="msg">(.*?)</pre>`)
	linkRE = regexp.MustCompile(`<a class="step-input-link" href="([^"]*)"`)
	taskRE = regexp.MustCompile(`(?s)^<details class="episode"[^>]*><summary>(.*?) — score`)
)

// TestStepInputIsTheRecordedRequest runs a small lifelong run on the sim
// backbone and checks, for every agent step of every transcript, that the
// transcript page shows as the step's model input exactly the messages of
// the call the record holds for that step, and that this call is the
// step's: it carries the agent's earlier actions and, last, the
// observation the step answered.
func TestStepInputIsTheRecordedRequest(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "steps.yaml")
	if err := os.WriteFile(cfg, []byte(stepConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "runs")
	var stderr bytes.Buffer
	if code := bench.Main(context.Background(), []string{"run", "-c", cfg, "--out", root}, bench.IO{Out: io.Discard, Err: &stderr}); code != 0 {
		t.Fatalf("bench run: exit %d\n%s", code, stderr.String())
	}
	run := filepath.Join(root, "steps")
	recorded := map[string][]llm.Message{} // by the call's SampleID
	cr, err := runstore.OpenCalls(run)
	if err != nil {
		t.Fatal(err)
	}
	err = cr.Each(func(u string) bool { return strings.Contains(u, "/cells/") }, func(c runstore.Call) error {
		if c.Exchange != nil {
			recorded[c.Exchange.SampleID] = c.Exchange.Messages
		}
		return nil
	})
	cr.Close()
	if err != nil || len(recorded) == 0 {
		t.Fatalf("call record: %d calls, %v", len(recorded), err)
	}

	srv, err := view.NewServer(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	files, _ := filepath.Glob(filepath.Join(run, "lifelong", "react", "transcripts", "*", "*.jsonl"))
	if len(files) == 0 {
		t.Fatal("no transcripts")
	}
	checked := 0
	for _, f := range files {
		stage := filepath.Base(filepath.Dir(f))
		env := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		trs := readTranscripts(t, f)
		page := fetch(t, ts.URL+"/transcripts?r=steps&method=react&stage="+url.QueryEscape(stage))
		sec := page[strings.Index(page, "<h2>"+env+"</h2>"):]
		if i := strings.Index(sec[1:], "<h2>"); i >= 0 {
			sec = sec[:i+1]
		}
		eps := strings.Split(sec, `<details class="episode"`)[1:]
		if len(eps) != len(trs) {
			t.Fatalf("%s/%s: %d episodes on the page, %d in the file", stage, env, len(eps), len(trs))
		}
		for k, tr := range trs {
			ep := `<details class="episode"` + eps[k]
			if m := taskRE.FindStringSubmatch(ep); m == nil || html.UnescapeString(m[1]) != tr.Task {
				t.Fatalf("%s/%s episode %d is not task %s", stage, env, k, tr.Task)
			}
			turns := strings.Split(ep, `<li class="turn `)[1:]
			step := 0
			var actions []string
			for j, u := range tr.Turns {
				if u.Role != "agent" {
					continue
				}
				// The page links the step's input; the link's page and the
				// fragment the page's script fetches both show it.
				link := linkRE.FindStringSubmatch(turns[j])
				if link == nil {
					t.Fatalf("%s/%s %s step %d: no link to the step's input", stage, env, tr.Task, step)
				}
				if msgRE.MatchString(turns[j]) {
					t.Fatalf("%s/%s %s step %d: the input is inlined in the transcripts page", stage, env, tr.Task, step)
				}
				src := ts.URL + html.UnescapeString(link[1])
				part := fetch(t, src+"&part=1")
				if strings.Contains(part, "<html") {
					t.Fatalf("%s/%s %s step %d: the fragment is a whole page", stage, env, tr.Task, step)
				}
				if !strings.Contains(fetch(t, src), part) {
					t.Fatalf("%s/%s %s step %d: the input page does not hold the fragment", stage, env, tr.Task, step)
				}
				shown := msgRE.FindAllStringSubmatch(part, -1)
				want := recorded[fmt.Sprintf("react/%s/%s/%d", env, tr.Task, step)]
				if len(shown) == 0 || len(shown) != len(want) {
					t.Fatalf("%s/%s %s step %d: %d messages shown, %d recorded", stage, env, tr.Task, step, len(shown), len(want))
				}
				for i, m := range shown {
					if m[1] != want[i].Role || html.UnescapeString(m[2]) != want[i].Content {
						t.Fatalf("%s/%s %s step %d message %d differs from the recorded request", stage, env, tr.Task, step, i)
					}
				}
				// The call is this step's: the agent's actions so far, and
				// the observation just before the step, last.
				var asst []string
				for _, m := range want {
					if m.Role == "assistant" {
						asst = append(asst, m.Content)
					}
				}
				if strings.Join(asst, "\n") != strings.Join(actions, "\n") {
					t.Fatalf("%s/%s %s step %d: the recorded call's actions %q are not the transcript's %q", stage, env, tr.Task, step, asst, actions)
				}
				if last := want[len(want)-1]; last.Role != "user" || !strings.Contains(last.Content, tr.Turns[j-1].Text) {
					t.Fatalf("%s/%s %s step %d: the call's last message is not the observation before the step", stage, env, tr.Task, step)
				}
				actions = append(actions, u.Text)
				step++
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no agent step checked")
	}
	t.Logf("%d agent steps: each shows its recorded request", checked)

	// A step input asked for outside the run's cells, or of a step no call
	// made, is not found.
	for _, q := range []string{
		"method=react&stage=..&env=alfworld&task=x&occ=0&step=0",
		"method=react&stage=01&env=../../x&task=x&occ=0&step=0",
		"method=react&stage=01&env=alfworld&task=x&occ=-1&step=0",
		"method=react&stage=01&env=alfworld&task=no-such-task&occ=0&step=0",
	} {
		resp, err := http.Get(ts.URL + "/stepinput?r=steps&" + q)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("/stepinput?%s: %d, want 404", q, resp.StatusCode)
		}
	}

	// A static report leaves the recorded inputs out, and says so.
	if _, err := view.WriteStatic(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob(filepath.Join(run, "report", view.StaticDir, "transcripts*.html"))
	if len(pages) == 0 {
		t.Fatal("the static report wrote no transcript page")
	}
	b, err := os.ReadFile(pages[0])
	if err != nil || !strings.Contains(string(b), "A static report leaves the recorded inputs out") || strings.Contains(string(b), "step-calls") {
		t.Errorf("static transcripts %s: recorded inputs shown, or their absence not said (%v)", pages[0], err)
	}
}

func readTranscripts(t *testing.T, path string) []envs.Transcript {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []envs.Transcript
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var tr envs.Transcript
		if err := json.Unmarshal(line, &tr); err != nil {
			t.Fatal(err)
		}
		out = append(out, tr)
	}
	return out
}

func fetch(t *testing.T, u string) string {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %d\n%s", u, resp.StatusCode, b)
	}
	return string(b)
}
