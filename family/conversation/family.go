// Package conversation is the conversational-memory task family (LoCoMo,
// LongMemEval): every method answers every question from what it keeps of
// the conversation, through the run's model stack, and the answers are
// scored as the sources score them (LoCoMo's F1 per category, mem0's
// BLEU-1, evidence recall for methods that retrieve; LongMemEval's judge).
package conversation

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/datasets/synth"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/releasepacks/lifememrel"
	"github.com/memharness/memharness/releasepacks/memqarel"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// Family is the conversational-memory family.
type Family struct {
	// packs carries the release pins of the judges, the answer templates
	// and BLEU-1's Punkt model (zero: the pinned sources).
	packs memqarel.Packs
}

// New is the conversational-memory family.
func New() *Family { return &Family{} }

// WithJudgeSources is the family reading the judges' release texts under
// stand-in pins (tests of the whole run path with a pack of their own);
// the folders are still prompt.release_dirs or the data cache.
func WithJudgeSources(mem0, longMemEval lifememrel.Source) *Family {
	return &Family{packs: memqarel.Packs{Mem0: mem0, LongMemEval: longMemEval}}
}

// WithSources is the family reading every release pack under the pins in
// p (tests with packs of their own; a zero pin is the pinned source).
func WithSources(p memqarel.Packs) *Family { return &Family{packs: p} }

// benchmarks maps the family's config tasks to their benchmarks.
func benchmarks() map[string]memqa.Benchmark {
	return map[string]memqa.Benchmark{"locomo": memqa.LoCoMo, "longmemeval": memqa.LongMemEval}
}

// Tasks are locomo and longmemeval, whose methods are the methods list;
// LoCoMo's questions carry its numeric categories (report.category_names);
// each answers (memqa.answer) and judges the answers.
func (f *Family) Tasks() map[string]config.TaskShape {
	out := map[string]config.TaskShape{}
	for name, b := range benchmarks() {
		judge := memqarel.PurposeLongMemEvalJudge
		if b == memqa.LoCoMo {
			judge = memqarel.PurposeLoCoMoJudge
		}
		out[name] = config.TaskShape{Judged: true, LoCoMoCategories: b == memqa.LoCoMo, Purposes: []string{PurposeAnswer, judge}}
	}
	return out
}

// SimReaders teach the sim to answer from the conversation a prompt shows
// and to judge as the sources' judges reply.
func (f *Family) SimReaders() []sim.Reader {
	return append(SimReaders(), memqarel.SimReaders()...)
}

// data is a loaded benchmark.
type data struct {
	ds     memqa.Dataset
	source string
	// file is the data file read (empty: the embedded default).
	file string
	sums map[string]string
}

func (d *data) Source() string { return d.source }
func (*data) Close() error     { return nil }

// Load loads the fetched file dataset.path names (a file, or the folder
// `bench data fetch` leaves), or the embedded synthetic default when no
// path is configured.
func (f *Family) Load(_ context.Context, _ family.Env, cfg *config.Config, _ string) (family.Data, error) {
	return load(cfg)
}

func load(cfg *config.Config) (*data, error) {
	b, ok := benchmarks()[cfg.Task]
	if !ok {
		return nil, fmt.Errorf("task %q is not a conversational-memory task", cfg.Task)
	}
	if cfg.Dataset.Path == "" {
		var ds memqa.Dataset
		var err error
		seed := cfg.Dataset.Synthetic.Seed
		if seed == 0 {
			seed = uint64(cfg.Seed)
		}
		if b == memqa.LoCoMo {
			ds, err = synth.GenerateLoCoMo(synth.LoCoMoConfig{Seed: seed})
		} else {
			ds, err = synth.GenerateLongMemEval(synth.LongMemEvalConfig{Seed: seed})
		}
		if err != nil {
			return nil, err
		}
		return &data{ds: ds, source: fmt.Sprintf("embedded synthetic %s (memqa v%d, seed %d)", b, synth.MemQAVersion, seed)}, nil
	}
	path := dataFile(b, cfg.Dataset.Path)
	ds, err := memqa.Load(b, path)
	if err != nil {
		return nil, family.DataPathHint(err, family.RunPathFlag)
	}
	sum, err := fileSum(path)
	if err != nil {
		return nil, err
	}
	return &data{ds: ds, file: path, source: fmt.Sprintf("%s at %s", b, path), sums: map[string]string{filepath.Base(path): sum}}, nil
}

// dataFile is the file memqa.Load reads for path.
func dataFile(b memqa.Benchmark, path string) string {
	if st, err := os.Stat(path); err == nil && st.IsDir() || err != nil && filepath.Ext(path) != ".json" {
		return filepath.Join(path, memqa.DefaultFile(b))
	}
	return path
}

func fileSum(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("hash the data: %w", err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:]), nil
}

// DataUnchanged re-hashes the data file the manifest recorded; the
// embedded default is generated, so unchanged with the harness build.
func (f *Family) DataUnchanged(cfg *config.Config, sums map[string]string) bool {
	if cfg.Dataset.Path == "" {
		return len(sums) == 0
	}
	b := benchmarks()[cfg.Task]
	path := dataFile(b, cfg.Dataset.Path)
	sum, err := fileSum(path)
	return err == nil && len(sums) == 1 && sums[filepath.Base(path)] == sum
}

// ReportOptions are the shared report settings (bootstrap, level).
func (f *Family) ReportOptions(cfg *config.Config, _ *family.Kinds) reports.Options {
	return family.BaseReportOptions(cfg)
}

// SweepReport: variants are compared in the sweep index alone.
func (f *Family) SweepReport(string, []string, *family.Kinds) (string, error) { return "", nil }

// MergeShards writes every shard's samples in plan order.
func (f *Family) MergeShards(_ context.Context, _ family.Env, m family.Merging, man *runrecord.Manifest) error {
	d, err := load(m.Config)
	if err != nil {
		return fmt.Errorf("merge: rebuild the plan: %w", err)
	}
	n, err := runstore.MergeSamples(family.ShardsOf(m.Shards), planOrder(m.Config, d.ds), m.RunDir)
	if err != nil {
		return err
	}
	man.Samples = n
	return nil
}

// methodName is a spec's label.
func methodName(name, kind string) string {
	if name != "" {
		return name
	}
	return kind
}

// planOrder is every sample ID in the order a run answers them: by
// method, then questions in file order, each question's draws
// (eval.repeats) together.
func planOrder(cfg *config.Config, ds memqa.Dataset) []string {
	var out []string
	for _, spec := range cfg.Methods {
		m := methodName(spec.Name, spec.Kind)
		for _, c := range ds.Conversations {
			for _, q := range c.Questions {
				for rep := range cfg.Eval.Draws() {
					out = append(out, llm.RepeatName(sampleID(m, q), rep))
				}
			}
		}
	}
	return out
}

func sampleID(method string, q memqa.Question) string { return method + "/" + q.ID }
