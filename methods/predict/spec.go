package predict

import "github.com/memharness/memharness/llm"

// Spec configures one method instance; it is a YAML block under `methods:`.
type Spec struct {
	// Name labels the method in logs and reports (defaults to Kind).
	Name string `yaml:"name" json:"name"`
	// Kind selects the implementation: a registered Entry's Kind; built in:
	// long_context, truncation, rag, summary, pramem, mem0, memos, proex,
	// external, mcp_memory.
	Kind string `yaml:"kind" json:"kind"`
	// HistoryTokens is the budget of the rendered history block (8000; 32000
	// for long_context). 0 means the kind's default; -1 means no history.
	HistoryTokens int `yaml:"history_tokens,omitempty" json:"history_tokens,omitempty"`
	// MemoryTokens caps the memory block appended after the prompt.
	MemoryTokens int `yaml:"memory_tokens,omitempty" json:"memory_tokens,omitempty"`
	// RAG: retriever ("embedding" or "bm25"), documents of DocSize consecutive
	// records, TopK documents retrieved.
	Retriever string `yaml:"retriever,omitempty" json:"retriever,omitempty"`
	DocSize   int    `yaml:"doc_size,omitempty" json:"doc_size,omitempty"`
	TopK      int    `yaml:"top_k,omitempty" json:"top_k,omitempty"`
	// Summary: history chunk per recursion step (ChunkTokens) and the
	// summary's token cap (SummaryTokens).
	ChunkTokens   int `yaml:"chunk_tokens,omitempty" json:"chunk_tokens,omitempty"`
	SummaryTokens int `yaml:"summary_tokens,omitempty" json:"summary_tokens,omitempty"`
	// Language selects the embedded prompt templates ("zh" default, "en"),
	// and Templates lists override files of {{define}} blocks. When either is
	// set they take precedence over Env.Prompts.
	Language  string   `yaml:"language,omitempty" json:"language,omitempty"`
	Templates []string `yaml:"templates,omitempty" json:"templates,omitempty"`
	// Params are the sampling parameters of every call the method sends
	// (zero: server defaults, as the reference); Sampling refines them per
	// call purpose.
	Params llm.Params `yaml:"params,omitempty" json:"params,omitempty"`
	// Sampling maps a call purpose ("predict", "summary", "pramem.trial",
	// "mem0.extract", …) to its request settings, over Params. The bench
	// fills every purpose a method sends with the default of the run's
	// prompts setting (the source's values under release, ours under own;
	// docs/CONFIG_KEYS.md lists them); a purpose set here wins. Methods hold
	// no sampling value of their own.
	Sampling map[string]llm.Params `yaml:"sampling,omitempty" json:"sampling,omitempty"`
	// Parser chooses the answer parser: "own" (the default: reasoning
	// blocks removed first) or "source" (the PraMem release's own Yes/No
	// mapping, see ParseBinarySource, and for PraMem also its readings of
	// the practice replies); prompts: release sets "source". Ratings have
	// no released parser and always use ParseRating.
	Parser string `yaml:"parser,omitempty" json:"parser,omitempty"`
	// PraMem configures kind "pramem" (practice rounds, reviews, ablations).
	PraMem *PraMemSpec `yaml:"pramem,omitempty" json:"pramem,omitempty"`
	// Memory configures the memory-system baselines (kinds "mem0", "memos",
	// "proex").
	Memory *MemorySpec `yaml:"memory,omitempty" json:"memory,omitempty"`
	// Options are the settings of a kind's own (its Entry.Options keys),
	// written beside the keys above in the method's block; the kind reads
	// them with OptionsOf. Empty for the built-in kinds, so their encoding
	// (and the config hash) is as before.
	Options map[string]any `yaml:",inline" json:"options,omitempty"`
}

// Parsers Spec.Parser names.
const (
	ParserOwn    = "own"
	ParserSource = "source"
)

// Call purposes of the prediction baselines (see Spec.Sampling).
const (
	PurposePredict = "predict"
	PurposeSummary = "summary"
)

// ParamsFor is the request settings of one call purpose: Sampling's entry
// for it, unset fields taken from Params.
func (s Spec) ParamsFor(purpose string) llm.Params {
	return llm.MergeParams(s.Sampling[purpose], s.Params)
}
