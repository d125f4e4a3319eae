// Package completion writes the shell completion scripts of the bench
// command and works out the candidates for a partly typed command line,
// given the verbs, their flags and their positional words as values.
//
// The scripts are thin: they hand the words typed so far
// to the hidden verb `bench __complete` and offer what it prints, one
// candidate a line, so the candidates always match the binary (its verbs,
// their flags as the flag sets define them, the actions and dataset names).
// When it prints nothing the shell completes file names.
package completion

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Verb is the hidden verb the scripts call.
const Verb = "__complete"

// Script is the completion script for shell ("bash", "zsh" or "fish"),
// completing the command words names; ok is false for another shell.
func Script(shell string, names []string) (script string, ok bool) {
	script, ok = scripts[shell]
	if !ok {
		return "", false
	}
	var quoted []string
	for _, n := range names {
		quoted = append(quoted, ShellQuote(n))
	}
	return strings.ReplaceAll(script, "@NAMES@", strings.Join(quoted, " ")), true
}

// Line is what completion knows of the command: its verbs in order, the
// flags of a verb by name, and the positional words a verb takes after
// those already typed.
type Line struct {
	Verbs      []string
	Flags      func(verb string) map[string]*flag.Flag
	Positional func(verb string, pos []string) []string
}

// Print writes the candidates for the last of words (the word being
// typed, possibly empty), given the words before it, one a line.
func (l Line) Print(w io.Writer, words []string) {
	if len(words) == 0 {
		words = []string{""}
	}
	cur, before := words[len(words)-1], words[:len(words)-1]
	for _, c := range l.candidates(before, cur) {
		if strings.HasPrefix(c, cur) {
			fmt.Fprintln(w, c)
		}
	}
}

func (l Line) candidates(before []string, cur string) []string {
	if len(before) == 0 {
		return append(slices.Clone(l.Verbs), "help", "--help", "--version")
	}
	name := before[0]
	if name == "help" && len(before) == 1 {
		return l.candidates(nil, cur)
	}
	if !slices.Contains(l.Verbs, name) {
		return nil
	}
	flags := l.Flags(name)
	if prev := before[len(before)-1]; len(before) > 1 && strings.HasPrefix(prev, "-") && !strings.Contains(prev, "=") {
		if f := flags[strings.TrimLeft(prev, "-")]; f != nil && !IsBoolFlag(f) {
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
			if f := flags[strings.TrimLeft(w, "-")]; f != nil && !IsBoolFlag(f) && !strings.Contains(w, "=") {
				i++
			}
			continue
		}
		pos = append(pos, w)
	}
	return l.Positional(name, pos)
}

// Names are the command words the scripts complete: "bench",
// this binary's path, and, when it lies below the current directory, the
// relative forms a user types (./bin/bench, bin/bench). The scripts ask
// the command as typed for its candidates, so completion works whether
// or not bench is on PATH.
func Names() []string {
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

// ShellQuote quotes s for bash, zsh and fish alike.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// scripts are the shell scripts by shell; @NAMES@ stands for the quoted
// command names.
var scripts = map[string]string{
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

// IsBoolFlag reports whether f takes no value.
func IsBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
