package behavior

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/memharness/memharness/behaviorrun"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// MergeShards rebuilds the whole run's plan (loading the data, never a
// model) and writes every shard's samples in plan order, as Compact would.
func (f *Family) MergeShards(_ context.Context, env family.Env, m family.Merging, man *runrecord.Manifest) error {
	cfg, runDir := m.Config, m.RunDir
	quiet := env
	quiet.Err = io.Discard // the shards said the loader's notes already
	data, err := loadTask(quiet, cfg, m.Out)
	if err != nil {
		return fmt.Errorf("merge: rebuild the plan: %w", err)
	}
	methods := make([]predict.Method, len(cfg.Methods))
	for i, spec := range cfg.Methods {
		m, err := env.Kinds.PredictKinds().New(spec)
		if err != nil {
			return fmt.Errorf("methods[%d]: %w", i, err)
		}
		methods[i] = m
	}
	order := behaviorrun.PlanOrder(methods, data.Users, cfg.Eval.Draws())
	n, err := runstore.MergeSamples(family.ShardsOf(m.Shards), order, runDir)
	if err != nil {
		return err
	}
	man.Samples = n
	// Methods that answered identically are judged over the whole run, as
	// one process does (a shard's slice says nothing of it).
	samples, err := runrecord.ReadSamples(filepath.Join(runDir, runrecord.SamplesFile))
	if err != nil {
		return fmt.Errorf("merge: read the merged samples: %w", err)
	}
	man.DataWarnings = behaviorrun.WithIdenticalAnswers(man.DataWarnings, samples)
	return runstore.MergePrompts(family.ShardsOf(m.Shards), order, runDir)
}
