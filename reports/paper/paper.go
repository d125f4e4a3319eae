// Package paper holds published numbers that the reports compare runs with.
// The values are copied from the papers' tables (PraMem, arXiv 2607.02881;
// LifeMem, arXiv 2609.12655) and never computed here.
package paper

import "strings"

// The tables a method kind's entry may place it in (kinds.PaperRow.Table).
const (
	// Table1Name is PraMem's main table (Table1 here).
	Table1Name = "PraMem Table 1"
	// Table2Name is PraMem's ablation table: the kind with a row there is
	// the one whose switches the ablations turn.
	Table2Name = "PraMem Table 2"
	// Table3Name is PraMem's efficiency table (Table3 here): the memory
	// systems and PraMem.
	Table3Name = "PraMem Table 3"
)

// Scenes are the OmniBehavior scenes of Table 1, in the paper's column order.
// Each is the field-name prefix of its binary questions.
var Scenes = []string{"video", "live", "ad", "shop"}

// ACCF1 is one (accuracy, positive-class F1) pair, in percent.
type ACCF1 struct{ ACC, F1 float64 }

// Row is one method of PraMem's Table 1 under one backbone.
type Row struct {
	// Label is the method as the paper prints it; a method kind's entry
	// names its row by it (kinds.PaperRow, table Table1Name).
	Label string
	// Scene holds Video, Live, Ads and E-commerce in the order of Scenes.
	Scene [4]ACCF1
	// Overall is the paper's Overall column (the mean of the four scenes,
	// rounded to one decimal as printed).
	Overall ACCF1
}

// Backbone is one half of Table 1: every method run on one LLM.
type Backbone struct {
	Name string
	// Model is the model ID a run's model name contains (after Normalize)
	// when it is this backbone, e.g. "openai/gpt-oss-120b".
	Model string
	Rows  []Row
}

// SameModel reports whether a run's model name is this backbone's LLM.
func (b Backbone) SameModel(model string) bool {
	return model != "" && strings.Contains(Normalize(model), Normalize(b.Model))
}

// Find returns the row the paper prints as label.
func (b Backbone) Find(label string) (Row, bool) {
	for _, r := range b.Rows {
		if r.Label == label {
			return r, true
		}
	}
	return Row{}, false
}

// Normalize folds a method name for matching: lower case, with underscores,
// hyphens and spaces removed ("Long_Context" and "long-context" match).
func Normalize(method string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '_', '-', ' ':
			return -1
		}
		return r
	}, strings.ToLower(method))
}

func row(label string, v [10]float64) Row {
	r := Row{Label: label}
	for i := range r.Scene {
		r.Scene[i] = ACCF1{ACC: v[2*i], F1: v[2*i+1]}
	}
	r.Overall = ACCF1{ACC: v[8], F1: v[9]}
	return r
}

// Table1 is PraMem's Table 1 (OmniBehavior; ACC / F1 in %), both backbones:
// Video, Live, Ads, E-commerce and Overall, each as ACC then F1.
var Table1 = []Backbone{
	{Name: "GPT-OSS-120B", Model: "gpt-oss-120b", Rows: []Row{
		row("Long-context (32K)", [10]float64{74.9, 23.4, 67.2, 25.2, 59.4, 28.3, 72.0, 21.4, 68.4, 24.6}),
		row("Truncation (8K)", [10]float64{79.5, 23.9, 73.2, 27.4, 61.0, 26.2, 80.1, 21.3, 73.5, 24.7}),
		row("RAG", [10]float64{77.9, 20.6, 71.6, 26.6, 61.3, 22.2, 65.7, 14.3, 69.1, 20.9}),
		row("Summary", [10]float64{80.1, 23.2, 77.0, 28.4, 64.7, 27.5, 74.5, 18.2, 74.1, 24.3}),
		row("Mem0", [10]float64{81.7, 25.9, 75.0, 28.5, 63.1, 29.5, 78.9, 21.6, 74.7, 26.4}),
		row("MemOS", [10]float64{78.9, 25.0, 74.4, 28.8, 61.8, 29.0, 77.3, 22.0, 73.1, 26.2}),
		row("ProEx", [10]float64{82.5, 26.2, 77.1, 27.7, 68.1, 28.5, 83.3, 25.2, 77.7, 26.9}),
		row("PraMem", [10]float64{86.4, 25.6, 83.7, 29.9, 82.3, 43.7, 86.2, 27.1, 84.7, 31.6}),
	}},
	{Name: "Qwen3.5-35B-A3B", Model: "qwen3.5-35b-a3b", Rows: []Row{
		row("Long-context (32K)", [10]float64{61.5, 18.1, 62.0, 22.5, 55.7, 25.4, 62.2, 20.1, 60.3, 21.5}),
		row("Truncation (8K)", [10]float64{67.7, 18.6, 64.3, 22.6, 58.0, 24.4, 65.3, 18.1, 63.8, 20.9}),
		row("RAG", [10]float64{64.2, 17.0, 60.5, 19.7, 55.9, 25.1, 61.3, 15.8, 60.5, 19.4}),
		row("Summary", [10]float64{67.3, 19.2, 65.6, 22.9, 59.4, 25.7, 64.2, 16.5, 64.1, 21.1}),
		row("Mem0", [10]float64{67.2, 19.0, 66.6, 24.4, 55.6, 24.0, 65.9, 19.3, 63.8, 21.7}),
		row("MemOS", [10]float64{65.8, 19.5, 65.6, 24.2, 54.2, 24.6, 67.9, 19.4, 63.4, 21.9}),
		row("ProEx", [10]float64{70.7, 18.7, 69.0, 23.4, 61.3, 24.0, 69.2, 19.8, 67.6, 21.5}),
		row("PraMem", [10]float64{77.7, 20.3, 75.6, 26.9, 74.6, 32.4, 74.3, 21.5, 75.6, 25.3}),
	}},
}
