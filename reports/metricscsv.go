package reports

import (
	"path/filepath"
	"strconv"

	"github.com/memharness/memharness/metrics"
)

// metricsHeader is the tidy long format: one metric of one method and field
// per row.
var metricsHeader = []string{"method", "field", "metric", "value", "ci_low", "ci_high", "n", "unit"}

// usageField is the field column of method-level rows (usage, tokens).
const usageField = "all"

func (s *summary) writeMetricsCSV(dir string) ([]Artefact, error) {
	var rows [][]string
	for _, m := range s.run.methods {
		for _, f := range s.run.fields {
			rows = append(rows, cellRows(s.cells[m][f.Name])...)
		}
		rows = append(rows, usageRows(m, s.usage[m], s.priced())...)
	}
	if err := WriteCSV(filepath.Join(dir, "metrics.csv"), metricsHeader, rows); err != nil {
		return nil, err
	}
	return []Artefact{{"metrics.csv", "every metric per method and field in tidy long format (method, field, metric, value, CI, n)"}}, nil
}

func cellRows(c *cell) [][]string {
	m, f, n := c.Method, c.Field.Name, len(c.Items)
	rows := [][]string{
		ciRow(m, f, "accuracy_valid", c.AccValid, c.Valid),
		ciRow(m, f, "accuracy_all", c.AccAll, n),
		plainRow(m, f, "invalid_rate", pctNum(c.InvalidRate), n, unitPercent),
		plainRow(m, f, "invalid", strconv.Itoa(c.Invalid), n, unitCount),
	}
	if c.Field.Kind == kindBinary {
		return append(rows,
			ciRow(m, f, "f1", c.F1, c.Valid),
			plainRow(m, f, "precision", pctNum(c.Precision), c.Valid, unitPercent),
			plainRow(m, f, "recall", pctNum(c.Recall), c.Valid, unitPercent),
		)
	}
	return append(rows,
		ciRow(m, f, "macro_f1", c.MacroF1, n),
		plainRow(m, f, "macro_f1_present", pctNum(c.MacroF1Present), n, unitPercent),
		ciRow(m, f, "diagonal_share", c.Diagonal, n),
	)
}

// usageRows are a method's counts; cost is empty (null) when the run has
// no prices, since 0 would claim the calls were free.
func usageRows(m string, u usage, priced bool) [][]string {
	all := u.Samples + u.Errored
	mean := func(total int) string { return num(nanDiv(total, u.Samples)) }
	return [][]string{
		plainRow(m, usageField, "samples", strconv.Itoa(u.Samples), all, unitCount),
		plainRow(m, usageField, "errored", strconv.Itoa(u.Errored), all, unitCount),
		plainRow(m, usageField, "mean_attempts", mean(u.Attempts), u.Samples, unitDraws),
		plainRow(m, usageField, "mean_history_tokens", mean(u.HistoryTokens), u.Samples, unitTokens),
		plainRow(m, usageField, "mean_memory_tokens", mean(u.MemoryTokens), u.Samples, unitTokens),
		plainRow(m, usageField, "calls", strconv.Itoa(u.Calls), all, unitCount),
		plainRow(m, usageField, "cached_calls", strconv.Itoa(u.CachedCalls), all, unitCount),
		plainRow(m, usageField, "prompt_tokens", strconv.Itoa(u.PromptTokens), all, unitTokens),
		plainRow(m, usageField, "completion_tokens", strconv.Itoa(u.CompletionTokens), all, unitTokens),
		plainRow(m, usageField, "cost", costNum(u.Cost, priced), all, unitUSD),
	}
}

// ciRow is a share with its interval, in percent like every paper table.
func ciRow(method, field, metric string, iv metrics.Interval, n int) []string {
	return []string{method, field, metric, pctNum(iv.Point), pctNum(iv.Lo), pctNum(iv.Hi), strconv.Itoa(n), unitPercent}
}

func plainRow(method, field, metric, value string, n int, unit string) []string {
	return []string{method, field, metric, value, "", "", strconv.Itoa(n), unit}
}

// pctNum writes a share in [0, 1] as a percentage, fixed precision.
func pctNum(v float64) string { return num(100 * v) }
