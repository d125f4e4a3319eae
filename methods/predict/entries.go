package predict

import (
	"fmt"

	"github.com/memharness/memharness/kinds"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runrecord"
)

// Entries are the foundation baselines' entries: long context,
// truncation, RAG and the recursive summary.
func Entries() []Entry {
	summaryT := 0.3
	entries := []Entry{
		{Kind: KindLongContext, Paper: []kinds.PaperRow{{Table: "PraMem Table 1", Label: "Long-context (32K)"}}, New: New, Keys: []string{"history_tokens"}, Purposes: []Purpose{PredictPurpose()},
			About: "the most recent history that fits a long window (32000 tokens)"},
		{Kind: KindTruncation, Paper: []kinds.PaperRow{{Table: "PraMem Table 1", Label: "Truncation (8K)"}}, New: New, Keys: []string{"history_tokens"}, Purposes: []Purpose{PredictPurpose()},
			About: "the most recent history that fits the 8K window"},
		{Kind: KindRAG, RanksByEmbedding: true, Paper: []kinds.PaperRow{{Table: "PraMem Table 1", Label: "RAG"}}, New: New, Keys: []string{"history_tokens", "memory_tokens", "retriever", "doc_size", "top_k"},
			Purposes: []Purpose{PredictPurpose()},
			About:    "the truncated history plus the top_k documents of doc_size records retrieved from the rest",
			Memory: Inspector{NoText: true, Columns: []Column{{Heading: "documents", Key: "documents"}},
				Summary: func(ms []Memory) string {
					return fmt.Sprintf("mean %.1f indexed documents (no text memory)", MeanMeta(ms, "documents"))
				}}},
		{Kind: KindSummary, Provenance: summaryProvenance, Paper: []kinds.PaperRow{{Table: "PraMem Table 1", Label: "Summary"}}, New: New, Keys: []string{"history_tokens", "chunk_tokens", "summary_tokens"},
			Purposes: []Purpose{PredictPurpose(), {Name: PurposeSummary, ReleaseFrom: runrecord.FromSource,
				Release: llm.Params{Temperature: &summaryT}, Own: llm.Params{Temperature: &summaryT},
				Source: "config.py SUMMARY_CONFIG temperature (its summary_processor is not released)"}},
			About:  "the truncated history plus a recursive summary of the older records",
			Memory: Inspector{Columns: []Column{{Heading: "chunks", Key: "chunks"}}}},
	}
	for i := range entries {
		entries[i].SimReaders = SimReaders
	}
	return entries
}

// MeanMeta is the mean of one meta counter over memories, for the kinds'
// one-line summaries.
func MeanMeta(ms []Memory, key string) float64 {
	if len(ms) == 0 {
		return 0
	}
	var sum int
	for _, m := range ms {
		sum += MetaInt(m.Meta, key)
	}
	return float64(sum) / float64(len(ms))
}

// summaryProvenance is the summary baseline's stage beyond the prediction:
// the release's summariser is not released, so its prompt is ours.
func summaryProvenance(_ Spec, _ bool, sampling func(string) string) map[string]runrecord.Provenance {
	return map[string]runrecord.Provenance{
		"summary": {Prompt: runrecord.FromOwn, Sampling: sampling(PurposeSummary), Parser: runrecord.FromNone},
	}
}
