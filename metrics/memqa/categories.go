package memqa

import (
	"fmt"
	"strings"
)

// LoCoMo's numeric question categories. The constants are named by the
// official code's rules (see NamesLoCoMoCode), which is what Score
// follows whatever table a report prints.
const (
	CategoryMultiHop    = 1
	CategoryTemporal    = 2
	CategoryOpenDomain  = 3
	CategorySingleHop   = 4
	CategoryAdversarial = 5
)

// NameTable selects which names a report prints for LoCoMo's numbers.
type NameTable string

const (
	// NamesLoCoMoCode follows snap-research/LoCoMo's code: evaluation.py
	// scores 1 by sub-answers split on commas ("multi-hop"), cuts 3 at the
	// first ';' and asks 2 with "Use DATE of CONVERSATION" (gpt_utils.py),
	// so 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5
	// adversarial (locomo issues #6 and #29 read the code the same way).
	NamesLoCoMoCode NameTable = "locomo-code"
	// NamesMem0 is the table mem0's maintainers gave for the Mem0 paper's
	// columns (mem0 issue #2609): 1 single-hop, 2 temporal, 3 multi-hop,
	// 4 open-domain; 5 adversarial (which mem0's evaluation skips).
	NamesMem0 NameTable = "mem0"
)

// NameTables lists the tables, the default first.
func NameTables() []NameTable { return []NameTable{NamesLoCoMoCode, NamesMem0} }

// ParseNameTable reads a table name as a config writes it.
func ParseNameTable(s string) (NameTable, error) {
	for _, t := range NameTables() {
		if string(t) == s {
			return t, nil
		}
	}
	names := make([]string, 0, 2)
	for _, t := range NameTables() {
		names = append(names, string(t))
	}
	return "", fmt.Errorf("LoCoMo category names %q: want one of %s", s, strings.Join(names, ", "))
}

// CategoryName is the name table t gives category c.
func CategoryName(t NameTable, c int) (string, error) {
	var names [6]string
	switch t {
	case NamesLoCoMoCode:
		names = [6]string{1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
	case NamesMem0:
		names = [6]string{1: "single-hop", 2: "temporal", 3: "multi-hop", 4: "open-domain", 5: "adversarial"}
	default:
		return "", fmt.Errorf("LoCoMo category names: unknown table %q", t)
	}
	if c < 1 || c > 5 {
		return "", fmt.Errorf("LoCoMo category %d: the data has 1 to 5", c)
	}
	return names[c], nil
}

// PrintOrder is the order evaluation_stats.py prints the categories in
// (and sums them for the overall score): 4, 1, 2, 3, 5.
func PrintOrder() []int { return []int{4, 1, 2, 3, 5} }

// CategoryMean is one category's tally.
type CategoryMean struct {
	Category int
	Count    int
	Sum      float64
	// Mean is Sum/Count (NaN when Count is 0).
	Mean float64
}

// Aggregate is evaluation_stats.py's analyze_aggr_acc on per-question
// scores: each category's sum in question order, and the overall mean as
// the categories' sums added in PrintOrder over all their questions. The
// official script stores round(score, 3) per question before it sums, so
// pass Round3'd scores to reproduce its printout. With includeAdversarial
// false, category 5 is left out of the overall score (mem0's evaluation
// skips it), though its own mean is still reported.
type Aggregate struct {
	Categories         []CategoryMean // in PrintOrder
	Overall            float64
	OverallCount       int
	AdversarialCounted bool
}

// AggregateScores tallies scores by category (parallel slices). A
// category outside 1..5 or slices of different lengths is an error.
func AggregateScores(scores []float64, categories []int, includeAdversarial bool) (Aggregate, error) {
	if len(scores) != len(categories) {
		return Aggregate{}, fmt.Errorf("aggregate: %d scores for %d categories", len(scores), len(categories))
	}
	var sums [6]float64
	var counts [6]int
	for i, c := range categories {
		if c < 1 || c > 5 {
			return Aggregate{}, fmt.Errorf("aggregate: question %d has category %d (LoCoMo has 1 to 5)", i, c)
		}
		sums[c] += scores[i]
		counts[c]++
	}
	a := Aggregate{AdversarialCounted: includeAdversarial}
	total := 0.0
	for _, c := range PrintOrder() {
		m := CategoryMean{Category: c, Count: counts[c], Sum: sums[c], Mean: nan()}
		if counts[c] > 0 {
			m.Mean = sums[c] / float64(counts[c])
		}
		a.Categories = append(a.Categories, m)
		if c == CategoryAdversarial && !includeAdversarial {
			continue
		}
		total += sums[c]
		a.OverallCount += counts[c]
	}
	a.Overall = nan()
	if a.OverallCount > 0 {
		a.Overall = total / float64(a.OverallCount)
	}
	return a, nil
}

// AdversarialLabel is the phrase every title carries for the choice.
func AdversarialLabel(included bool) string {
	if included {
		return "adversarial (category 5) counted in overall"
	}
	return "adversarial (category 5) excluded from overall"
}
