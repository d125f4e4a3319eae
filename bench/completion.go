package bench

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/releases/lifememrel"
	"github.com/memharness/memharness/releases/pramemrel"
)

// Shell completion. The scripts are thin: they hand the words typed so far
// to the hidden verb `bench __complete` and offer what it prints, one
// candidate a line, so the candidates always match the binary (its verbs,
// their flags as the flag sets define them, the actions and dataset names).
// When it prints nothing the shell completes file names.

// completeVerb is the hidden verb the scripts call.
const completeVerb = "__complete"

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
	script, ok := completionScripts[pos[0]]
	if !ok {
		fmt.Fprintf(stdio.Err, "bench completion: unknown shell %q (bash, zsh or fish)\n", pos[0])
		fs.Usage()
		return errUsage
	}
	var quoted []string
	for _, n := range completionNames() {
		quoted = append(quoted, shellQuote(n))
	}
	script = strings.ReplaceAll(script, "@NAMES@", strings.Join(quoted, " "))
	_, err = io.WriteString(stdio.Out, script)
	return err
}

// completionNames are the command words the scripts complete: "bench",
// this binary's path, and, when it lies below the current directory, the
// relative forms a user types (./bin/bench, bin/bench). The scripts ask
// the command as typed for its candidates, so completion works whether
// or not bench is on PATH.
func completionNames() []string {
	exe, err := os.Executable()
	if err != nil {
		return []string{"bench"}
	}
	names := []string{"bench", exe}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, exe); err == nil && !strings.HasPrefix(rel, "..") && rel != "bench" {
			names = append(names, "./"+rel, rel)
		}
	}
	return names
}

// shellQuote quotes s for bash, zsh and fish alike.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

var completionScripts = map[string]string{
	"bash": `# bash completion for bench (memharness): source <(bench completion bash)
_bench() {
	local IFS=$'\n'
	COMPREPLY=($("${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _bench @NAMES@
`,
	"zsh": `#compdef bench
# zsh completion for bench (memharness): source <(bench completion zsh)
_bench() {
	local -a cands
	cands=("${(@f)$(${words[1]} __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
	cands=(${cands:#})
	if (( ${#cands} == 0 )); then
		_files
		return
	fi
	compadd -a cands
}
compdef _bench @NAMES@
`,
	"fish": `# fish completion for bench (memharness): bench completion fish | source
function __bench_complete
	set -l words (commandline -opc) (commandline -ct)
	$words[1] __complete $words[2..-1] 2>/dev/null
end
for name in @NAMES@
	complete -c $name -a '(__bench_complete)'
end
`,
}

// complete prints the candidates for the last of words (the word being
// typed, possibly empty), given the words before it.
func complete(ctx context.Context, stdio IO, words []string) {
	if len(words) == 0 {
		words = []string{""}
	}
	cur, before := words[len(words)-1], words[:len(words)-1]
	for _, c := range candidates(ctx, before, cur) {
		if strings.HasPrefix(c, cur) {
			fmt.Fprintln(stdio.Out, c)
		}
	}
}

func candidates(ctx context.Context, before []string, cur string) []string {
	if len(before) == 0 {
		var names []string
		for _, v := range verbs() {
			names = append(names, v.name)
		}
		return append(names, "help", "--help", "--version")
	}
	name := before[0]
	var v *verb
	for _, x := range verbs() {
		if x.name == name {
			v = &x
			break
		}
	}
	if name == "help" && len(before) == 1 {
		return candidates(ctx, nil, cur)
	}
	if v == nil {
		return nil
	}
	flags := verbFlags(ctx, *v)
	if prev := before[len(before)-1]; len(before) > 1 && strings.HasPrefix(prev, "-") && !strings.Contains(prev, "=") {
		if f := flags[strings.TrimLeft(prev, "-")]; f != nil && !isBoolFlag(f) {
			return nil // a flag's value: file names
		}
	}
	if strings.HasPrefix(cur, "-") {
		var out []string
		for _, n := range slices.Sorted(maps.Keys(flags)) {
			if len(n) == 1 {
				out = append(out, "-"+n)
			} else {
				out = append(out, "--"+n)
			}
		}
		return out
	}
	// Positional words, without the flags and their values.
	var pos []string
	for i := 1; i < len(before); i++ {
		w := before[i]
		if strings.HasPrefix(w, "-") {
			if f := flags[strings.TrimLeft(w, "-")]; f != nil && !isBoolFlag(f) && !strings.Contains(w, "=") {
				i++
			}
			continue
		}
		pos = append(pos, w)
	}
	return positional(name, pos)
}

// positional offers the actions of a verb and, for data, the names.
func positional(verb string, pos []string) []string {
	actions := map[string][]string{
		"data":       {"fetch", "verify", "stats", "inspect"},
		"cache":      {"stats", "prune"},
		"envs":       {"list", "check", "replay"},
		"memory":     {"show"},
		"completion": {"bash", "zsh", "fish"},
	}
	switch {
	case len(pos) == 0:
		return actions[verb]
	case verb == "data" && len(pos) == 1:
		names := []string{"movielens", "omnibehavior", pramemrel.FetchName}
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

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
