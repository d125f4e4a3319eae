package reports

import (
	"path/filepath"
	"strconv"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/reports/scored"
)

// metricsHeader is the tidy long format: one metric of one method and field
// per row.
var metricsHeader = []string{"method", "field", "metric", "value", "ci_low", "ci_high", "n", "unit"}

// usageField is the field column of method-level rows (usage, tokens).
const usageField = "all"

func (s *summary) writeMetricsCSV(dir string) ([]render.Artefact, error) {
	var rows [][]string
	for _, m := range s.Run.Methods {
		for _, f := range s.Run.Fields {
			rows = append(rows, cellRows(s.Cells[m][f.Name])...)
		}
		rows = append(rows, usageRows(m, s.Usage[m], s.Priced())...)
	}
	if err := render.WriteCSV(filepath.Join(dir, "metrics.csv"), metricsHeader, rows); err != nil {
		return nil, err
	}
	return []render.Artefact{{Path: "metrics.csv", Desc: "every metric per method and field in tidy long format (method, field, metric, value, CI, n)"}}, nil
}

func cellRows(c *scored.Cell) [][]string {
	m, f, n := c.Method, c.Field.Name, len(c.Items)
	rows := [][]string{
		ciRow(m, f, "accuracy_valid", c.AccValid, c.Valid),
		ciRow(m, f, "accuracy_all", c.AccAll, n),
		plainRow(m, f, "invalid_rate", pctNum(c.InvalidRate), n, render.UnitPercent),
		plainRow(m, f, "invalid", strconv.Itoa(c.Invalid), n, render.UnitCount),
	}
	if c.Field.Kind == scored.KindBinary {
		return append(rows,
			ciRow(m, f, "f1", c.F1, c.Valid),
			plainRow(m, f, "precision", pctNum(c.Precision), c.Valid, render.UnitPercent),
			plainRow(m, f, "recall", pctNum(c.Recall), c.Valid, render.UnitPercent),
		)
	}
	return append(rows,
		ciRow(m, f, "macro_f1", c.MacroF1, n),
		plainRow(m, f, "macro_f1_present", pctNum(c.MacroF1Present), n, render.UnitPercent),
		ciRow(m, f, "diagonal_share", c.Diagonal, n),
	)
}

// usageRows are a method's counts; cost is empty (null) when the run has
// no prices, since 0 would claim the calls were free.
func usageRows(m string, u scored.Usage, priced bool) [][]string {
	all := u.Samples + u.Errored
	mean := func(total int) string { return render.Num(scored.Ratio(total, u.Samples)) }
	return [][]string{
		plainRow(m, usageField, "samples", strconv.Itoa(u.Samples), all, render.UnitCount),
		plainRow(m, usageField, "errored", strconv.Itoa(u.Errored), all, render.UnitCount),
		plainRow(m, usageField, "mean_attempts", mean(u.Attempts), u.Samples, render.UnitDraws),
		plainRow(m, usageField, "mean_history_tokens", mean(u.HistoryTokens), u.Samples, render.UnitTokens),
		plainRow(m, usageField, "mean_memory_tokens", mean(u.MemoryTokens), u.Samples, render.UnitTokens),
		plainRow(m, usageField, "calls", strconv.Itoa(u.Calls), all, render.UnitCount),
		plainRow(m, usageField, "cached_calls", strconv.Itoa(u.CachedCalls), all, render.UnitCount),
		plainRow(m, usageField, "prompt_tokens", strconv.Itoa(u.PromptTokens), all, render.UnitTokens),
		plainRow(m, usageField, "completion_tokens", strconv.Itoa(u.CompletionTokens), all, render.UnitTokens),
		plainRow(m, usageField, "cost", render.CostNum(u.Cost, priced), all, render.UnitUSD),
	}
}

// ciRow is a share with its interval, in percent like every paper table.
func ciRow(method, field, metric string, iv metrics.Interval, n int) []string {
	return []string{method, field, metric, pctNum(iv.Point), pctNum(iv.Lo), pctNum(iv.Hi), strconv.Itoa(n), render.UnitPercent}
}

func plainRow(method, field, metric, value string, n int, unit string) []string {
	return []string{method, field, metric, value, "", "", strconv.Itoa(n), unit}
}

// pctNum writes a share in [0, 1] as a percentage, fixed precision.
func pctNum(v float64) string { return render.Num(100 * v) }
