package lifemem

import (
	"fmt"
)

// Ablations of the inference prompt.
const (
	// NoSkills drops the cluster rules from the prompt.
	NoSkills = "no_skills"
	// NoTrajectories drops the exemplar trajectories (their clusters still
	// choose the rules).
	NoTrajectories = "no_trajectories"
)

// Options configure LifeMem. Zero fields take the paper's values (the
// defaults named in each comment).
type Options struct {
	// Ablation is "", NoSkills or NoTrajectories.
	Ablation string
	// BatchSize is how many trajectories one assignment call places (5).
	BatchSize int
	// NeighbourK is how many stored trajectories each new one retrieves to
	// find candidate clusters (4).
	NeighbourK int
	// CandidateExamples bounds the examples shown per candidate cluster (3).
	CandidateExamples int
	// SplitSize is L: a cluster is split only when it has more than L
	// members (50; the reference code used 21).
	SplitSize int
	// SplitMRL is τ: a cluster is split only when the mean resultant length
	// of its members' unit embeddings is below τ (0.95). τ ≥ 1 splits on
	// size alone; a negative τ never splits.
	SplitMRL float64
	// SplitMin and SplitMax bound the clusters a split asks for (3, 6).
	SplitMin, SplitMax int
	// TopK is how many same-environment trajectories inference retrieves (2).
	TopK int
	// PromptRules bounds the rules put in the inference prompt (5).
	PromptRules int
	// RuleBatch is how many trajectories one rule-editor call reads (8).
	RuleBatch int
	// MaxRules bounds a cluster's rule list (20).
	MaxRules int
	// MaxRuleOps bounds the non-AGREE operations of one editor call (4).
	MaxRuleOps int
	// SkillSample bounds the trajectories read per cluster when distilling (50).
	SkillSample int
	// SkillSeed seeds the distillation sample and order (42, as the
	// reference code; it is mixed with the run seed and the cluster name).
	SkillSeed int64
	// SummarySample is the cluster size from which a summary call sees a
	// random two thirds of the members (7).
	SummarySample int
	// Retries bounds the re-asks for trajectories an assignment or split
	// answer left out (2; negative: none).
	Retries int
	// MessageChars truncates each message shown to construction calls (2000).
	MessageChars int
	// SplitMessageChars truncates messages in split prompts, which show
	// every member of a large cluster (300).
	SplitMessageChars int
	// Actor builds the acting agent from the retrieved experience; nil uses
	// the shared agent prompt machinery (agent.NewAgent).
	Actor Actor
}

// withDefaults fills zero fields.
func (o Options) withDefaults() Options {
	def := func(p *int, v int) {
		if *p <= 0 {
			*p = v
		}
	}
	def(&o.BatchSize, 5)
	def(&o.NeighbourK, 4)
	def(&o.CandidateExamples, 3)
	def(&o.SplitSize, 50)
	def(&o.SplitMin, 3)
	def(&o.SplitMax, 6)
	def(&o.TopK, 2)
	def(&o.PromptRules, 5)
	def(&o.RuleBatch, 8)
	def(&o.MaxRules, 20)
	def(&o.MaxRuleOps, 4)
	def(&o.SkillSample, 50)
	def(&o.SummarySample, 7)
	switch {
	case o.Retries == 0:
		o.Retries = 2
	case o.Retries < 0:
		o.Retries = 0
	}
	def(&o.MessageChars, 2000)
	def(&o.SplitMessageChars, 300)
	if o.SplitMRL == 0 {
		o.SplitMRL = 0.95
	}
	if o.SkillSeed == 0 {
		o.SkillSeed = 42
	}
	if o.SplitMax < o.SplitMin {
		o.SplitMax = o.SplitMin
	}
	return o
}

func (o Options) validate() error {
	switch o.Ablation {
	case "", NoSkills, NoTrajectories:
		return nil
	}
	return fmt.Errorf("lifemem: unknown ablation %q (want %q or %q)", o.Ablation, NoSkills, NoTrajectories)
}
