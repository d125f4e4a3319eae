package bench

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/internal/buildstamp"
)

// The conventions of Go command-line tools that the verbs share: version,
// help text with "--" flags, exit codes for an interrupt.

// versionLine is what `bench --version` prints: the harness version, then
// what the build recorded (module version when installed from a tag, VCS
// commit and whether the tree was modified, Go version). A test binary or a
// build outside a checkout records no commit; nothing is made up then.
func versionLine(info *debug.BuildInfo, ok bool) string {
	s := "bench " + Version
	if !ok || info == nil {
		return s
	}
	var extra []string
	if mv := info.Main.Version; mv != "" && mv != "(devel)" && strings.TrimPrefix(mv, "v") != Version {
		extra = append(extra, "module "+mv)
	}
	st := buildstamp.Of(info, ok)
	if st.Commit != "" {
		c := "commit " + st.Commit
		if st.Time != "" {
			c += " " + st.Time
		}
		if st.Modified {
			c += " (modified)"
		}
		extra = append(extra, c)
	} else {
		extra = append(extra, "commit unknown")
	}
	if info.GoVersion != "" {
		extra = append(extra, info.GoVersion)
	}
	return s + " (" + strings.Join(extra, ", ") + ")"
}

func cmdVersion(_ context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "version", "version", "Prints the harness version and, when the build recorded it, the commit it was built from.")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	info, ok := debug.ReadBuildInfo()
	fmt.Fprintln(stdio.Out, versionLine(info, ok))
	return nil
}

// printFlags lists a flag set's flags the way the README writes them:
// "--name" for long names ("-c" for one letter), the value's name, the
// usage and a non-zero default.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		line := "  " + dash + f.Name
		if arg != "" {
			line += " " + arg
		}
		if def := f.DefValue; !zeroDefault(def) {
			if fmt.Sprintf("%T", f.Value) == "*flag.stringValue" {
				def = fmt.Sprintf("%q", def)
			}
			usage += " (default " + def + ")"
		}
		fmt.Fprintf(w, "%s\n    \t%s\n", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
	})
}

// zeroDefault reports whether a default is not worth printing.
func zeroDefault(def string) bool {
	switch def {
	case "", "false", "0", "0s", "[]":
		return true
	}
	return false
}

// interruptedError is what a run stopped by Ctrl-C (or SIGTERM) returns
// (family.Interrupted: the runs are the families').
type interruptedError = family.Interrupted

// Interrupted is the cancellation cause cmd/bench gives the context when a
// signal arrives, so Main can exit the way shells expect (128 + signal).
type Interrupted struct{ Signal os.Signal }

func (i Interrupted) Error() string { return "interrupted by " + i.Signal.String() }

// interruptExit is the exit status for work cancelled through ctx: 130 for
// Ctrl-C (SIGINT), 143 for SIGTERM, 130 when the cause is unknown.
func interruptExit(ctx context.Context) int {
	var in Interrupted
	if errors.As(context.Cause(ctx), &in) {
		if s, ok := in.Signal.(syscall.Signal); ok {
			return 128 + int(s)
		}
	}
	return 128 + int(syscall.SIGINT)
}

// interruptMessage is the line printed for a verb stopped by a signal: the
// verb's own account when it has one, else a plain "interrupted".
func interruptMessage(verb string, err error) string {
	var ie *interruptedError
	if errors.As(err, &ie) {
		return fmt.Sprintf("bench %s: %s", verb, ie.Error())
	}
	switch verb {
	case "run", "sweep", "suite", "merge":
		return fmt.Sprintf("bench %s: interrupted; re-run the same command to resume", verb)
	}
	return fmt.Sprintf("bench %s: interrupted", verb)
}
