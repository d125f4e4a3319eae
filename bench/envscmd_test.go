package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs/all"
)

// runCLISplit runs the CLI and returns stdout and stderr apart.
func runCLISplit(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(context.Background(), args, IO{Out: &out, Err: &errb, Getenv: func(string) string { return "" }})
	return out.String(), errb.String(), code
}

func TestEnvsCheckDataRoot(t *testing.T) {
	empty := t.TempDir()
	missing := filepath.Join(t.TempDir(), "nonexistent")
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"missing root fails naming it", []string{"envs", "check", "--data", missing}, 1,
			[]string{missing, "no such data root"}},
		{"root that is a file", []string{"envs", "check", "--data", filepath.Join("testdata", "sweep_report", "README")}, 1,
			[]string{"not a directory"}},
		{"empty root checks nothing", []string{"envs", "check", "--data", empty}, 1,
			[]string{"nothing checked", empty, "bench data fetch alfworld"}},
		{"one env without data says how to fetch it", []string{"envs", "check", "taubench-airline", "--data", empty, "--json"}, 1,
			[]string{`"install":"bench data fetch taubench-airline"`, `"skipped":`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, code := runCLI(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d:\n%s", code, tc.code, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestEnvsReplayListsTasks(t *testing.T) {
	for _, e := range all.Entries() {
		t.Run(e.Name, func(t *testing.T) {
			s, err := e.OpenEmbedded(all.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, task := range s.Tasks() {
				want = append(want, task.ID)
			}
			closeSuite(s)
			out, errOut, code := runCLISplit(t, "envs", "replay", e.Name)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if got := strings.TrimSuffix(out, "\n"); got != strings.Join(want, "\n") {
				t.Errorf("listed:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
			}
			// A near miss: the first ID with its last character changed.
			typo := want[0][:len(want[0])-1] + "#"
			out, code = runCLI(t, "envs", "replay", e.Name, typo)
			if code != 1 || !strings.Contains(out, "no task "+strconvQuote(typo)) || !strings.Contains(out, "closest: "+want[0]) {
				t.Errorf("unknown ID: exit %d, want the closest ID %s first:\n%s", code, want[0], out)
			}
		})
	}
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

func TestEnvsHelpDescribesTheDataRoot(t *testing.T) {
	out, errOut, code := runCLISplit(t, "envs", "--help")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if strings.Contains(out, "shared") {
		t.Errorf("help sends users to a folder they do not have:\n%s", out)
	}
	for _, e := range all.Entries() {
		if !strings.Contains(out, e.DataSubdir+"/") {
			t.Errorf("help does not show where %s's data goes:\n%s", e.Name, out)
		}
	}
}

// TestEnvsCheckSkipsMissingPrerequisite hides Chromium whatever this machine
// has: MiniWoB++ is skipped with the install command, the others pass, and
// the check exits 0; asked for alone, it checks nothing and fails.
func TestEnvsCheckSkipsMissingPrerequisite(t *testing.T) {
	t.Setenv("MEMHARNESS_CHROMIUM", filepath.Join(t.TempDir(), "no-chromium"))
	out, errOut, code := runCLISplit(t, "envs", "check", "--json")
	if code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, out, errOut)
	}
	var skipped []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct {
			Env, Skipped, Install string
			Failed                int
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("bad line %q: %v", line, err)
		}
		if r.Skipped != "" {
			skipped = append(skipped, r.Env)
			if r.Env == "miniwob" && !strings.Contains(r.Install, "chromium") {
				t.Errorf("install command %q does not install chromium", r.Install)
			}
		}
	}
	if strings.Join(skipped, ",") != "miniwob" {
		t.Errorf("skipped %v, want only miniwob", skipped)
	}
	if !strings.Contains(errOut, "1 skipped (miniwob)") {
		t.Errorf("summary does not name the skipped environment: %s", errOut)
	}
	text, code := runCLI(t, "envs", "check", "miniwob")
	if code != 1 || !strings.Contains(text, "miniwob              skipped: miniwob needs chromium") ||
		!strings.Contains(text, "install with: ") || !strings.Contains(text, "nothing checked") {
		t.Errorf("exit %d:\n%s", code, text)
	}
}

// envs list --json prints one JSON object per environment.
func TestEnvsListJSON(t *testing.T) {
	stdout, _, code := runCLISplit(t, "envs", "list", "--json")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != 0 || len(lines) < 10 {
		t.Fatalf("envs list --json: exit %d\n%s", code, stdout)
	}
	for _, l := range lines {
		var v struct {
			Env  string `json:"env"`
			Data string `json:"data"`
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil || v.Env == "" {
			t.Errorf("not an environment's JSON line: %q (%v)", l, err)
		}
	}
}
