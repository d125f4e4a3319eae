package config

import (
	"testing"

	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/lifelong"
)

// TestLifeMemPaperConstructionModels: every LifeMem paper config builds
// memory with the paper's models per step.
func TestLifeMemPaperConstructionModels(t *testing.T) {
	for _, name := range []string{"lifemem_similarity", "lifemem_streams", "lifemem_sensitivity", "lifemem_ood"} {
		t.Run(name, func(t *testing.T) {
			cfg, err := Options{Getenv: func(string) string { return "" }}.Load("../../configs/paper/"+name+".yaml", nil)
			if err != nil {
				t.Fatal(err)
			}
			b := cfg.Backbone
			if b.AssignModel != "gpt-5-mini" || b.AssignReasoningEffort != "low" || b.SkillModel != "gpt-4.1" || b.SkillReasoningEffort != "" {
				t.Errorf("construction models: assign %q/%q, skill %q/%q", b.AssignModel, b.AssignReasoningEffort, b.SkillModel, b.SkillReasoningEffort)
			}
		})
	}
}

// TestAllowPartialStreamKey: --allow-partial-stream's --set reaches the
// strictly decoded lifelong block.
func TestAllowPartialStreamKey(t *testing.T) {
	cfg, err := Options{Getenv: func(string) string { return "" }}.Load("../../configs/paper/lifemem_similarity.yaml", []string{"lifelong.allow_partial_stream=true"})
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Lifelong.AllowPartialStream {
		t.Error("allow_partial_stream not set")
	}
}

// TestLifeMemPaperTestSizes: every LifeMem paper config pins the
// recoverable per-environment test-set sizes.
func TestLifeMemPaperTestSizes(t *testing.T) {
	for _, name := range []string{"lifemem_similarity", "lifemem_streams", "lifemem_sensitivity", "lifemem_ood"} {
		cfg, err := Options{Getenv: func(string) string { return "" }}.Load("../../configs/paper/"+name+".yaml", nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range all.Entries() {
			want := e.PaperTestSize
			if want.Size == 0 {
				continue
			}
			if got := cfg.Lifelong.TestSize[e.Name]; got != want.Size {
				t.Errorf("%s: test_size.%s = %d, want %d (%s)", name, e.Name, got, want.Size, want.Note)
			}
		}
	}
}

func TestLifeMemPaperFEVERShuffle(t *testing.T) {
	cfg, err := Options{Getenv: func(string) string { return "" }}.Load("../../configs/paper/lifemem_ood.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Lifelong.TestShuffle["fever"]; got != (lifelong.PyShuffle{Size: 7405, Seed: 233}) {
		t.Errorf("fever shuffle %+v", got)
	}
}
