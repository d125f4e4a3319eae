package paper

import "math"

// The conversational-memory tables a LoCoMo or LongMemEval report sets
// published numbers beside. Each published row names where it was read,
// so a table's caption can cite it; a score the source does not print is
// NaN and shows as "—".

// LoCoMoScore is one LoCoMo category's three numbers as the Mem0 paper's
// table prints them, in percent: token F1, BLEU-1 and the LLM judge (J).
type LoCoMoScore struct{ F1, B1, J float64 }

// LoCoMoRow is one published method on LoCoMo. Categories are keyed by
// the name the source prints (single-hop, multi-hop, open-domain,
// temporal): which numeric category a name stands for is the dispute the
// report's category_names choice settles for our own columns.
type LoCoMoRow struct {
	Label      string
	Categories map[string]LoCoMoScore
	Overall    LoCoMoScore
	// Backbone is the answering model the source used; Source is where the
	// numbers were read (repository, file and commit, or paper and table).
	Backbone, Source string
	// AdversarialCounted is whether category 5 entered the source's
	// overall score.
	AdversarialCounted bool
}

// LoCoMoPublished are the published LoCoMo rows a report sets beside its
// own, in print order.
//
// Zep's re-evaluation of LoCoMo with mem0's evaluation
// (getzep/zep-papers, kg_architecture_agent_memory/locomo_eval/README.md
// at commit 4306ce6): J per category and overall (75.14 ± 0.17), answers
// by gpt-4o-mini at temperature 0 with category 5 left out
// (zep_locomo_responses.py in the same folder); it prints no F1 or BLEU-1.
func LoCoMoPublished() []LoCoMoRow {
	j := func(v float64) LoCoMoScore { return LoCoMoScore{F1: math.NaN(), B1: math.NaN(), J: v} }
	return []LoCoMoRow{{
		Label: "Zep (Zep's re-evaluation)",
		Categories: map[string]LoCoMoScore{
			"single-hop": j(74.11), "multi-hop": j(66.04), "open-domain": j(67.71), "temporal": j(79.79),
		},
		Overall:  j(75.14),
		Backbone: "gpt-4o-mini",
		Source:   "getzep/zep-papers@4306ce6 kg_architecture_agent_memory/locomo_eval/README.md",
	}}
}
