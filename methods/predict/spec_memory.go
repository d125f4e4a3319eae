package predict

// PraMemSpec configures PraMem. The zero value means the paper's defaults;
// the fields are documented where they are used (methods/pramem).
type PraMemSpec struct {
	// Rounds of practice (80), targets per round Q (1), proposals asked per
	// reflection N (0 = unconstrained, as released; 10 = the paper),
	// virtual scenes M (7), review interval T (5), consensus support (3).
	Rounds         int `yaml:"rounds,omitempty" json:"rounds,omitempty"`
	Q              int `yaml:"q,omitempty" json:"q,omitempty"`
	N              int `yaml:"n,omitempty" json:"n,omitempty"`
	M              int `yaml:"m,omitempty" json:"m,omitempty"`
	T              int `yaml:"t,omitempty" json:"t,omitempty"`
	Support        int `yaml:"support,omitempty" json:"support,omitempty"`
	PoolSize       int `yaml:"pool_size,omitempty" json:"pool_size,omitempty"`             // practice items sampled per user (100)
	MinHist        int `yaml:"min_history,omitempty" json:"min_history,omitempty"`         // candidate floor (10)
	PracticeTokens int `yaml:"practice_tokens,omitempty" json:"practice_tokens,omitempty"` // 12000
	// Init is "empty" (released code) or "paper" (profile + generic bias alerts).
	Init string `yaml:"init,omitempty" json:"init,omitempty"`
	// NoTrial ablates the deep-thinking trial: the practice prediction is
	// made directly, without listing the memory entries it rests on.
	NoTrial bool `yaml:"no_trial,omitempty" json:"no_trial,omitempty"`
	// NoReflection ablates the reflective proposal: a wrong practice answer
	// yields only a calibration (bias) entry, no analysis of the history.
	NoReflection bool `yaml:"no_reflection,omitempty" json:"no_reflection,omitempty"`
	// NoConsensus ablates the consensual adjustment: proposals enter the
	// memory without waiting for Support agreeing proposals.
	NoConsensus bool `yaml:"no_consensus,omitempty" json:"no_consensus,omitempty"`
	// NoGroundedness skips the groundedness review (is the proposal still
	// true when the history's reactions are flipped?).
	NoGroundedness bool `yaml:"no_groundedness,omitempty" json:"no_groundedness,omitempty"`
	// NoGeneralization skips the generalizability review (does the
	// proposal single out the real scene among virtual ones?).
	NoGeneralization bool `yaml:"no_generalization,omitempty" json:"no_generalization,omitempty"`
	// Sections shown at evaluation: "both" (default), "pattern" or "bias".
	Sections string `yaml:"sections,omitempty" json:"sections,omitempty"`
	// EvalRound evaluates the snapshot after this many rounds (0 = final).
	EvalRound int `yaml:"eval_round,omitempty" json:"eval_round,omitempty"`
	// Reproduce the released code's defects on purpose.
	// ReproduceReleaseLeak and ReleaseNoopGrounding each switch one of them
	// back on (see the PraMem spec's list of reference-code defects).
	ReproduceReleaseLeak bool `yaml:"reproduce_release_leak,omitempty" json:"reproduce_release_leak,omitempty"`
	ReleaseNoopGrounding bool `yaml:"release_noop_grounding,omitempty" json:"release_noop_grounding,omitempty"`
	// ReleaseSampling draws the practice targets as the release does, made
	// deterministic: its candidates, with random.seed(42) before z_1's
	// weighted draws and random.seed(1024) before z_2's shuffle for every
	// user, as a single-process run would (the release's own process pool
	// reseeds each forked worker from the OS), instead of per-user seeds.
	// Its candidates include search and customer-service records; the
	// drawn records the release asks nothing of (a search without keyword)
	// are dropped after the shuffle, as z_2 skips them.
	ReleaseSampling bool `yaml:"release_sampling,omitempty" json:"release_sampling,omitempty"`
	// MemoryDir evaluates memories built elsewhere (the released layout,
	// <dir>/<user>_0.json) instead of building them.
	MemoryDir string `yaml:"memory_dir,omitempty" json:"memory_dir,omitempty"`
	// FallbackTruncation answers without memory when a user's memory is
	// missing; otherwise a missing memory is an error.
	FallbackTruncation bool `yaml:"fallback_truncation,omitempty" json:"fallback_truncation,omitempty"`
}

// MemorySpec configures the Mem0-, MemOS- and ProEx-style baselines.
type MemorySpec struct {
	// TopK memories retrieved per question (Mem0/MemOS), Chunk of history
	// records per extraction call, Profiles induced (ProEx), Holdout records
	// used to cross-validate profiles (ProEx).
	TopK      int `yaml:"top_k,omitempty" json:"top_k,omitempty"`
	Chunk     int `yaml:"chunk,omitempty" json:"chunk,omitempty"`
	Profiles  int `yaml:"profiles,omitempty" json:"profiles,omitempty"`
	Holdout   int `yaml:"holdout,omitempty" json:"holdout,omitempty"`
	MaxMemory int `yaml:"max_memory,omitempty" json:"max_memory,omitempty"` // memory units kept
}
