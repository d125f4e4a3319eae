package paper

// PraMem's studies beyond Table 1 (spec §7): the ablation Table 2, the memory
// evolution by practice round and the efficiency Table 3. The paper ran all
// of them with one backbone only, GPT-OSS-120B. Figures 5 and 6 (only
// pattern / only bias, w/o groundedness / w/o generalizability) have no
// numbers in the paper's text, so nothing is recorded for them.
//
// The data are returned by functions, each call a fresh copy, so no caller
// can change what another sees.

// StudiesBackbone is the LLM of Table 2, the evolution study and Table 3.
const StudiesBackbone = "GPT-OSS-120B"

// Ablation is one row of Table 2: positive-class F1 in %.
type Ablation struct {
	// Variant is the ablation it measures: "full", "no_trial",
	// "no_reflection" or "no_consensus" (the names of the harness's
	// pramem ablation switches).
	Variant string
	// Label is the row as the paper prints it.
	Label string
	// Scene holds Video, Live, Ads and E-commerce in the order of Scenes.
	Scene   [4]float64
	Overall float64
}

// Table2 is PraMem's ablation table (GPT-OSS-120B, F1 only).
func Table2() []Ablation {
	return []Ablation{
		{Variant: "full", Label: "PraMem", Scene: [4]float64{25.6, 29.9, 43.7, 27.1}, Overall: 31.6},
		{Variant: "no_trial", Label: "w/o deep-thinking trial", Scene: [4]float64{25.5, 26.2, 41.2, 24.1}, Overall: 29.3},
		{Variant: "no_reflection", Label: "w/o reflective proposal", Scene: [4]float64{23.9, 29.5, 43.5, 27.0}, Overall: 30.9},
		{Variant: "no_consensus", Label: "w/o consensual adjustment", Scene: [4]float64{26.0, 28.2, 38.3, 22.6}, Overall: 28.8},
	}
}

// EvolutionPoint is Overall ACC and F1 (%) after a number of practice rounds.
type EvolutionPoint struct {
	Round   int
	Overall ACCF1
}

// EvolutionRounds is the paper's number of practice rounds.
const EvolutionRounds = 80

// Evolution is the memory-evolution study (GPT-OSS-120B). The paper gives
// memory length only as a figure (it grows to about round 60, then
// plateaus), so no token counts are recorded.
func Evolution() []EvolutionPoint {
	return []EvolutionPoint{
		{Round: 10, Overall: ACCF1{ACC: 79.0, F1: 28.3}},
		{Round: 40, Overall: ACCF1{ACC: 83.5, F1: 30.7}},
		{Round: 80, Overall: ACCF1{ACC: 84.7, F1: 31.6}},
	}
}

// Efficiency is one row of Table 3: mean memory-construction time per user
// and Overall F1 (%).
type Efficiency struct {
	// Label is the method as the paper prints it; a method kind's entry
	// names its row by it (kinds.PaperRow, table Table3Name).
	Label     string
	Minutes   float64
	OverallF1 float64
	// Calls is the LLM calls per user the paper's text gives (only for
	// PraMem: "about 500"); 0 when the paper gives none.
	Calls float64
}

// Table3 is PraMem's efficiency table (GPT-OSS-120B).
func Table3() []Efficiency {
	return []Efficiency{
		{Label: "Mem0", Minutes: 34.1, OverallF1: 26.4},
		{Label: "MemOS", Minutes: 30.6, OverallF1: 26.2},
		{Label: "ProEx", Minutes: 24.7, OverallF1: 26.9},
		{Label: "PraMem", Minutes: 55.8, OverallF1: 31.6, Calls: 500},
	}
}
