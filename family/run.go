package family

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memharness/memharness/accounting"
	"github.com/memharness/memharness/backbone"
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/internal/prefixcache"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// HarnessVersion is the harness version recorded in every manifest.
const HarnessVersion = "0.1.0"

// DefaultRehearse is how many users per method a plan plays memory
// construction through for (bench plan --rehearse, and the plan a run
// stores); DefaultRehearseTasks the test tasks per environment a lifelong
// plan plays through.
const (
	DefaultRehearse      = 2
	DefaultRehearseTasks = 16
)

// PlanOptions are a plan's own settings (bench plan's flags).
type PlanOptions struct {
	Latency     time.Duration
	Block       int
	CacheTokens int
	Rehearse    int
	// RehearseTasks is the test tasks per environment a lifelong plan
	// plays through.
	RehearseTasks int
	// NoPrefix skips the prefix-cache model (the plan a run stores).
	NoPrefix bool
}

// StoredPlanOptions are the settings of the plan a run stores: bench
// plan's defaults without the prefix-cache model (the costly part).
func StoredPlanOptions() PlanOptions {
	return PlanOptions{Block: prefixcache.DefaultBlock, CacheTokens: prefixcache.DefaultCapacity,
		Rehearse: DefaultRehearse, RehearseTasks: DefaultRehearseTasks, NoPrefix: true}
}

// DifferentConfig explains a refused resume: which keys changed.
func DifferentConfig(dir string, prev runrecord.Manifest, cfg *config.Config) error {
	changed := ConfigDiff(prev.Config, cfg)
	// Every key the hash covers is equal: what changed is the contents of
	// a file the config names.
	what := "no hashed key changed, so a file the config names (a prompt template, the tokenizer) has new contents"
	if len(changed) > 0 {
		what = "changed: " + strings.Join(FirstN(changed, 8), "; ")
	}
	return fmt.Errorf("run directory %s holds a run of a different config (%s); use another --out, or remove the directory to start over", dir, what)
}

// ConfigDiff lists the dotted keys whose values differ between a manifest's
// stored config and cfg, as "key: old → new".
func ConfigDiff(stored any, cfg *config.Config) []string {
	var now any
	b, err := json.Marshal(cfg)
	if err != nil || json.Unmarshal(b, &now) != nil {
		return nil
	}
	a, c := map[string]string{}, map[string]string{}
	flatten("", stored, a)
	flatten("", now, c)
	hashed := hashedKeyFilter(cfg, a) // keys outside the hash did not cause the refusal
	var out []string
	for _, k := range slices.Sorted(maps.Keys(c)) {
		if a[k] != c[k] && hashed(k) {
			out = append(out, fmt.Sprintf("%s: %s → %s", k, orNone(a[k]), orNone(c[k])))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(a)) {
		if _, ok := c[k]; !ok && hashed(k) {
			out = append(out, fmt.Sprintf("%s: %s → (none)", k, a[k]))
		}
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// flatten writes every leaf of a decoded JSON value under its dotted path.
func flatten(prefix string, v any, out map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			flatten(strings.TrimPrefix(prefix+"."+k, "."), e, out)
		}
	case []any:
		for i, e := range x {
			flatten(fmt.Sprintf("%s[%d]", prefix, i), e, out)
		}
	case nil:
		// A null is no value: "(none) → null" is no change.
	default:
		b, _ := json.Marshal(x)
		out[prefix] = string(b)
	}
}

// MustHash is cfg's hash, or "" when it cannot be computed (then nothing is
// up to date and the run's own hash check reports the error).
func MustHash(cfg *config.Config) string {
	h, err := cfg.Hash()
	if err != nil {
		return ""
	}
	return h
}

// Unchanged reports a finished run that nothing has changed since its
// report, and replays its verdicts (the invalid-answer threshold).
func Unchanged(env Env, run Run, man runrecord.Manifest) (Result, error) {
	res := Result{Planned: man.Samples, Done: man.Samples - man.Errored, LeftOut: man.LeftOut, DataWarnings: man.DataWarnings}
	fmt.Fprintf(env.Out, "run %s: up to date (finished %s; config, data, harness build and logs unchanged): 0 live model calls, report kept: %s\n",
		run.Config.Name, man.Finished.Local().Format(time.DateTime), filepath.Join(run.Dir, "report", "index.md"))
	usage, err := accounting.ReadUsage(filepath.Join(run.Dir, runrecord.UsageFile))
	if err != nil {
		return res, err
	}
	samples, err := runrecord.ReadSamples(filepath.Join(run.Dir, runrecord.SamplesFile))
	if err != nil {
		return res, err
	}
	return res, CheckInvalid(usage, samples, run.Config)
}

// CheckInvalid is the eval.max_invalid_rate verdict: per call purpose over
// the answers each judged, and per method over its predictions.
func CheckInvalid(usage map[string]runrecord.MethodUsage, samples []runrecord.Sample, cfg *config.Config) error {
	return errors.Join(
		accounting.CheckInvalid(usage, cfg.Eval.MaxInvalidRate, cfg.Eval.MaxAttempts),
		accounting.CheckSamples(samples, cfg.Eval.MaxInvalidRate, cfg.Eval.MaxAttempts))
}

// stampFingerprint records, once the report is written, what it was built
// from, so an unchanged re-run can skip everything.
func stampFingerprint(st *runstore.Store, dir string, opts reports.Options, hash string, man *runrecord.Manifest, errored int) error {
	fp, err := Fingerprint(dir, hash, opts)
	if err != nil {
		return err
	}
	man.Errored, man.Fingerprint = errored, fp
	return st.WriteJSON(runrecord.ManifestFile, man)
}

// writeResolvedConfig writes the resolved config as YAML, ready for
// `bench run -c`.
func writeResolvedConfig(dir string, cfg *config.Config) error {
	resolved, err := cfg.ResolvedYAML()
	if err != nil {
		return err
	}
	return runstore.WriteFileAtomic(filepath.Join(dir, "config.yaml"), resolved)
}

// FirstN is xs cut to n, saying how many more there were.
func FirstN(xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	return append(slices.Clone(xs[:n]), fmt.Sprintf("… %d more", len(xs)-n))
}

// BaseReportOptions are the report settings every family reads from the
// config: bootstrap iterations, confidence level, baseline, seed and the
// reducer of repeated draws.
func BaseReportOptions(cfg *config.Config) reports.Options {
	return reports.Options{Iters: cfg.Report.Bootstrap, Level: cfg.Report.Level, Baseline: cfg.Report.Baseline, Seed: uint64(cfg.Seed), Reducer: cfg.Eval.Reducer}
}

// OpenBackbone opens the model stack of a run of cfg, its sim taught by the
// kinds' readers.
func OpenBackbone(ctx context.Context, env Env, cfg *config.Config, run Run) (*backbone.Backbone, error) {
	readers, err := env.Kinds.Readers()
	if err != nil {
		return nil, err
	}
	return backbone.OpenIn(ctx, cfg, env.Getenv, run.CacheRoot(), run.Dir, env.Err, readers)
}
