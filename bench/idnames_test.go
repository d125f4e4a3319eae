package bench

import (
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench/view"
	"github.com/memharness/memharness/datasets/synth"
	"github.com/memharness/memharness/runrecord"
)

// hostileUserIDs are user IDs that used to share a file (x..y and x_y,
// A and a on a case-insensitive filesystem), or could not be a file name
// (a NUL byte, 300 bytes, a slash).
var hostileUserIDs = []string{"x..y", "x_y", "A", "a", "has/slash", "nul\x00byte", strings.Repeat("long", 75), "plain_7", ".hidden", "sp ace"}

// omniWithUsers writes synthetic OmniBehavior users renamed to ids.
func omniWithUsers(t *testing.T, ids []string) string {
	t.Helper()
	data := t.TempDir()
	if err := synth.WriteOmniBehavior(data, synth.OmniBehaviorConfig{Users: len(ids), Seed: 3}); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(data, "zh", "user_*.json"))
	slices.Sort(files)
	if len(files) != len(ids) {
		t.Fatalf("%d user files for %d ids", len(files), len(ids))
	}
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		for _, v := range doc {
			out, _ := json.Marshal(map[string]json.RawMessage{ids[i]: v})
			if err := os.WriteFile(f, out, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return data
}

// Every user ID gets its own memory file and checkpoint folder, works on a
// re-run, and shows in `bench memory show` and the viewer.
func TestUserIDsMapToDistinctFiles(t *testing.T) {
	data := omniWithUsers(t, hostileUserIDs)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ids.yaml")
	os.WriteFile(cfg, []byte(`name: ids
task: omnibehavior
dataset: {name: omnibehavior, path: `+data+`, test_per_user: 6}
backbone: {kind: sim}
methods:
  - {name: summary, kind: summary}
  - {name: pramem, kind: pramem, pramem: {rounds: 1}}
report: {bootstrap: 5}
`), 0o644)
	for pass := 1; pass <= 2; pass++ {
		out, code := runCLI(t, "run", "-c", cfg, "--out", dir)
		if code != 0 {
			t.Fatalf("pass %d: exit %d:\n%s", pass, code, out)
		}
	}
	run := filepath.Join(dir, "ids")
	samples, err := runrecord.ReadSamples(filepath.Join(run, runrecord.SamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	users := map[string]bool{}
	for _, s := range samples {
		users[s.User] = true
		if s.Error != "" {
			t.Errorf("sample %q: %s", s.ID, s.Error)
		}
	}
	for _, id := range hostileUserIDs {
		if !users[id] {
			t.Errorf("user %q has no sample", id)
		}
	}
	for _, m := range []string{"summary", "pramem"} {
		files, _ := filepath.Glob(filepath.Join(run, "memory", m, "*.json"))
		if len(files) != len(hostileUserIDs) {
			t.Errorf("%s: %d memory files for %d users: %v", m, len(files), len(hostileUserIDs), files)
		}
	}
	ckpts, _ := os.ReadDir(filepath.Join(run, "checkpoints"))
	if len(ckpts) != len(hostileUserIDs) {
		t.Errorf("%d checkpoint folders for %d users", len(ckpts), len(hostileUserIDs))
	}

	out, errOut, code := runCLISplit(t, "memory", "show", run, "--method", "summary", "--json")
	if code != 0 {
		t.Fatalf("memory show: exit %d: %s", code, errOut)
	}
	var shown struct {
		Users []struct {
			User string `json:"user"`
		} `json:"users"`
	}
	if err := json.Unmarshal([]byte(out), &shown); err != nil {
		t.Fatalf("memory show --json: %v\n%s", err, out)
	}
	var names []string
	for _, u := range shown.Users {
		names = append(names, u.User)
	}
	for _, id := range hostileUserIDs {
		if !slices.Contains(names, id) {
			t.Errorf("memory show lists %q, lacks %q", names, id)
		}
		if _, errOut, code := runCLISplit(t, "memory", "show", run, "--method", "pramem", "--user", id); code != 0 {
			t.Errorf("memory show --user %q: exit %d: %s", id, code, errOut)
		}
	}

	srv, err := view.NewServer(run, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := srv.Handler()
	for _, id := range hostileUserIDs {
		req := httptest.NewRequest("GET", "/memory?r=&method=pramem&user="+url.QueryEscape(id), nil)
		req.Host = "127.0.0.1:8080"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), "round") {
			t.Errorf("viewer memory page of %q: %d\n%.300s", id, rec.Code, rec.Body.String())
		}
	}
}

// A user the selection keeps but that draws no sample (here: no binary
// question among its draws) is a data warning like a dropped file: on the
// console, in the manifest, the report and the suite summary.
func TestUserWithoutSamplesIsAWarning(t *testing.T) {
	data := omniWithUsers(t, hostileUserIDs)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "empty.yaml")
	os.WriteFile(cfg, []byte(`name: empty
task: omnibehavior
dataset: {name: omnibehavior, path: `+data+`, test_per_user: 2, questions: binary}
backbone: {kind: sim}
methods:
  - {name: truncation, kind: truncation}
report: {bootstrap: 5}
`), 0o644)
	out, code := runCLI(t, "suite", "--out", dir, cfg)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	run := filepath.Join(dir, "empty")
	samples, err := runrecord.ReadSamples(filepath.Join(run, runrecord.SamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	sampled := map[string]bool{}
	for _, s := range samples {
		sampled[s.User] = true
	}
	man, err := runrecord.ReadManifest(filepath.Join(run, runrecord.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	idx, _ := os.ReadFile(filepath.Join(run, "report", "index.md"))
	missing := 0
	for _, id := range hostileUserIDs {
		if sampled[id] {
			continue
		}
		missing++
		q := strconv.Quote(id)
		if !strings.Contains(out, "warning: user "+q+": no samples") {
			t.Errorf("console lacks the warning for %s:\n%s", q, out)
		}
		if !strings.Contains(out, "data warning: empty: user "+q) {
			t.Errorf("suite summary lacks %s:\n%s", q, out)
		}
		if !slices.ContainsFunc(man.DataWarnings, func(w string) bool { return strings.HasPrefix(w, "user "+q+": no samples") }) {
			t.Errorf("manifest warnings %q lack %s", man.DataWarnings, q)
		}
		if !strings.Contains(string(idx), "no samples") {
			t.Errorf("report index lacks the warning for %s", q)
		}
	}
	if missing == 0 {
		t.Fatal("every user drew a binary question; the test needs one that does not")
	}
}
