package render

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"

	"github.com/memharness/memharness/reports/unit"
)

// Units of a long-format CSV's unit column: the vocabulary of package unit.
const (
	UnitPercent = unit.Percent
	UnitCount   = unit.Count
	UnitTokens  = unit.Tokens
	UnitUSD     = unit.USD
	UnitDraws   = unit.Draws
)

// WriteCSV writes a header and rows to path with encoding/csv quoting and
// "\n" line ends.
//
// It holds every CSV to the harness's contract: column names are unique
// (an error otherwise), a unit column holds units of the vocabulary only
// (an error otherwise), and a missing value is an empty cell everywhere, so
// undefined numbers ("NaN", "±Inf") are written empty.
func WriteCSV(path string, header []string, rows [][]string) error {
	seen := make(map[string]bool, len(header))
	for _, h := range header {
		if seen[h] {
			return fmt.Errorf("write %s: column %q appears twice", path, h)
		}
		seen[h] = true
	}
	if col := slices.Index(header, "unit"); col >= 0 {
		for i, r := range rows {
			if col < len(r) && !unit.Valid(r[col]) {
				return fmt.Errorf("write %s: row %d: unit %q is not one of %v", path, i+1, r[col], unit.All())
			}
		}
	}
	for _, r := range rows {
		for j, c := range r {
			switch c {
			case "NaN", "+Inf", "-Inf", "Inf":
				r[j] = ""
			default:
				r[j] = inertCell(c)
			}
		}
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(header); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	for i, r := range rows {
		if len(r) != len(header) {
			return fmt.Errorf("write %s: row %d has %d cells, header has %d", path, i+1, len(r), len(header))
		}
	}
	if err := w.WriteAll(rows); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// inertCell keeps a text cell from being read as a formula by a
// spreadsheet (a model name "=HYPERLINK(...)" would become a live link in
// every CSV): a cell starting with =, +, - or @ that is not a number, or
// with a tab or carriage return, is prefixed with an apostrophe, which
// spreadsheets take as "text" and do not show.
func inertCell(c string) string {
	if c == "" {
		return c
	}
	switch c[0] {
	case '\t', '\r':
		return "'" + c
	case '=', '+', '-', '@':
		if len(c) == 1 {
			return c
		}
		if _, err := strconv.ParseFloat(c, 64); err == nil {
			return c
		}
		return "'" + c
	}
	return c
}

// num formats a metric with fixed precision so files are byte-stable;
// undefined values are "NaN".
// costNum is a cost for a CSV: empty (null) when the run has no prices.
func CostNum(v float64, priced bool) string {
	if !priced {
		return ""
	}
	return Num(v)
}

func Num(v float64) string {
	if math.IsNaN(v) {
		return "NaN"
	}
	if v == 0 {
		v = 0 // normalise -0
	}
	return strconv.FormatFloat(v, 'f', 6, 64)
}

// pct formats a share in [0, 1] as a percentage with two decimals, as the
// reference reports; undefined values are "–".
func Pct(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return strconv.FormatFloat(100*v+0, 'f', 2, 64)
}

// Fixed2 formats a percentage with two decimals; undefined values are "—".
func Fixed2(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return strconv.FormatFloat(v+0, 'f', 2, 64)
}
