// Package bench is the command-line harness: it parses verbs and flags,
// resolves configs, plans and schedules work, and owns the run store.
//
// Usage:
//
//	bench run   -c CONFIG [--set key=value ...] [--out DIR]
//	bench sweep -c CONFIG [--set key=value ...] [--out DIR]
//	bench report RUNDIR|SWEEPDIR [--bootstrap N] [--html]
//	bench export RUNDIR|SWEEPDIR --format inspect|eee|lmeval [--out DIR]
//	bench data  fetch|verify|stats NAME [--path DIR] [--json]
//	bench cache stats|prune [--dir DIR]
//	bench envs  list | check [NAME] [--data DIR] [--json] | replay NAME [TASK]
//	bench calls RUNDIR [--purpose P] [--user U] [--sample ID] [--json]
//	bench memory show RUNDIR [--method NAME] [--user U] [--json]
//	bench view  [RUNS_DIR] [--addr 127.0.0.1:8080]
//	bench completion bash|zsh|fish
//	bench --version
//
// Every verb takes --help. A verb stopped by Ctrl-C exits 130 (143 for
// SIGTERM) after saying how far it got; a run stopped at eval.max_cost or
// eval.max_tokens exits 3.
package bench

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/memharness/memharness/backbone"
	"github.com/memharness/memharness/bench/batchcmd"
	"github.com/memharness/memharness/bench/completion"
	"github.com/memharness/memharness/bench/rescore"
)

// Version is the harness version recorded in every manifest.
const Version = "0.1.0"

// IO carries the streams and environment of one invocation; tests replace them.
type IO struct {
	Out, Err io.Writer
	// Getenv reads the environment (API keys and endpoints come only from here).
	Getenv func(string) string
	// Kinds are the method and environment registries runs build from and
	// the task families they run (nil: the built-in ones); a caller adding
	// a method, an environment or a task family registers it here.
	Kinds *Kinds
}

// errUsage marks a usage error already explained to the user.
var errUsage = errors.New("usage")

type verb struct {
	name, summary string
	run           func(ctx context.Context, io IO, args []string) error
}

func verbs() []verb {
	return []verb{
		{"run", "run one config (resumes an interrupted run)", cmdRun},
		{"plan", "say what a run will spend (calls, tokens, cost, wall time, prefix-cache reuse) without calling any model", cmdPlan},
		{"sweep", "run every variant of a config's sweep block", cmdSweep},
		{"merge", "combine the shards of a sharded run (bench run --shard I/N) and write its reports", cmdMerge},
		{"suite", "run several configs, continue past failures, summarise what failed or was left out", cmdSuite},
		{"report", "(re)write the reports of a run, or of every run of a sweep, from its logs", cmdReport},
		{"rescore", "grade a finished conversational run's answers again under another judge, into a report beside it (judge calls only)", func(ctx context.Context, s IO, a []string) error {
			return rescore.Command(ctx, rescore.CLI{Env: s.env(), Out: s.Out, Flags: newFlags(s.Err, "rescore", rescore.Synopsis, rescore.About), Parse: parse, Usage: errUsage}, a)
		}},
		{"export", "write a finished run as Inspect logs, Every Eval Ever records or lm-eval results (no model calls)", cmdExport},
		{"data", "fetch, verify or describe a dataset", cmdData},
		{"cache", "inspect or prune the LLM response cache", cmdCache},
		{"envs", "list agent environments, check their gold oracles, replay a task", cmdEnvs},
		{"batch", "provider batches of a run: status, cancel, export and import of vllm run-batch files", func(ctx context.Context, s IO, a []string) error {
			return batchcmd.Run(ctx, s.Out, s.Err, s.Getenv, a, errUsage, newFlags)
		}},
		{"calls", "print the model calls a run recorded (requests as sent and replies; --json to replay them)", cmdCalls},
		{"memory", "show the memory a run's methods built (PraMem, Mem0, MemOS, ProEx, summary, LifeMem, ...)", cmdMemory},
		{"view", "browse runs, samples, transcripts and memories in a local web page", cmdView},
		{"completion", "print a shell completion script (bash, zsh or fish)", cmdCompletion},
		{"version", "print the version and the commit it was built from", cmdVersion},
	}
}

// Main runs the CLI and returns the process exit code.
func Main(ctx context.Context, args []string, stdio IO) int {
	if stdio.Getenv == nil {
		stdio.Getenv = func(string) string { return "" }
	}
	getenv, err := backbone.WithEndpointsFile(stdio.Getenv)
	if err != nil {
		fmt.Fprintf(stdio.Err, "bench: %v\n", err)
		return 1
	}
	stdio.Getenv = getenv
	if len(args) == 0 {
		usage(stdio.Err)
		return 2
	}
	if args[0] == "help" && len(args) == 2 {
		args = []string{args[1], "--help"} // bench help VERB
	}
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage(stdio.Out)
		return 0
	}
	if args[0] == "--version" || args[0] == "-version" {
		args = append([]string{"version"}, args[1:]...)
	}
	if args[0] == completion.Verb {
		complete(ctx, stdio, args[1:])
		return 0
	}
	for _, v := range verbs() {
		if v.name == args[0] {
			if wantsHelp(args[1:]) {
				// Help is what the user asked for: it goes to stdout, while
				// usage errors stay on stderr.
				stdio.Err = stdio.Out
			}
			err := v.run(ctx, stdio, args[1:])
			switch {
			case err == nil:
				return 0
			case errors.Is(err, flag.ErrHelp):
				return 0
			case errors.Is(err, errUsage):
				return 2
			case isCeilingStop(err):
				// Not a failure: the run spent what it was allowed to.
				fmt.Fprintf(stdio.Err, "bench %s: %v\n", v.name, err)
				return exitCeiling
			case ctx.Err() != nil || errors.Is(err, context.Canceled):
				// Stopped by a signal: say how far the work got, and
				// exit as shells expect of an interrupted command.
				fmt.Fprintln(stdio.Err, interruptMessage(v.name, err))
				var ie *interruptedError
				if !errors.Is(err, context.Canceled) && !errors.As(err, &ie) {
					fmt.Fprintf(stdio.Err, "bench %s: %v\n", v.name, err)
				}
				return interruptExit(ctx)
			default:
				fmt.Fprintf(stdio.Err, "bench %s: %v\n", v.name, err)
				return 1
			}
		}
	}
	fmt.Fprintf(stdio.Err, "bench: unknown verb %q\n\n", args[0])
	usage(stdio.Err)
	return 2
}

// wantsHelp reports whether args ask for a verb's help the way parse reads
// flags: -h, -help or --help anywhere before a "--".
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "bench — memharness, a benchmark harness for LLM memory methods")
	fmt.Fprintln(w, "\nUsage: bench VERB [flags]\n\nVerbs:")
	for _, v := range verbs() {
		fmt.Fprintf(w, "  %-10s %s\n", v.name, v.summary)
	}
	fmt.Fprintln(w, "\nRun 'bench VERB --help' (or 'bench help VERB') for the flags of a verb; 'bench --version' for the version.")
}

// newFlags builds a flag set whose usage text names the verb.
func newFlags(w io.Writer, name, synopsis, about string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(w)
	fs.Usage = func() {
		fmt.Fprintf(w, "Usage: bench %s\n\n%s\n\nFlags:\n", synopsis, about)
		printFlags(w, fs)
	}
	if r, ok := w.(*flagRecorder); ok {
		r.sets = append(r.sets, fs)
	}
	return fs
}

// parse parses flags, mapping parse failures to errUsage. Flags may follow
// positional arguments ("bench report runs/x --json").
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, errUsage
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// multiFlag collects a repeated flag (--set a=b --set c=d).
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }
