// Command testsum runs `go test -json ARGS...` and prints what plain `go
// test` prints (a line per package, the output of failed tests, build
// errors), then a summary of the tests that skipped and why. Tests of
// optional parts (Chromium, MariaDB, the shared fixtures) skip with one
// line saying what is missing; without -v those lines never show, so a
// user would not know what `make test` left untested.
//
// Usage: go run ./internal/cmd/testsum [go test flags] [packages]
//
// The exit status is go test's (1 when a test or build failed).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"
)

func main() {
	start := time.Now()
	args := append([]string{"test", "-json"}, os.Args[1:]...)
	cmd := exec.Command(goCommand(), args...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsum:", err)
		os.Exit(1)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testsum:", err)
		os.Exit(1)
	}
	sum := newSummary(os.Stdout)
	if err := sum.read(stdout); err != nil {
		fmt.Fprintln(os.Stderr, "testsum: reading go test's output:", err)
	}
	runErr := cmd.Wait()
	sum.finish(time.Since(start))
	if runErr != nil || sum.failed {
		if ee, ok := runErr.(*exec.ExitError); ok && ee.ExitCode() > 0 {
			os.Exit(ee.ExitCode())
		}
		os.Exit(1)
	}
}

// goCommand is $GO (as the Makefile passes it) or go.
func goCommand() string {
	if g := os.Getenv("GO"); g != "" {
		return g
	}
	return "go"
}

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string // build-output events
}

type testKey struct{ pkg, test string }

type skip struct {
	pkg, test, reason string
}

type summary struct {
	w      io.Writer
	out    map[testKey][]string // output of running tests, kept until they end
	skips  []skip
	pkgs   map[string]string // package → pass, fail, skip (no tests)
	failed bool
}

func newSummary(w io.Writer) *summary {
	return &summary{w: w, out: map[testKey][]string{}, pkgs: map[string]string{}}
}

func (s *summary) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			// Not an event (a panic of the test binary before it wrote
			// JSON, say): show it as go test would.
			fmt.Fprintf(s.w, "%s\n", line)
			continue
		}
		s.event(e)
	}
	return sc.Err()
}

func (s *summary) event(e event) {
	switch e.Action {
	case "build-output":
		fmt.Fprint(s.w, e.Output)
		return
	case "build-fail":
		s.failed = true
		return
	}
	k := testKey{e.Package, e.Test}
	if e.Test == "" {
		// Package level: the "ok  pkg 1.2s" / "FAIL pkg" lines and the
		// output of the test binary outside any test; plain go test prints
		// these, but not the bare PASS line of verbose mode.
		switch e.Action {
		case "output":
			if e.Output != "PASS\n" {
				fmt.Fprint(s.w, e.Output)
			}
		case "pass", "fail", "skip":
			s.pkgs[e.Package] = e.Action
			if e.Action == "fail" {
				s.failed = true
				s.flush(e.Package) // tests cut short by a panic or the timeout
			}
		}
		return
	}
	switch e.Action {
	case "output":
		s.out[k] = append(s.out[k], e.Output)
	case "pass":
		delete(s.out, k)
	case "fail":
		s.failed = true
		for _, l := range s.out[k] {
			if !strings.HasPrefix(l, "=== ") { // verbose-mode markers
				fmt.Fprint(s.w, l)
			}
		}
		delete(s.out, k)
	case "skip":
		s.skips = append(s.skips, skip{pkg: e.Package, test: e.Test, reason: skipReason(s.out[k])})
		delete(s.out, k)
	}
}

// flush prints the kept output of pkg's tests that never ended.
func (s *summary) flush(pkg string) {
	var keys []testKey
	for k := range s.out {
		if k.pkg == pkg {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].test < keys[j].test })
	for _, k := range keys {
		for _, l := range s.out[k] {
			fmt.Fprint(s.w, l)
		}
		delete(s.out, k)
	}
}

// skipReason is what the test logged before it skipped: the message of
// t.Skip, without the file:line prefix and the harness's own lines.
func skipReason(lines []string) string {
	var msgs []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		if _, after, ok := strings.Cut(t, ".go:"); ok {
			if _, msg, ok := strings.Cut(after, ": "); ok {
				t = msg
			}
		}
		msgs = append(msgs, t)
	}
	if len(msgs) == 0 {
		return "(no reason given)"
	}
	return msgs[len(msgs)-1]
}

// finish prints the skipped tests grouped by reason, then the totals.
func (s *summary) finish(elapsed time.Duration) {
	var ok, failed int
	for _, st := range s.pkgs {
		switch st {
		case "pass":
			ok++
		case "fail":
			failed++
		}
	}
	if len(s.skips) > 0 {
		byReason := map[string][]string{}
		for _, sk := range s.skips {
			byReason[sk.reason] = append(byReason[sk.reason], shortPkg(sk.pkg)+"."+sk.test)
		}
		reasons := make([]string, 0, len(byReason))
		for r := range byReason {
			reasons = append(reasons, r)
		}
		sort.Strings(reasons)
		fmt.Fprintf(s.w, "\nskipped: %d tests\n", len(s.skips))
		for _, r := range reasons {
			tests := byReason[r]
			sort.Strings(tests)
			shown := tests
			more := ""
			if len(shown) > 4 {
				shown, more = shown[:4], fmt.Sprintf(" and %d more", len(tests)-4)
			}
			fmt.Fprintf(s.w, "  %s\n    %s%s\n", r, strings.Join(shown, ", "), more)
		}
	}
	fmt.Fprintf(s.w, "\ntests: %d packages ok, %d failed, %d tests skipped, %s\n", ok, failed, len(s.skips), elapsed.Round(time.Second))
}

// shortPkg drops the module path.
func shortPkg(p string) string {
	return strings.TrimPrefix(p, "github.com/memharness/memharness/")
}
