package bench

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/memharness/memharness/bench/batchcmd"
	"github.com/memharness/memharness/bench/completion"
	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/releasepacks/lifememrel"
	"github.com/memharness/memharness/releasepacks/pramemrel"
)

// Shell completion: the scripts and the candidates are package
// completion's; the verbs, their flags and actions are this package's.

func cmdCompletion(_ context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "completion", "completion bash|zsh|fish",
		"Prints a completion script for the shell. To enable it:\n"+
			"  bash   source <(bench completion bash)        (or save it under /etc/bash_completion.d/)\n"+
			"  zsh    source <(bench completion zsh)         (after compinit)\n"+
			"  fish   bench completion fish | source         (or save it as ~/.config/fish/completions/bench.fish)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return errUsage
	}
	script, ok := completion.Script(pos[0], completion.Names())
	if !ok {
		fmt.Fprintf(stdio.Err, "bench completion: unknown shell %q (bash, zsh or fish)\n", pos[0])
		fs.Usage()
		return errUsage
	}
	_, err = io.WriteString(stdio.Out, script)
	return err
}

// complete prints the candidates for the last of words (the word being
// typed, possibly empty), given the words before it.
func complete(ctx context.Context, stdio IO, words []string) {
	var names []string
	for _, v := range verbs() {
		names = append(names, v.name)
	}
	line := completion.Line{
		Verbs: names,
		Flags: func(name string) map[string]*flag.Flag {
			for _, v := range verbs() {
				if v.name == name {
					return verbFlags(ctx, v)
				}
			}
			return nil
		},
		Positional: positional,
	}
	line.Print(stdio.Out, words)
}

// positional offers the actions of a verb and, for data, the names.
func positional(verb string, pos []string) []string {
	actions := map[string][]string{
		"data":       {"fetch", "verify", "stats", "inspect"},
		"cache":      {"stats", "prune"},
		"envs":       {"list", "check", "replay"},
		"memory":     {"show"},
		"completion": {"bash", "zsh", "fish"},
		"batch":      batchcmd.Actions(),
	}
	switch {
	case len(pos) == 0:
		return actions[verb]
	case verb == "data" && len(pos) == 1:
		names := append([]string{"movielens", "omnibehavior"}, memqa.Names()...)
		names = append(names, pramemrel.FetchName)
		names = append(names, lifememrel.Names()...)
		return append(names, envDataNames()...)
	case verb == "envs" && len(pos) == 1 && pos[0] != "list":
		var names []string
		for _, e := range all.Entries() {
			names = append(names, e.Name)
		}
		return names
	}
	return nil
}

// flagRecorder is the writer a verb's flag set is built on when completion
// asks for its flags: newFlags hands it the set it made.
type flagRecorder struct {
	io.Writer
	sets []*flag.FlagSet
}

// verbFlags runs a verb with --help on a recorder and returns its flags by
// name. Every verb defines its flags before it does anything, and --help
// makes it return at once, so this runs nothing.
func verbFlags(ctx context.Context, v verb) map[string]*flag.Flag {
	rec := &flagRecorder{Writer: io.Discard}
	_ = v.run(ctx, IO{Out: io.Discard, Err: rec, Getenv: func(string) string { return "" }}, []string{"--help"})
	out := map[string]*flag.Flag{}
	for _, fs := range rec.sets {
		fs.VisitAll(func(f *flag.Flag) { out[f.Name] = f })
	}
	return out
}
