package reports

import (
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/reports/runinfo"
	"github.com/memharness/memharness/runrecord"
)

// SweepVariant is one variant of a sweep as the runner finished it.
type SweepVariant struct {
	// Name is the variant's name: named variants and grid points joined by
	// "__", grid points as key=value (e.g. "sim-default__top_k=5").
	Name string
	// Dir is the run directory holding the variant's report/.
	Dir              string
	Planned, Errored int
	// SameAs names the variant whose run this one shares (the sim backbone
	// ignores model names and sampling parameters); "" when it ran itself.
	SameAs string
}

// sweepPoint is one variant's headline metric for one method.
type sweepPoint struct{ v, lo, hi float64 }

// sweepMetric is the headline metric the sweep compares, read from the
// variant's report: Overall F1 of Table 1 (OmniBehavior), LifeMem's
// average OP, or accuracy over all answers of the first question field.
type sweepMetric struct {
	name    string
	unit    string // the unit column of sweep.csv, as in the variant's CSV
	methods []string
	at      map[string]sweepPoint // method → value
	// resampled is what the intervals resample ("" for users, the
	// behaviour-prediction reports'; LifeMem's resample test tasks).
	resampled string
}

// readSweepMetric reads the headline metric of one variant's report.
func readSweepMetric(reportDir string) (sweepMetric, error) {
	if rows, err := readCSVRows(filepath.Join(reportDir, "table1.csv")); err == nil {
		m := sweepMetric{name: "Overall F1 (%)", unit: render.UnitPercent, at: map[string]sweepPoint{}}
		for _, r := range rows {
			if r["scene"] == "overall" && r["metric"] == "f1" {
				m.add(r["method"], r["value"], r["ci_low"], r["ci_high"])
			}
		}
		return m, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return sweepMetric{}, err
	}
	if rows, err := readCSVRows(filepath.Join(reportDir, "lifemem_table2.csv")); err == nil {
		m := sweepMetric{name: "average OP (%)", unit: render.UnitPercent, at: map[string]sweepPoint{}, resampled: "each environment's test tasks"}
		for _, r := range rows {
			if r["category"] == "Avg" && r["metric"] == "op" {
				m.add(r["method"], r["value"], r["ci_low"], r["ci_high"])
			}
		}
		return m, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return sweepMetric{}, err
	}
	rows, err := readCSVRows(filepath.Join(reportDir, "metrics.csv"))
	if err != nil {
		return sweepMetric{}, err
	}
	field, unit := "", ""
	for _, r := range rows {
		if r["metric"] == "accuracy_all" && r["field"] != "all" {
			field, unit = r["field"], r["unit"]
			break
		}
	}
	m := sweepMetric{name: "accuracy of " + field + " (all answers)", unit: unit, at: map[string]sweepPoint{}}
	for _, r := range rows {
		if r["field"] == field && r["metric"] == "accuracy_all" {
			m.add(r["method"], r["value"], r["ci_low"], r["ci_high"])
		}
	}
	return m, nil
}

func (m *sweepMetric) add(method, v, lo, hi string) {
	p := sweepPoint{parseNum(v), parseNum(lo), parseNum(hi)}
	if _, ok := m.at[method]; !ok {
		m.methods = append(m.methods, method)
	}
	m.at[method] = p
}

func parseNum(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// readCSVRows reads a CSV with a header into one map per row.
func readCSVRows(path string) ([]map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, nil
	}
	var out []map[string]string
	for _, r := range recs[1:] {
		row := map[string]string{}
		for i, h := range recs[0] {
			if i < len(r) {
				row[h] = r[i]
			}
		}
		out = append(out, row)
	}
	return out, nil
}

// sweptValue splits a variant name into its numeric swept key and value
// (the last key=value part that is a number) and the rest, which names the
// curve the variant belongs to.
func sweptValue(name string) (key string, x float64, rest string, ok bool) {
	parts := strings.Split(name, "__")
	for i := len(parts) - 1; i >= 0; i-- {
		k, v, found := strings.Cut(parts[i], "=")
		if !found {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			continue
		}
		return k, f, strings.Join(slices.Delete(slices.Clone(parts), i, i+1), "__"), true
	}
	return "", 0, name, false
}

// WriteSweep writes the comparison of a sweep's variants into root:
// sweep.md (variants in natural order, the headline metric ± CI per method,
// samples, errors, links), sweep.csv and, when the variants differ in a
// numeric value, sweep.png (the metric against that value, one line per
// method and named variant, CIs as error bars).
func WriteSweep(root string, variants []SweepVariant) (render.Artefacts, error) {
	vs := slices.Clone(variants)
	slices.SortStableFunc(vs, func(a, b SweepVariant) int {
		if render.NaturalLess(a.Name, b.Name) {
			return -1
		}
		if render.NaturalLess(b.Name, a.Name) {
			return 1
		}
		return 0
	})
	metrics := make([]sweepMetric, len(vs))
	var methods []string
	metricName := ""
	var problems []string
	for i, v := range vs {
		m, err := readSweepMetric(filepath.Join(v.Dir, render.ReportDir))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: no metrics (%v)", v.Name, err))
			continue
		}
		metrics[i] = m
		if metricName == "" {
			metricName = m.name
		}
		for _, mm := range m.methods {
			if !slices.Contains(methods, mm) {
				methods = append(methods, mm)
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Sweep %s\n\n", render.MdText(filepath.Base(root)))
	if metricName != "" {
		fmt.Fprintf(&b, "Metric: %s, point estimate [bootstrap CI] per method; variants in numeric order.\n\n", render.MdText(metricName))
	}
	b.WriteString("| variant |")
	for _, m := range methods {
		b.WriteString(" " + render.MdCell(m) + " |")
	}
	b.WriteString(" samples | errored | report |\n|---|")
	b.WriteString(strings.Repeat("---|", len(methods)+3) + "\n")
	header := append([]string{"variant", "swept_key", "swept_value", "method", "metric", "value", "ci_low", "ci_high", "unit", "samples", "errored", "same_as"}, runinfo.ProvenanceColumns...)
	var rows [][]string
	for i, v := range vs {
		name := render.MdCell(v.Name)
		if v.SameAs != "" {
			name += " (same run as " + render.MdCell(v.SameAs) + ": the sim backbone ignores model name and sampling parameters)"
		}
		fmt.Fprintf(&b, "| %s |", name)
		key, x, _, numeric := sweptValue(v.Name)
		xs := ""
		if numeric {
			xs = strconv.FormatFloat(x, 'f', -1, 64)
		}
		for _, m := range methods {
			p, ok := metrics[i].at[m]
			cell := "—"
			if ok && !math.IsNaN(p.v) {
				cell = render.Fixed2(p.v)
				if !math.IsNaN(p.lo) && !math.IsNaN(p.hi) {
					cell += " [" + render.Fixed2(p.lo) + ", " + render.Fixed2(p.hi) + "]"
				}
				// A run without planned samples (a LifeMem run counts
				// episodes) leaves the count empty rather than 0.
				planned := ""
				if v.Planned > 0 {
					planned = strconv.Itoa(v.Planned)
				}
				pv := variantProvenance(v)
				rows = append(rows, []string{v.Name, key, xs, m, metricName, render.Num(p.v), render.Num(p.lo), render.Num(p.hi), metrics[i].unit,
					planned, strconv.Itoa(v.Errored), v.SameAs, pv.Backbone, pv.Model, pv.DataSource, pv.Harness})
			}
			b.WriteString(" " + cell + " |")
		}
		rel, _ := filepath.Rel(root, filepath.Join(v.Dir, render.ReportDir, "index.md"))
		fmt.Fprintf(&b, " %d | %d | [index](%s) |\n", v.Planned, v.Errored, filepath.ToSlash(rel))
	}
	for _, p := range problems {
		b.WriteString("\n- " + render.MdText(p))
	}
	arts := render.Artefacts{Dir: root}
	fig, hasFig, err := sweepPlot(filepath.Base(root), metricName, vs, metrics, methods)
	if err != nil {
		return arts, err
	}
	if hasFig {
		b.WriteString("\n![metric against the swept value](sweep.png)\n")
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return arts, err
	}
	if err := os.WriteFile(filepath.Join(root, "sweep.md"), []byte(b.String()), 0o644); err != nil {
		return arts, fmt.Errorf("write sweep.md: %w", err)
	}
	arts.Files = append(arts.Files, render.Artefact{Path: "sweep.md", Desc: "the variants compared: headline metric ± CI per method"})
	if err := render.WriteCSV(filepath.Join(root, "sweep.csv"), header, rows); err != nil {
		return arts, err
	}
	arts.Files = append(arts.Files, render.Artefact{Path: "sweep.csv", Desc: "the same comparison, one row per variant and method"})
	if hasFig {
		figs, err := render.WriteFigure(root, "sweep", fig, "the metric against the swept value")
		if err != nil {
			return arts, err
		}
		arts.Files = append(arts.Files, figs...)
	}
	return arts, nil
}

// sweepPlot draws the metric against the swept value, one line per method
// and named variant when the values are numbers, and one point per variant
// and method otherwise (e.g. a stream=similarity/random/buffer sweep); ok is
// false when no variant has a metric.
func sweepPlot(name, metric string, vs []SweepVariant, ms []sweepMetric, methods []string) (f render.FigFiles, ok bool, err error) {
	type curve struct {
		name       string
		x, y, l, h []float64
	}
	var curves []*curve
	byName := map[string]*curve{}
	xKey := ""
	for i, v := range vs {
		key, x, rest, ok := sweptValue(v.Name)
		if !ok {
			continue
		}
		xKey = key
		for _, m := range methods {
			p, ok := ms[i].at[m]
			if !ok {
				continue
			}
			cn := m
			if rest != "" {
				cn = m + " (" + rest + ")"
			}
			c := byName[cn]
			if c == nil {
				c = &curve{name: cn}
				byName[cn] = c
				curves = append(curves, c)
			}
			c.x, c.y, c.l, c.h = append(c.x, x), append(c.y, p.v), append(c.l, p.lo), append(c.h, p.hi)
		}
	}
	spec := render.FigSpec{Title: "Sweep " + name, Width: render.OneColumn,
		Caption: fmt.Sprintf("%d variants of %s; each variant's own report holds its provenance", len(vs), name),
		Notes:   []string{sweepCINote(vs, metricResampled(ms))}}
	for _, v := range vs {
		if v.SameAs != "" {
			// Identical points are the same run, not a finding.
			spec.Notes = append(spec.Notes, fmt.Sprintf("%s is the same run as %s (the sim backbone ignores model name and sampling parameters), so its points repeat.", v.Name, v.SameAs))
		}
	}
	if len(curves) == 0 {
		return sweepCategorical(spec, metric, vs, ms, methods)
	}
	panel := render.LinePanel{Title: metric + " against " + xKey, XLabel: xKey, YLabel: metric, YFloor: 0, YCeil: math.NaN()}
	for _, c := range curves {
		for _, x := range c.x {
			if !slices.Contains(panel.XTicks, x) {
				panel.XTicks = append(panel.XTicks, x)
			}
		}
	}
	if len(panel.XTicks) > 12 {
		panel.XTicks = nil // too many to label each
	}
	for k, c := range curves {
		panel.Series = append(panel.Series, render.XySeries{Name: c.name, X: c.x, Y: c.y, Lo: c.l, Hi: c.h, Line: true, Color: k})
	}
	f, err = render.LineFigure(spec, []render.LinePanel{panel}, 1)
	return f, err == nil, err
}

// sweepCategorical is the sweep figure for variants without a numeric
// value: the metric of each method at each variant, as points with their
// intervals.
func sweepCategorical(spec render.FigSpec, metric string, vs []SweepVariant, ms []sweepMetric, methods []string) (render.FigFiles, bool, error) {
	panel := render.BarPanel{Title: metric + " by variant", YLabel: metric, Dots: true}
	for _, v := range vs {
		panel.Groups = append(panel.Groups, v.Name)
	}
	any := false
	for _, m := range methods {
		sr := render.BarSeries{Name: m}
		for i := range vs {
			p, ok := ms[i].at[m]
			if !ok {
				p = sweepPoint{v: math.NaN(), lo: math.NaN(), hi: math.NaN()}
			}
			any = any || !math.IsNaN(p.v)
			sr.Values, sr.Lo, sr.Hi = append(sr.Values, p.v), append(sr.Lo, p.lo), append(sr.Hi, p.hi)
		}
		panel.Series = append(panel.Series, sr)
	}
	if !any {
		return render.FigFiles{}, false, nil
	}
	f, err := render.BarFigure(spec, []render.BarPanel{panel}, 1, false)
	return f, err == nil, err
}

// variantProvenance is the provenance of a sweep variant's run (its
// manifest; a LifeMem run's lifelong record fills what the manifest lacks).
func variantProvenance(v SweepVariant) runinfo.Provenance {
	m, err := runrecord.ReadManifest(filepath.Join(v.Dir, runrecord.ManifestFile))
	if err != nil {
		return runinfo.Provenance{}
	}
	return runinfo.ProvenanceOf(m)
}

// sweepCINote says what the sweep figure's error bars are: the variants'
// own intervals, whose level and resample count come from each variant's
// resolved config (report.level, report.bootstrap).
func sweepCINote(vs []SweepVariant, resampled string) string {
	const none = " (none where the metric has no interval)"
	var level float64
	var iters int
	for i, v := range vs {
		l, n, ok := variantCI(v)
		if !ok || i > 0 && (l != level || n != iters) {
			return "Error bars: each variant's bootstrap CI as its report gives it (their levels differ or are not recorded)" + none + "."
		}
		level, iters = l, n
	}
	text := strings.TrimSuffix(render.CIText(level, iters), ".")
	if resampled != "" {
		text = strings.Replace(text, "cluster bootstrap CI (users resampled)", "bootstrap CI ("+resampled+" resampled)", 1)
	}
	return text + ", as each variant's report gives it" + none + "."
}

// metricResampled is what the variants' intervals resample ("" for users).
func metricResampled(ms []sweepMetric) string {
	for _, m := range ms {
		if m.name != "" {
			return m.resampled
		}
	}
	return ""
}

// variantCI reads a variant's interval settings from its manifest.
func variantCI(v SweepVariant) (level float64, iters int, ok bool) {
	m, err := runrecord.ReadManifest(filepath.Join(v.Dir, runrecord.ManifestFile))
	if err != nil {
		return 0, 0, false
	}
	level, iters, _, ok = runinfo.IntervalSettings(m)
	return level, iters, ok
}
