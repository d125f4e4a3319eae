// Package rescore is the `bench rescore` verb: a finished run's stored
// answers graded again under another judge (model, endpoint, wording or
// sampling) into a new run directory beside the run, without asking the
// methods again. The task family does the grading (family.Rescorer).
package rescore

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/runrecord"
)

// Synopsis and About are the verb's help.
const (
	Synopsis = "rescore RUNDIR [--judge-prompt own|release|strict|lenient] [--judge-kind K] [--judge-model M] [--judge-url URL] [--set judge.KEY=V] [--name NAME]"
	About    = "Grades a finished conversational-memory run's answers again under another judge, into RUNDIR/rescore/NAME/\n" +
		"(samples, call record, usage and its own report, whose judge-sensitivity table sets the new judge against the\n" +
		"run's). The answers are never asked again or changed: only judge calls are made, each cached, and an\n" +
		"interrupted rescore resumes. The flags set the judge section of the run's config (docs/CONFIG_KEYS.md)."
)

// CLI is what the command line hands the verb.
type CLI struct {
	Env   family.Env
	Out   io.Writer
	Flags *flag.FlagSet
	// Parse reads the flags, returning the positional arguments; Usage is
	// the error a usage mistake returns.
	Parse func(*flag.FlagSet, []string) ([]string, error)
	Usage error
}

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

// Command runs the verb.
func Command(ctx context.Context, c CLI, args []string) error {
	fs := c.Flags
	prompt := fs.String("judge-prompt", "", "the judge's wording: own, release, strict or lenient (judge.prompt)")
	kind := fs.String("judge-kind", "", "backbone, sim or openai (judge.kind)")
	model := fs.String("judge-model", "", "the judge model an openai judge calls (judge.model)")
	url := fs.String("judge-url", "", "the judge's OpenAI-compatible endpoint (judge.base_urls; the key comes from OPENAI_API_KEY)")
	name := fs.String("name", "", "the folder under RUNDIR/rescore/ (default: named after the judge)")
	var sets multi
	fs.Var(&sets, "set", "`KEY=VALUE` of the judge section (judge.params.temperature=0, judge.compare=[...]); repeatable")
	pos, err := c.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fmt.Fprintln(fs.Output(), "bench rescore: want exactly one RUNDIR")
		fs.Usage()
		return c.Usage
	}
	runDir := pos[0]
	for _, s := range sets {
		if !strings.HasPrefix(s, "judge.") && !strings.HasPrefix(s, "judge=") {
			return fmt.Errorf("--set %s: rescore changes the judge section only (judge.KEY=VALUE)", s)
		}
	}
	for _, f := range []struct{ key, v string }{{"prompt", *prompt}, {"kind", *kind}, {"model", *model}} {
		if f.v != "" {
			sets = append(sets, "judge."+f.key+"="+f.v)
		}
	}
	if *url != "" {
		sets = append(sets, "judge.base_urls=["+*url+"]")
	}
	if len(sets) == 0 {
		return fmt.Errorf("say which judge grades again (--judge-prompt, --judge-kind, --judge-model, --judge-url or --set judge.KEY=V)")
	}
	// The run's compared judges are not asked again unless named anew:
	// the rescore's table sets the new judge against the run's own.
	if !slices.ContainsFunc(sets, func(s string) bool { return strings.HasPrefix(s, "judge.compare") || strings.HasPrefix(s, "judge=") }) {
		sets = append(sets, "judge.compare=[]")
	}
	man, err := runrecord.ReadManifest(filepath.Join(runDir, runrecord.ManifestFile))
	if err != nil {
		return fmt.Errorf("%s is not a run directory: %w", runDir, err)
	}
	if man.Finished == nil || man.Shard != "" {
		return fmt.Errorf("%s is not a finished run (finish it with bench run, or merge its shards, first)", runDir)
	}
	cfgPath := filepath.Join(runDir, "config.yaml")
	if _, err := os.Stat(cfgPath); err != nil {
		return fmt.Errorf("%s: the run's resolved config: %w", runDir, err)
	}
	cfg, err := config.Options{Getenv: c.Env.Getenv, Known: c.Env.Kinds.Known()}.Load(cfgPath, sets)
	if err != nil {
		return err
	}
	fam, err := c.Env.Kinds.Family(cfg)
	if err != nil {
		return err
	}
	r, ok := fam.(family.Rescorer)
	if !ok {
		return fmt.Errorf("task %s has no judge to grade again", cfg.Task)
	}
	if *name == "" {
		*name = DefaultName(cfg)
	}
	if !safe(*name) {
		return fmt.Errorf("--name %q: use letters, digits, '.', '_' and '-'", *name)
	}
	res, err := r.Rescore(ctx, c.Env, family.Rescoring{RunDir: runDir, Config: cfg, Dir: family.RescoreDir(runDir, *name), Out: filepath.Dir(runDir)})
	for _, a := range res.Artefacts {
		fmt.Fprintln(c.Out, a)
	}
	if err != nil && errors.Is(err, context.Canceled) {
		return fmt.Errorf("%w; re-run the same command to resume", err)
	}
	return err
}

// DefaultName names a rescore after its judge: "strict", "own-openai-gpt-4o",
// "release-openai-gpt-4o-mini" (characters a folder name may not hold
// become '-').
func DefaultName(cfg *config.Config) string {
	j := cfg.Judges()[0]
	parts := []string{j.Prompt}
	switch j.Kind {
	case "openai":
		parts = append(parts, "openai", j.Model)
	case "sim":
		parts = append(parts, "sim")
	}
	return strings.Trim(strings.Map(func(r rune) rune {
		if nameChar(r) {
			return r
		}
		return '-'
	}, strings.Join(parts, "-")), "-.")
}

func safe(s string) bool {
	return s != "" && s == strings.Trim(s, "-.") && strings.IndexFunc(s, func(r rune) bool { return !nameChar(r) }) < 0
}

func nameChar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
}
