package paper

import (
	"math"
	"strconv"
)

// The conversational-memory tables a LoCoMo or LongMemEval report sets
// published numbers beside. Each published row names the paper and table
// (or file and commit) it was read from and the answering model the source
// used; a number the source does not print is NaN and shows as "—". Only
// numbers read in the source are held here: none is derived.

// The sources of the published rows.
const (
	// Mem0Paper is Chhikara et al., "Mem0: Building Production-Ready AI
	// Agents with Scalable Long-Term Memory", arXiv 2504.19413v1.
	Mem0Paper = "Mem0 paper (arXiv 2504.19413v1)"
	// ZepPaper is Rasmussen et al., "Zep: A Temporal Knowledge Graph
	// Architecture for Agent Memory", arXiv 2501.13956v1.
	ZepPaper = "Zep paper (arXiv 2501.13956v1)"
	// ZepLoCoMoEval is Zep's re-evaluation of LoCoMo with mem0's evaluation.
	ZepLoCoMoEval = "getzep/zep-papers@4306ce6 kg_architecture_agent_memory/locomo_eval/README.md"
)

// LoCoMoScore is one LoCoMo category's three numbers as the Mem0 paper's
// table prints them, in percent: token F1, BLEU-1 and the LLM judge (J);
// JSD is the ± one standard deviation the paper prints beside J over its
// ten judge runs (NaN where none is printed).
type LoCoMoScore struct{ F1, B1, J, JSD float64 }

// Latency is the Mem0 paper's Table 2 latency of a method, in seconds per
// question: search (fetching the memories or chunks) and total (search and
// the answer's generation), each at p50 and p95.
type Latency struct{ SearchP50, SearchP95, TotalP50, TotalP95 float64 }

// NoLatency is a row the source gives no latency for.
func NoLatency() Latency { return Latency{math.NaN(), math.NaN(), math.NaN(), math.NaN()} }

// LoCoMoRow is one published method on LoCoMo. Categories are keyed by
// the name the source prints (single-hop, multi-hop, open-domain,
// temporal): which numeric category a name stands for is the dispute the
// report's category_names choice settles for our own columns.
type LoCoMoRow struct {
	Label      string
	Categories map[string]LoCoMoScore
	Overall    LoCoMoScore
	// MemoryTokens is the source's tokens of context handed to the answer
	// per question (the Mem0 paper's Table 2 "memory tokens": the memories
	// retrieved, or the whole conversation for full context); NaN when not
	// printed. A RAG row prints its chunk size instead: ChunkTokens, with
	// TopK the chunks retrieved per question.
	MemoryTokens float64
	ChunkTokens  float64
	TopK         int
	Latency      Latency
	// Backbone is the answering model the source names for the row;
	// Source is the paper and table (or file and commit) the numbers were
	// read from.
	Backbone, Source string
	// AdversarialCounted is whether category 5 entered the source's
	// overall score.
	AdversarialCounted bool
}

// The Mem0 paper's backbone statements: §2.1 and §2.2 run every language
// model operation of Mem0 and Mem0^g on gpt-4o-mini; §3.3 takes the
// established LoCoMo baselines' results where gpt-4o-mini was used and runs
// LangMem and OpenAI's memory with gpt-4o-mini. For RAG, full context, Zep
// and the A-Mem re-run the paper names no answering model.
const (
	mem0Backbone    = "gpt-4o-mini"
	mem0NotStated   = "not stated in the paper"
	mem0Table1      = Mem0Paper + ", Table 1"
	mem0Table2      = Mem0Paper + ", Table 2"
	mem0Tables1And2 = Mem0Paper + ", Tables 1 and 2"
)

// LoCoMoPublished are the published LoCoMo rows a report sets beside its
// own, in print order: Zep's re-evaluation, then the Mem0 paper's rows.
//
// Zep's re-evaluation of LoCoMo with mem0's evaluation (ZepLoCoMoEval):
// J per category and overall (75.14 ± 0.17), answers by gpt-4o-mini at
// temperature 0 with category 5 left out (zep_locomo_responses.py in the
// same folder); it prints no F1 or BLEU-1.
//
// The Mem0 paper (Mem0Paper): Table 1 prints F1, B1 and J per category
// (columns single-hop, multi-hop, open-domain, temporal; J only for the
// methods it ran, as mean ± sd of ten runs) and no overall; Table 2 prints,
// per method, the chunk size (RAG) or memory tokens, search and total
// latency at p50 and p95 in seconds, and the overall J. A method in both
// tables under the same label is one row. Table 2's "A-Mem" is kept apart
// from Table 1's "A-Mem" (the A-Mem paper's own numbers, no J) and
// "A-Mem*" (the Mem0 authors' re-run): the paper does not say which of the
// two Table 2's row is. §3.1 leaves the adversarial category out.
func LoCoMoPublished() []LoCoMoRow {
	j := func(v float64) LoCoMoScore { return LoCoMoScore{F1: math.NaN(), B1: math.NaN(), J: v, JSD: math.NaN()} }
	rows := []LoCoMoRow{{
		Label: "Zep (Zep's re-evaluation)",
		Categories: map[string]LoCoMoScore{
			"single-hop": j(74.11), "multi-hop": j(66.04), "open-domain": j(67.71), "temporal": j(79.79),
		},
		Overall:      j(75.14),
		MemoryTokens: math.NaN(), ChunkTokens: math.NaN(), Latency: NoLatency(),
		Backbone: "gpt-4o-mini",
		Source:   ZepLoCoMoEval,
	}}
	return append(rows, mem0Rows()...)
}

// mem0Rows are the Mem0 paper's Tables 1 and 2.
func mem0Rows() []LoCoMoRow {
	nan := math.NaN()
	// s is a Table 1 cell triple; J and its sd NaN where Table 1 prints "–".
	s := func(f1, b1, j, sd float64) LoCoMoScore { return LoCoMoScore{F1: f1, B1: b1, J: j, JSD: sd} }
	lex := func(f1, b1 float64) LoCoMoScore { return s(f1, b1, nan, nan) }
	cats := func(single, multi, open, temporal LoCoMoScore) map[string]LoCoMoScore {
		return map[string]LoCoMoScore{"single-hop": single, "multi-hop": multi, "open-domain": open, "temporal": temporal}
	}
	overall := func(j, sd float64) LoCoMoScore { return s(nan, nan, j, sd) }
	none := overall(nan, nan)
	lat := func(sp50, sp95, tp50, tp95 float64) Latency { return Latency{sp50, sp95, tp50, tp95} }
	// Table 1 only: the established baselines' published numbers.
	table1 := func(label string, c map[string]LoCoMoScore) LoCoMoRow {
		return LoCoMoRow{Label: label, Categories: c, Overall: none, MemoryTokens: nan, ChunkTokens: nan,
			Latency: NoLatency(), Backbone: mem0Backbone, Source: mem0Table1}
	}
	// Tables 1 and 2: the methods the Mem0 authors ran.
	both := func(label, backbone string, c map[string]LoCoMoScore, all LoCoMoScore, tokens float64, l Latency) LoCoMoRow {
		return LoCoMoRow{Label: label, Categories: c, Overall: all, MemoryTokens: tokens, ChunkTokens: nan,
			Latency: l, Backbone: backbone, Source: mem0Tables1And2}
	}
	// Table 2 only.
	table2 := func(label string, all LoCoMoScore, tokens, chunk float64, k int, l Latency) LoCoMoRow {
		return LoCoMoRow{Label: label, Overall: all, MemoryTokens: tokens, ChunkTokens: chunk, TopK: k,
			Latency: l, Backbone: mem0NotStated, Source: mem0Table2}
	}
	rows := []LoCoMoRow{
		table1("LoCoMo", cats(lex(25.02, 19.75), lex(12.04, 11.16), lex(40.36, 29.05), lex(18.41, 14.77))),
		table1("ReadAgent", cats(lex(9.15, 6.48), lex(5.31, 5.12), lex(9.67, 7.66), lex(12.60, 8.87))),
		table1("MemoryBank", cats(lex(5.00, 4.77), lex(5.56, 5.94), lex(6.61, 5.16), lex(9.68, 6.99))),
		table1("MemGPT", cats(lex(26.65, 17.72), lex(9.15, 7.44), lex(41.04, 34.34), lex(25.52, 19.44))),
		table1("A-Mem", cats(lex(27.02, 20.09), lex(12.14, 12.00), lex(44.65, 37.06), lex(45.85, 36.67))),
		{Label: "A-Mem* (the Mem0 authors' re-run at temperature 0)",
			Categories: cats(s(20.76, 14.90, 39.79, 0.38), s(9.22, 8.81, 18.85, 0.31), s(33.34, 27.58, 54.05, 0.22), s(35.40, 31.08, 49.91, 0.31)),
			Overall:    none, MemoryTokens: nan, ChunkTokens: nan, Latency: NoLatency(), Backbone: mem0NotStated, Source: mem0Table1},
		both("LangMem", mem0Backbone,
			cats(s(35.51, 26.86, 62.23, 0.75), s(26.04, 22.32, 47.92, 0.47), s(40.91, 33.63, 71.12, 0.20), s(30.75, 25.84, 23.43, 0.39)),
			overall(58.10, 0.21), 127, lat(17.99, 59.82, 18.53, 60.40)),
		both("Zep", mem0NotStated,
			cats(s(35.74, 23.30, 61.70, 0.32), s(19.37, 14.82, 41.35, 0.48), s(49.56, 38.92, 76.60, 0.13), s(42.00, 34.53, 49.31, 0.50)),
			overall(65.99, 0.16), 3911, lat(0.513, 0.778, 1.292, 2.926)),
		both("OpenAI", mem0Backbone,
			cats(s(34.30, 23.72, 63.79, 0.46), s(20.09, 15.42, 42.92, 0.63), s(39.31, 31.16, 62.29, 0.12), s(14.04, 11.25, 21.71, 0.20)),
			overall(52.90, 0.14), 4437, lat(nan, nan, 0.466, 0.889)),
		both("Mem0", mem0Backbone,
			cats(s(38.72, 27.13, 67.13, 0.65), s(28.64, 21.58, 51.15, 0.31), s(47.65, 38.72, 72.93, 0.11), s(48.93, 40.51, 55.51, 0.34)),
			overall(66.88, 0.15), 1764, lat(0.148, 0.200, 0.708, 1.440)),
		both("Mem0^g", mem0Backbone,
			cats(s(38.09, 26.03, 65.71, 0.45), s(24.32, 18.82, 47.19, 0.67), s(49.27, 40.30, 75.71, 0.21), s(51.55, 40.28, 58.13, 0.44)),
			overall(68.44, 0.17), 3616, lat(0.476, 0.657, 1.091, 2.590)),
		table2("A-Mem (Table 2)", overall(48.38, 0.15), 2520, nan, 0, lat(0.668, 1.485, 1.410, 4.374)),
		table2("Full-context", overall(72.90, 0.19), 26031, nan, 0, lat(nan, nan, 9.870, 17.117)),
	}
	// Table 2's RAG rows: k chunks of a chunk size, in the paper's order.
	for _, r := range []struct {
		k                             int
		chunk                         float64
		sp50, sp95, tp50, tp95, j, sd float64
	}{
		{1, 128, 0.281, 0.823, 0.774, 1.825, 47.77, 0.23},
		{1, 256, 0.251, 0.710, 0.745, 1.628, 50.15, 0.16},
		{1, 512, 0.240, 0.639, 0.772, 1.710, 46.05, 0.14},
		{1, 1024, 0.240, 0.723, 0.821, 1.957, 40.74, 0.17},
		{1, 2048, 0.255, 0.752, 0.996, 2.182, 37.93, 0.12},
		{1, 4096, 0.254, 0.719, 1.093, 2.711, 36.84, 0.17},
		{1, 8192, 0.279, 0.838, 1.396, 4.416, 44.53, 0.13},
		{2, 128, 0.267, 0.624, 0.766, 1.829, 59.56, 0.19},
		{2, 256, 0.255, 0.699, 0.802, 1.907, 60.97, 0.20},
		{2, 512, 0.247, 0.746, 0.829, 1.729, 58.19, 0.18},
		{2, 1024, 0.238, 0.702, 0.860, 1.850, 50.68, 0.13},
		{2, 2048, 0.261, 0.829, 1.101, 2.791, 48.57, 0.22},
		{2, 4096, 0.266, 0.944, 1.451, 4.822, 51.79, 0.15},
		{2, 8192, 0.288, 1.124, 2.312, 9.942, 60.53, 0.16},
	} {
		rows = append(rows, table2(ragLabel(r.k, r.chunk), overall(r.j, r.sd), nan, r.chunk, r.k, lat(r.sp50, r.sp95, r.tp50, r.tp95)))
	}
	return rows
}

func ragLabel(k int, chunk float64) string {
	return "RAG (k=" + strconv.Itoa(k) + ", chunk " + strconv.Itoa(int(chunk)) + ")"
}

// LongMemEvalRow is one published method on LongMemEval: accuracy in
// percent per question type (keyed by the type names of the data's
// question_type) and overall, as the source prints them.
type LongMemEvalRow struct {
	Label   string
	Types   map[string]float64
	Overall float64
	// Context and Latency are the source's "Avg Context Tokens" and
	// "Latency" (with its IQR) as printed ("115k", "31.3 s (IQR 8.76 s)"),
	// empty when not printed: the source rounds them and does not name the
	// latency's statistic, so they are kept as text.
	Context, Latency string
	// Dataset is the LongMemEval file the source ran; Backbone the
	// answering model; Judge who graded; Source the paper and tables.
	Dataset, Backbone, Judge, Source string
	// AbstentionApart is whether the source reports the abstention
	// questions (question_id ending in _abs) apart from their type.
	AbstentionApart bool
}

// LongMemEvalPublished are the published LongMemEval rows a report sets
// beside its per-type table, in print order.
//
// The Zep paper (ZepPaper), §3: LongMemEval (histories of about 115k
// tokens, the size of longmemeval_s), answers by gpt-4o-mini and
// gpt-4o over the full conversation (about 115k tokens) or Zep's memory,
// graded by GPT-4o with LongMemEval's question-specific prompts; Table 2
// prints the overall score, latency, its IQR and the average context
// tokens, Table 3 the score per question type (six types, no abstention
// class). The LongMemEval paper (arXiv 2410.10813) shows its per-type
// results as figures, so none of its numbers is held here.
func LongMemEvalPublished() []LongMemEvalRow {
	types := func(pref, asst, temporal, multi, update, user float64) map[string]float64 {
		return map[string]float64{"single-session-preference": pref, "single-session-assistant": asst,
			"temporal-reasoning": temporal, "multi-session": multi, "knowledge-update": update, "single-session-user": user}
	}
	const judge = "GPT-4o with LongMemEval's question-specific prompts"
	// The paper names the dataset "LongMemEvals" and its conversations
	// "approximately 115,000 tokens" long, the size of longmemeval_s; it
	// does not name the file.
	const zepDataset = "LongMemEval, histories of about 115k tokens (longmemeval_s's size)"
	src := ZepPaper + ", Tables 2 and 3"
	return []LongMemEvalRow{
		{Label: "Full-context (Zep paper)", Types: types(30.0, 81.8, 36.5, 40.6, 76.9, 81.4), Overall: 55.4,
			Context: "115k", Latency: "31.3 s (IQR 8.76 s)", Dataset: zepDataset, Backbone: "gpt-4o-mini", Judge: judge, Source: src},
		{Label: "Zep", Types: types(53.3, 75.0, 54.1, 47.4, 74.4, 92.9), Overall: 63.8,
			Context: "1.6k", Latency: "3.20 s (IQR 1.31 s)", Dataset: zepDataset, Backbone: "gpt-4o-mini", Judge: judge, Source: src},
		{Label: "Full-context (Zep paper)", Types: types(20.0, 94.6, 45.1, 44.3, 78.2, 81.4), Overall: 60.2,
			Context: "115k", Latency: "28.9 s (IQR 6.01 s)", Dataset: zepDataset, Backbone: "gpt-4o", Judge: judge, Source: src},
		{Label: "Zep", Types: types(56.7, 80.4, 62.4, 57.9, 83.3, 92.9), Overall: 71.2,
			Context: "1.6k", Latency: "2.58 s (IQR 0.684 s)", Dataset: zepDataset, Backbone: "gpt-4o", Judge: judge, Source: src},
	}
}
