package reports

import (
	"path/filepath"
	"strconv"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/reports/render"
)

// repeatsHeader is metrics.csv's long format with the reducer beside it.
var repeatsHeader = []string{"method", "field", "reducer", "metric", "value", "ci_low", "ci_high", "n", "unit"}

// writeRepeatsCSV writes repeats.csv for a run that asked each question
// more than once: per method and field the reducer's score with an
// interval clustered by user (each user's questions resampled with all
// their draws), the accuracy of each draw alone and its spread. A run of
// one draw writes nothing.
func (s *summary) writeRepeatsCSV(dir string) ([]render.Artefact, error) {
	if len(s.Repeats) == 0 {
		return nil, nil
	}
	red, err := metrics.ParseReducer(s.Opts.Reducer, s.Repeats[0].Draws)
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for _, c := range s.Repeats {
		row := func(metric, value, lo, hi string, n int, unit string) []string {
			return []string{c.Method, c.Field, red.String(), metric, value, lo, hi, strconv.Itoa(n), unit}
		}
		lo, hi := c.DrawRange()
		rows = append(rows,
			row("reduced_accuracy", pctNum(c.Score.Point), pctNum(c.Score.Lo), pctNum(c.Score.Hi), c.Questions, render.UnitPercent),
			row("draws", strconv.Itoa(c.Draws), "", "", c.Questions, render.UnitDraws),
			row("draw_accuracy_sd", pctNum(c.SpreadSD), "", "", len(c.DrawAccuracy), render.UnitPercent),
			row("draw_accuracy_min", pctNum(lo), "", "", len(c.DrawAccuracy), render.UnitPercent),
			row("draw_accuracy_max", pctNum(hi), "", "", len(c.DrawAccuracy), render.UnitPercent),
		)
	}
	if err := render.WriteCSV(filepath.Join(dir, "repeats.csv"), repeatsHeader, rows); err != nil {
		return nil, err
	}
	return []render.Artefact{{Path: "repeats.csv", Desc: "repeated draws (eval.repeats): per method and field the reducer's score (" +
		red.String() + ") with its interval over users and their draws, and the accuracy of one draw: its SD, min and max across draws"}}, nil
}
