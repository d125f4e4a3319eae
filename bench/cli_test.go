package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memharness/memharness/bench/completion"
	"github.com/memharness/memharness/llm/cache"
	"github.com/memharness/memharness/runrecord"
)

func TestVersionFlag(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-version"}, {"version"}} {
		out, errOut, code := runCLISplit(t, args...)
		if code != 0 || !strings.HasPrefix(out, "bench "+Version) || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

func TestVersionLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"no build info", nil, "bench " + Version},
		{"test binary", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			"bench " + Version + " (commit unknown, go1.26.8)"},
		{"checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "4bcaf1d0"}, {Key: "vcs.time", Value: "2026-12-01T19:00:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			"bench " + Version + " (commit 4bcaf1d0 2026-12-01T19:00:00Z (modified), go1.26.8)"},
		{"go install at a tag", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v9.9.9"}},
			"bench " + Version + " (module v9.9.9, commit unknown, go1.26.8)"},
		{"same tag as the harness", &debug.BuildInfo{Main: debug.Module{Version: "v" + Version}},
			"bench " + Version + " (commit unknown)"},
	} {
		if got := versionLine(tc.info, tc.info != nil); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Help writes flags as the README does (--name; -c for the one letter),
// and every flag a usage line names exists.
func TestHelpWritesDoubleDashFlags(t *testing.T) {
	longSingle := regexp.MustCompile(`(?m)^  -[a-z][a-z-]+`)
	synopsisFlag := regexp.MustCompile(`--([a-z][a-z-]*)`)
	for _, v := range verbs() {
		out, _, code := runCLISplit(t, v.name, "--help")
		if code != 0 || !strings.HasPrefix(out, "Usage: bench "+v.name) {
			t.Errorf("%s --help: exit %d:\n%s", v.name, code, out)
			continue
		}
		if m := longSingle.FindString(out); m != "" {
			t.Errorf("%s --help lists a long flag with one dash: %q", v.name, m)
		}
		flags := verbFlags(context.Background(), v)
		usageLine, _, _ := strings.Cut(out, "\n")
		for _, m := range synopsisFlag.FindAllStringSubmatch(usageLine, -1) {
			if flags[m[1]] == nil {
				t.Errorf("%s: the usage line names --%s, which is no flag", v.name, m[1])
			}
			if !strings.Contains(out, "\n  --"+m[1]) {
				t.Errorf("%s: --%s is not listed", v.name, m[1])
			}
		}
	}
	out, _, _ := runCLISplit(t, "report", "--help")
	if usage, _, _ := strings.Cut(out, "\n"); !strings.Contains(usage, "--html") {
		t.Errorf("report's usage line leaves out --html: %q", usage)
	}
}

func TestComplete(t *testing.T) {
	for _, tc := range []struct {
		words      []string
		want, not  []string
		wantNoneAt bool // nothing: the shell completes file names
	}{
		{words: []string{""}, want: []string{"run", "suite", "report", "completion", "--version"}},
		{words: []string{"re"}, want: []string{"report"}, not: []string{"run"}},
		{words: []string{"run", "--"}, want: []string{"--json", "--out", "--set", "--config"}, not: []string{"--html"}},
		{words: []string{"run", "-"}, want: []string{"-c", "--json"}},
		{words: []string{"run", "-c", ""}, wantNoneAt: true},
		{words: []string{"run", "--json", ""}, wantNoneAt: true},
		{words: []string{"report", "--h"}, want: []string{"--html"}},
		{words: []string{"data", ""}, want: []string{"fetch", "verify", "stats"}},
		{words: []string{"data", "fetch", "m"}, want: []string{"movielens", "miniwob"}},
		{words: []string{"data", "--dir", "/tmp", "fetch", "fe"}, want: []string{"fever"}},
		{words: []string{"cache", ""}, want: []string{"stats", "prune"}},
		{words: []string{"envs", "check", "db"}, want: []string{"dbbench"}},
		{words: []string{"completion", ""}, want: []string{"bash", "zsh", "fish"}},
		{words: []string{"batch", ""}, want: []string{"status", "cancel", "export", "import"}},
		{words: []string{"batch", "ex"}, want: []string{"export"}, not: []string{"import", "status"}},
		{words: []string{"batch", "status", ""}, wantNoneAt: true},
		{words: []string{"batch", "export", "--p"}, want: []string{"--purpose"}},
		{words: []string{"help", "su"}, want: []string{"suite"}},
		{words: []string{"nosuchverb", ""}, wantNoneAt: true},
	} {
		out, _, code := runCLISplit(t, append([]string{completion.Verb}, tc.words...)...)
		got := strings.Fields(out)
		if code != 0 {
			t.Errorf("%q: exit %d", tc.words, code)
		}
		if tc.wantNoneAt && len(got) > 0 {
			t.Errorf("%q: %q, want nothing", tc.words, got)
		}
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: %q lacks %q", tc.words, got, w)
			}
		}
		for _, w := range tc.not {
			if slices.Contains(got, w) {
				t.Errorf("%q: %q has %q", tc.words, got, w)
			}
		}
	}
}

// The scripts run in their shells: bash offers what `bench __complete`
// prints (a stand-in bench here); zsh and fish parse when installed.
func TestCompletionScripts(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		script, _, code := runCLISplit(t, "completion", sh)
		if code != 0 || script == "" {
			t.Fatalf("completion %s: exit %d", sh, code)
		}
		if _, err := exec.LookPath(sh); err != nil {
			t.Logf("%s not installed: its script is not run", sh)
			continue
		}
		f := filepath.Join(t.TempDir(), "c."+sh)
		os.WriteFile(f, []byte(script), 0o644)
		if sh != "bash" {
			if out, err := exec.Command(sh, "-n", f).CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v\n%s", sh, err, out)
			}
			continue
		}
		drive := `bench() { [ "$1" = __complete ] && shift; printf '%s\n' "got:$*" report run; }
source "$1"
COMP_WORDS=(bench run --o); COMP_CWORD=2; _bench; printf '%s\n' "${COMPREPLY[@]}"`
		out, err := exec.Command("bash", "-c", drive, "bash", f).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "got:run\n--o\nreport\nrun\n") {
			t.Errorf("bash completion: %v\n%s", err, out)
		}
	}
	if _, _, code := runCLISplit(t, "completion", "tcsh"); code != 2 {
		t.Errorf("unknown shell: exit %d, want 2", code)
	}
}

// Ctrl-C stops a run with exit 130 and a plain account of how far it got;
// the same command then resumes to the end.
func TestInterruptedRunExits130(t *testing.T) {
	cfg := writeConfig(t, "40ms")
	out := t.TempDir()
	ctx, cancel := context.WithCancelCause(context.Background())
	// Ctrl-C once the first samples are in, however slow the machine.
	go func() {
		for ctx.Err() == nil {
			if st, err := os.Stat(filepath.Join(out, "tiny", runrecord.SamplesFile)); err == nil && st.Size() > 0 {
				cancel(Interrupted{Signal: syscall.SIGINT})
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	var so, se bytes.Buffer
	code := Main(ctx, []string{"run", "-c", cfg, "--out", out}, IO{Out: &so, Err: &se, Getenv: func(string) string { return "" }})
	if code != 130 {
		t.Fatalf("exit %d, want 130:\n%s%s", code, so.String(), se.String())
	}
	if !regexp.MustCompile(`(?m)^bench run: interrupted after \d+/96 samples; re-run the same command to resume$`).MatchString(se.String()) {
		t.Errorf("no plain interrupt line:\n%s", se.String())
	}
	if strings.Contains(se.String(), "context canceled") {
		t.Errorf("the interrupt line says context canceled:\n%s", se.String())
	}
	ctx, cancel = context.WithCancelCause(context.Background())
	cancel(Interrupted{Signal: syscall.SIGTERM})
	if code := Main(ctx, []string{"run", "-c", cfg, "--out", out}, IO{Out: &so, Err: &se, Getenv: func(string) string { return "" }}); code != 143 {
		t.Errorf("SIGTERM: exit %d, want 143", code)
	}
	if log, code := runCLI(t, "run", "-c", cfg, "--out", out); code != 0 || !strings.Contains(log, "96/96 samples done") {
		t.Errorf("resume: exit %d:\n%s", code, log)
	}
}

// run prints its final lines on stdout (progress on stderr); --json
// prints one object instead.
func TestRunSummaryOnStdout(t *testing.T) {
	cfg := writeConfig(t, "0s")
	out := t.TempDir()
	so, se, code := runCLISplit(t, "run", "-c", cfg, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, so, se)
	}
	if !strings.Contains(so, "run tiny: 96/96 samples done") || !strings.Contains(so, "report: ") {
		t.Errorf("stdout lacks the final lines:\n%s", so)
	}
	if strings.Contains(se, "samples done") {
		t.Errorf("the final line went to stderr too:\n%s", se)
	}
	so, se, code = runCLISplit(t, "run", "-c", cfg, "--out", t.TempDir(), "--json")
	if code != 0 {
		t.Fatalf("--json: exit %d:\n%s%s", code, so, se)
	}
	var s runSummary
	if err := json.Unmarshal([]byte(so), &s); err != nil {
		t.Fatalf("--json stdout is not one JSON object: %v\n%s", err, so)
	}
	if s.Config != "tiny" || s.Status != "done" || s.Planned != 96 || s.Done != 96 || s.Report == "" || len(s.Usage) == 0 {
		t.Errorf("summary %+v", s)
	}
	if !strings.Contains(se, "samples done") {
		t.Errorf("with --json the human final line belongs on stderr:\n%s", se)
	}
}

func TestSuiteSummaryOnStdout(t *testing.T) {
	cfg := writeConfig(t, "0s")
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("name: bad\ntask: nosuchtask\n"), 0o644)
	out := t.TempDir()
	so, se, code := runCLISplit(t, "suite", "--out", out, "--json", cfg, bad)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (one config failed):\n%s%s", code, so, se)
	}
	var s suiteSummary
	if err := json.Unmarshal([]byte(so), &s); err != nil {
		t.Fatalf("--json stdout is not one JSON object: %v\n%s", err, so)
	}
	if s.OK != 1 || s.Failed != 1 || len(s.Configs) != 2 || s.Configs[0].Status != "done" || s.Configs[1].Status != "failed" || s.Configs[1].Error == "" {
		t.Errorf("summary %+v", s)
	}
	so, se, _ = runCLISplit(t, "suite", "--out", out, cfg)
	if !strings.Contains(so, "== bench suite: 1 configs, 1 ok, 0 failed") || strings.Contains(so, "samples done") {
		t.Errorf("stdout should hold the suite's summary only:\n%s", so)
	}
	if strings.Contains(se, "== bench suite") {
		t.Errorf("summary on stderr:\n%s", se)
	}
}

func TestCacheStatsJSON(t *testing.T) {
	dir := t.TempDir()
	so, _, code := runCLISplit(t, "cache", "stats", "--dir", dir, "--json")
	var s cacheStatsOut
	if code != 0 || json.Unmarshal([]byte(so), &s) != nil || s.Dir != dir || s.Files == nil || len(s.Files) != 0 {
		t.Fatalf("empty cache: exit %d %q", code, so)
	}
	c, err := cache.Open(filepath.Join(dir, "x.db"), "http://127.0.0.1:1/v1|m")
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	so, _, code = runCLISplit(t, "cache", "stats", "--dir", dir, "--json")
	if code != 0 || json.Unmarshal([]byte(so), &s) != nil || len(s.Files) != 1 || s.Files[0].Entries != 0 || s.Files[0].Path == "" {
		t.Fatalf("one file: exit %d %q", code, so)
	}
}

// A busy address is reported once, not as "view: view: ...".
func TestViewListenErrorPrefix(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip("no loopback:", err)
	}
	defer ln.Close()
	_, se, code := runCLISplit(t, "view", t.TempDir(), "--addr", ln.Addr().String())
	if code != 1 || !strings.HasPrefix(se, "bench view: listen on "+ln.Addr().String()) || strings.Count(se, "view:") != 1 {
		t.Errorf("exit %d: %q", code, se)
	}
}
