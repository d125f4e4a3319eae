package lifemem

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/kinds"
	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/reports/paper"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/reports/runinfo"
)

// Write writes the LifeMem report of a run with lifelong results into
// <runDir>/report/: Table 2 (category OP and BwT), the score matrices (CSV,
// Markdown, LaTeX and one heat map per method), Figure 3 (transfer
// categories), Table 4 (zero-shot OOD) when OOD cells exist, Table 10
// (costs) when costs were recorded, the cluster statistics a method wrote,
// Table 8 (sensitivity) when the run holds several LifeMem settings, the
// paper's surviving numbers beside ours, and index.md. envEntries are the
// environments' registry entries, which name and group them; paperRows
// are the method kinds' paper rows (their entries' Paper), which say which
// methods are the paper's. Intervals use the default Options.
func Write(runDir string, envEntries []envs.Entry, paperRows kinds.PaperRows) (render.Artefacts, error) {
	return WriteWith(runDir, envEntries, paperRows, Options{})
}

// WriteWith is Write with the intervals' resamples, level and seed given.
// Table 2 carries bootstrap intervals over the test tasks, and every method
// is compared with ReAct on the same tasks (lifemem_paired.*).
func WriteWith(runDir string, envEntries []envs.Entry, paperRows kinds.PaperRows, opts Options) (render.Artefacts, error) {
	opts = opts.withDefaults()
	if opts.Iters < 1 || !(opts.Level > 0 && opts.Level < 1) {
		return render.Artefacts{}, fmt.Errorf("lifemem report: need iters >= 1 and 0 < level < 1, got %d and %v", opts.Iters, opts.Level)
	}
	r, err := loadLifeMem(runDir, paperRows)
	if err != nil {
		return render.Artefacts{}, fmt.Errorf("lifemem report %s: %w", runDir, err)
	}
	r.kinds = envEntries
	r.opts = opts
	out := render.Artefacts{Dir: filepath.Join(runDir, render.ReportDir)}
	if err := os.MkdirAll(out.Dir, 0o755); err != nil {
		return render.Artefacts{}, fmt.Errorf("lifemem report: %w", err)
	}
	for _, step := range []func(string) ([]render.Artefact, error){
		r.writeTable2, r.writePaired, r.writeMatrices, r.writeTransfer, r.writeOOD, r.writeCosts,
		r.writeClusters, r.writeSensitivity, r.writeVsPaper, r.writeRepeats,
	} {
		arts, err := step(out.Dir)
		if err != nil {
			return render.Artefacts{}, fmt.Errorf("lifemem report %s: %w", runDir, err)
		}
		out.Files = append(out.Files, arts...)
	}
	if err := runinfo.StampCSVs(out.Dir, out.Files, r.provenance()); err != nil {
		return render.Artefacts{}, fmt.Errorf("lifemem report %s: %w", runDir, err)
	}
	idx, err := r.writeIndex(out.Dir, out.Files)
	if err != nil {
		return render.Artefacts{}, fmt.Errorf("lifemem report %s: %w", runDir, err)
	}
	out.Files = append(out.Files, idx)
	return out, nil
}

// title carries the stream, backbone and data source, so a sim result can
// never be mistaken for an LLM result.
func (r *lmRun) title() string {
	i := r.info
	parts := []string{fmt.Sprintf("LifeMem lifelong protocol, %s stream", render.OrDefault(i.Config.Stream, "similarity")),
		"backbone: " + runinfo.BackboneText(i.Backbone, i.Model), "prompts: " + r.manifest.PromptsLabel()}
	if pv := r.manifest.ProvenanceSummary(); pv != "" {
		parts = append(parts, "from: "+pv)
	}
	if i.BuildModel != "" && i.BuildModel != i.Model {
		parts = append(parts, "construction model: "+i.BuildModel)
	}
	if i.DataSource != "" {
		parts = append(parts, "data: "+i.DataSource)
	}
	if e := r.manifest.ExternalLabel(); e != "" {
		parts = append(parts, "external: "+e)
	}
	if len(i.LeftOut) > 0 {
		var envs []string
		for _, lo := range i.LeftOut {
			envs = append(envs, lo.Env)
		}
		parts = append(parts, fmt.Sprintf("⚠ left out: %s (stream of %d environments)", strings.Join(envs, ", "), len(i.Config.Envs)))
	}
	if r.manifest.EmbedderWarning != "" {
		parts = append(parts, "⚠ hash embedder on a real backbone (see index)")
	}
	return strings.Join(parts, " — ")
}

// texSource of a LifeMem run.
func (r *lmRun) texSource() string {
	i := r.info
	var warn []string
	if len(i.LeftOut) > 0 {
		var envs []string
		for _, lo := range i.LeftOut {
			envs = append(envs, lo.Env)
		}
		warn = append(warn, fmt.Sprintf("left out: %s (of %d environments)", strings.Join(envs, ", "), len(i.Config.Envs)))
	}
	if r.manifest.EmbedderWarning != "" {
		warn = append(warn, "hash embedder on a real backbone")
	}
	src := runinfo.TeXSource(i.Backbone, i.Model, r.manifest.PromptsLabel(), i.DataSource, warn)
	return "LifeMem protocol, " + render.OrDefault(i.Config.Stream, "similarity") + " stream. " + src
}

// caption is a LifeMem run's provenance as one caption line.
func (r *lmRun) caption() string {
	// The figure font has no ⚠.
	return strings.ReplaceAll(strings.ReplaceAll(r.title(), " — ", " · "), "⚠ ", "warning: ")
}

// provenance is stamped onto every CSV of the run.
func (r *lmRun) provenance() runinfo.Provenance {
	p := runinfo.ProvenanceOf(r.manifest)
	p.Backbone, p.Model = r.info.Backbone, r.info.Model
	if p.DataSource == "" {
		p.DataSource = r.info.DataSource
	}
	return p
}

// lmF2 formats a score or percentage with two decimals; NaN is "–".
func lmF2(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	if v == 0 {
		v = 0 // normalise -0
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// lmCSVNum is num for CSV cells, with missing values empty.
func lmCSVNum(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return render.Num(v)
}

// lmDoc is one artefact family: Markdown, LaTeX and a CSV, plus optional
// PNGs.
type lmDoc struct {
	base string
	what string
	// prov is the provenance of what the tables show (the run's title),
	// stated once under the document's heading; the tables' headings
	// leave it out.
	prov    string
	tables  []render.Table
	header  []string
	rows    [][]string
	pngs    []lmPNG
	csvDesc string
}

// lmPNG is one figure of a document: name is the base name of its PNG,
// PDF and SVG files.
type lmPNG struct {
	name, desc string
	fig        render.FigFiles
}

func (d lmDoc) write(dir string) ([]render.Artefact, error) {
	var tables, tex strings.Builder
	for _, t := range d.tables {
		tables.WriteString(t.Markdown())
		tex.WriteString(t.LaTeX())
	}
	md := "# LifeMem report: " + render.MdCell(d.what) + "\n\n"
	if d.prov != "" {
		md += render.MdText(d.prov) + "\n\n"
	}
	md += render.UnderProvenance(tables.String(), d.prov)
	files := []struct {
		name string
		body []byte
	}{{d.base + ".md", []byte(md)}, {d.base + ".tex", []byte(render.TeXFile("LifeMem report: "+d.what, tex.String()))}}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.body, 0o644); err != nil {
			return nil, fmt.Errorf("write %s: %w", f.name, err)
		}
	}
	if err := render.WriteCSV(filepath.Join(dir, d.base+".csv"), d.header, d.rows); err != nil {
		return nil, err
	}
	arts := []render.Artefact{
		{Path: d.base + ".md", Desc: d.what + " (Markdown)"},
		{Path: d.base + ".tex", Desc: "the same for LaTeX (needs the booktabs package)"},
		{Path: d.base + ".csv", Desc: render.OrDefault(d.csvDesc, d.what+" in tidy long format")},
	}
	for _, p := range d.pngs {
		figs, err := render.WriteFigure(dir, p.name, p.fig, p.desc)
		if err != nil {
			return nil, err
		}
		arts = append(arts, figs...)
	}
	return arts, nil
}

// lmMethodLabel is the method column: the configured name, with its kind
// when the name does not say it.
func lmMethodLabel(m *lmMethod) string {
	if m.Spec.Kind == "" || strings.HasPrefix(strings.ToLower(m.Spec.Name), m.Spec.Kind) {
		return m.Spec.Name
	}
	return m.Spec.Name + " (" + m.Spec.Kind + ")"
}

// writeTable2 is Table 2: per method, each scenario's OP (mean final score)
// and BwT (mean relative change), then the averages over every environment.
func (r *lmRun) writeTable2(dir string) ([]render.Artefact, error) {
	cols := []string{"Method"}
	categories := r.kinds.categories()
	for _, c := range categories {
		cols = append(cols, c.Name+" OP", c.Name+" BwT")
	}
	cols = append(cols, "Avg OP", "Avg BwT")
	t := render.Table{Title: "Table 2 — overall performance (OP) and backward transfer (BwT, %) by scenario — " + r.title(), Columns: cols}
	var rows [][]string
	var notes []string
	partial := map[string]bool{}
	ci := render.Table{
		Title:          "Table 2 with intervals — " + r.title(),
		Columns:        []string{"Method", "Scenario", "OP [CI]", "BwT [CI]", "test tasks (OP/BwT)"},
		Caption:        "LifeMem Table 2 with bootstrap intervals over the test tasks.",
		Source:         r.texSource(),
		StackIntervals: true,
	}
	var ivNotes []string // what qualifies an interval (resamples dropped)
	var fig lmTable2Fig
	for _, m := range r.methods {
		op := metrics.CategoryMeans(metrics.FinalScores(m.Matrix), categories)
		bwt := metrics.CategoryMeans(metrics.RelativeChanges(m.Matrix), categories)
		g := r.taskGrid(m)
		ivs, err := r.table2Intervals(g, categories)
		if err != nil {
			return nil, fmt.Errorf("table 2 intervals of %s: %w", m.Spec.Name, err)
		}
		if g.noCI != nil {
			notes = append(notes, fmt.Sprintf("%s: no intervals: %v.", m.Spec.Name, g.noCI))
		}
		fig.add(lmMethodLabel(m), op, bwt, ivs, g.noCI == nil)
		line := []string{lmMethodLabel(m)}
		for k := range op {
			line = append(line, lmF2(op[k].Value), lmF2(bwt[k].Value))
			envs := lmCategoryEnvs(categories, k)
			opTasks, bwtTasks := lmTasksBehind(g.ts, envs, false), lmTasksBehind(g.ts, envs, true)
			opIv, bwtIv := ivs[2*k], ivs[2*k+1]
			for _, row := range [][]string{
				{m.Spec.Name, m.Spec.Kind, op[k].Name, "op", lmCSVNum(op[k].Value), strconv.Itoa(op[k].Envs), lmCSVNum(opIv.Lo), lmCSVNum(opIv.Hi), strconv.Itoa(opTasks), render.UnitPercent},
				{m.Spec.Name, m.Spec.Kind, bwt[k].Name, "bwt_percent", lmCSVNum(bwt[k].Value), strconv.Itoa(bwt[k].Envs), lmCSVNum(bwtIv.Lo), lmCSVNum(bwtIv.Hi), strconv.Itoa(bwtTasks), render.UnitPercent},
			} {
				rows = append(rows, row)
			}
			if !math.IsNaN(op[k].Value) {
				ci.Rows = append(ci.Rows, []string{lmMethodLabel(m), op[k].Name, lmInterval(op[k].Value, opIv.Lo, opIv.Hi),
					lmInterval(bwt[k].Value, bwtIv.Lo, bwtIv.Hi), lmFewTasks(opTasks) + " / " + lmFewTasks(bwtTasks)})
			}
			for _, v := range []struct {
				metric string
				value  float64
				iv     metrics.Interval
			}{{"OP", op[k].Value, opIv}, {"BwT", bwt[k].Value, bwtIv}} {
				// An undefined value has no interval to qualify.
				if !math.IsNaN(v.value) && len(v.iv.Warnings) > 0 {
					ivNotes = append(ivNotes, fmt.Sprintf("%s, %s %s: %v.", m.Spec.Name, op[k].Name, v.metric, v.iv.Warnings[0]))
				}
			}
		}
		for k, c := range categories {
			if op[k].Envs > 0 && op[k].Envs < len(c.Envs) {
				partial[c.Name] = true
			}
		}
		t.Rows = append(t.Rows, line)
		for _, w := range metrics.BwT(m.Matrix).Warnings {
			notes = append(notes, m.Spec.Name+": "+w.Error())
		}
	}
	t.Notes = append([]string{
		"OP: mean final score S[N][i] (0–100) of the scenario's environments after the whole stream; Avg OP is the mean over every environment of the run (the paper's OP).",
		"BwT: mean relative change (S[N][i] − S[i][i]) / S[i][i] in %; the stream's last environment has none; environments whose diagonal score is 0 are skipped.",
		"Scenarios: Embodied = ALFWorld + ScienceWorld; Tool use = API-Bank + τ-bench retail; Web search = HotpotQA + WebShop; Data analysis = LifelongAgentBench + ToolQA; Web browsing = MiniWoB++ + Mind2Web.",
	}, notes...)
	var partials []string
	for _, c := range categories {
		if partial[c.Name] {
			t.Notes = append(t.Notes, c.Name+": averaged over the environments this run has.")
			partials = append(partials, c.Name)
		}
	}
	t.Caption = "LifeMem Table 2: overall performance (OP) and backward transfer (BwT, %) by scenario."
	t.TeXDecimals = 1
	t.Source = r.texSource()
	t.SubColumns = []string{"Method"}
	t.Best = map[int]int{}
	for k, c := range append(categories, metrics.Category{Name: "Avg"}) {
		t.Groups = append(t.Groups, render.TeXGroup{Label: c.Name, From: 1 + 2*k, To: 2 + 2*k})
		t.SubColumns = append(t.SubColumns, "OP", "BwT")
		t.Best[1+2*k], t.Best[2+2*k] = render.HigherBest, render.HigherBest
	}
	t.TeXNotes = []string{
		"OP: mean final score (0–100) after the whole stream; BwT: mean relative change from right after learning, in %. Scenarios pair ALFWorld + ScienceWorld, API-Bank + τ-bench retail, HotpotQA + WebShop, LifelongAgentBench + ToolQA, MiniWoB++ + Mind2Web; Avg is over every environment. One decimal (lifemem_table2.csv has all); best per column in bold.",
	}
	t.TeXNotes = append(t.TeXNotes, render.CondenseNotes(notes)...)
	if len(partials) > 0 {
		t.TeXNotes = append(t.TeXNotes, "Averaged over the environments this run has: "+strings.Join(partials, ", ")+".")
	}
	ci.Notes = []string{
		"Intervals: " + r.opts.ciWords() + "; no interval where a method's cells do not allow one (see the notes above).",
		"Test tasks: how many test tasks the OP value and the BwT value rest on (BwT leaves out the stream's last environment).",
		r.opts.fewTasksNote(),
	}
	ci.Notes = append(ci.Notes, ivNotes...)
	ci.TeXNotes = []string{"Intervals: " + r.opts.ciWords() + ". " + r.opts.fewTasksNote()}
	if n := r.repeatsNote(); n != "" {
		ci.Notes = append(ci.Notes, n)
		ci.TeXNotes = append(ci.TeXNotes, n)
	}
	var pngs []lmPNG
	if fig.anyCI {
		f, err := fig.draw(r.caption(), r.opts)
		if err != nil {
			return nil, err
		}
		pngs = append(pngs, lmPNG{name: "lifemem_table2", desc: "Table 2's OP and BwT per scenario with their bootstrap intervals", fig: f})
	}
	d := lmDoc{
		base: "lifemem_table2", prov: r.title(), what: "LifeMem Table 2: OP and BwT by scenario", tables: []render.Table{t, ci}, pngs: pngs,
		header: []string{"method", "kind", "category", "metric", "value", "envs", "ci_low", "ci_high", "tasks", "unit"}, rows: rows,
		csvDesc: "Table 2 in tidy long format (method, category, metric, value, envs, ci_low, ci_high over " + strconv.Itoa(r.opts.Iters) + " task resamples, tasks, unit)",
	}
	return d.write(dir)
}

// lmStageOrder sorts cell stages: stream rows, then OOD, then self-learn.
func lmStageOrder(s string) int {
	switch s {
	case "ood":
		return 1000
	case "self":
		return 1001
	}
	n, _ := strconv.Atoi(s)
	return n
}

// writeMatrices writes every method's S matrix: one long CSV, Markdown and
// LaTeX tables (with the self-learn row) and a heat map per method.
func (r *lmRun) writeMatrices(dir string) ([]render.Artefact, error) {
	envs := r.info.Config.Envs
	var rows [][]string
	var tables []render.Table
	var pngs []lmPNG
	for _, m := range r.methods {
		cells := append([]lmCell(nil), m.Cells...)
		lmSortCells(cells, envs)
		for _, c := range cells {
			row := ""
			if c.Row > 0 {
				row = strconv.Itoa(c.Row)
			}
			rows = append(rows, []string{m.Spec.Name, c.Stage, row, c.Env, render.Num(c.Score), strconv.Itoa(len(c.Tasks)), strconv.Itoa(c.Errors)})
		}
		t := render.Table{
			Title:      fmt.Sprintf("Score matrix S of %s — rows: after learning; columns: test set — %s", m.Spec.Name, r.title()),
			Columns:    append([]string{"after \\ test"}, lmMap(envs, r.kinds.label)...),
			Caption:    fmt.Sprintf("Score matrix S of %s: rows after learning, columns the test sets.", m.Spec.Name),
			SubColumns: append([]string{"After"}, lmMap(envs, r.kinds.short)...),
		}
		for j := range envs {
			t.TeXRowLabels = append(t.TeXRowLabels, fmt.Sprintf("%d. %s", j+1, r.kinds.short(envs[j])))
			line := []string{fmt.Sprintf("%d. %s", j+1, r.kinds.label(envs[j]))}
			for i := range envs {
				if i > j {
					line = append(line, "")
					continue
				}
				line = append(line, lmF2(m.Matrix.S[j][i]))
			}
			t.Rows = append(t.Rows, line)
		}
		if len(m.Self) > 0 {
			line := []string{"self-learn"}
			for _, e := range envs {
				line = append(line, lmF2(lmLookup(m.Self, e)))
			}
			t.Rows = append(t.Rows, line)
			t.TeXRowLabels = append(t.TeXRowLabels, "self-learn")
		}
		b := metrics.BwT(m.Matrix)
		t.Notes = []string{fmt.Sprintf("OP %s; BwT %s %% over %d environments; %d episodes, %d errored.",
			lmF2(metrics.OP(m.Matrix)), lmF2(b.Value), b.Used, m.Tasks, m.Errors)}
		if len(m.Self) > 0 {
			t.Notes = append(t.Notes, "self-learn: a fresh memory learns only that environment and is tested on it (reference only; not part of OP or BwT).")
		}
		t.TeXNotes = append([]string{}, t.Notes...)
		if len(tables) == 0 {
			var legend []string
			for _, e := range envs {
				legend = append(legend, r.kinds.short(e)+" = "+r.kinds.label(e))
			}
			t.TeXNotes = append(t.TeXNotes, strings.Join(legend, ", ")+".", r.texSource())
		}
		tables = append(tables, t)
		fig, ok, err := lmHeatMap(r.caption(), r.kinds, m, envs, r.oodEnvs(), r.info.Config.Stream)
		if err != nil {
			return nil, fmt.Errorf("matrix of %s: %w", m.Spec.Name, err)
		}
		if !ok {
			continue // a one-cell matrix: the table says it all
		}
		pngs = append(pngs, lmPNG{name: "lifemem_matrix_" + m.Spec.Name, desc: "heat map of the score matrix of " + m.Spec.Name, fig: fig})
	}
	d := lmDoc{
		base: "lifemem_matrix", prov: r.title(), what: "score matrices S[j][i] (with the self-learn row)", tables: tables, pngs: pngs,
		header:  []string{"method", "stage", "row", "env", "score_percent", "tasks", "errors"},
		rows:    rows,
		csvDesc: "every evaluation cell: stream rows (stage 01..N), ood and self-learn cells",
	}
	return d.write(dir)
}

func lmSortCells(cells []lmCell, envs []string) {
	col := func(e string) int {
		if i := slices.Index(envs, e); i >= 0 {
			return i
		}
		return len(envs)
	}
	slices.SortStableFunc(cells, func(a, b lmCell) int {
		return cmp.Or(cmp.Compare(lmStageOrder(a.Stage), lmStageOrder(b.Stage)), cmp.Compare(col(a.Env), col(b.Env)), strings.Compare(a.Env, b.Env))
	})
}

func lmMap(in []string, f func(string) string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = f(s)
	}
	return out
}

func lmLookup(m map[string]float64, k string) float64 {
	if v, ok := m[k]; ok {
		return v
	}
	return math.NaN()
}

// writeTransfer is Figure 3: each environment's change from its diagonal to
// its final score, as positive / unchanged (±5 points) / negative.
func (r *lmRun) writeTransfer(dir string) ([]render.Artefact, error) {
	var rows [][]string
	t := render.Table{
		Title:   "Figure 3 — transfer categories per method (final vs right-after-learning score, ±5 points unchanged) — " + r.title(),
		Columns: []string{"Method", "Positive", "Unchanged", "Negative", "Not evaluated"},
	}
	var series []MethodCounts
	known := false
	for _, m := range r.methods {
		cells := metrics.Transfers(m.Matrix, metrics.DefaultTransferBand)
		for _, c := range cells {
			rows = append(rows, []string{m.Spec.Name, c.Env, lmCSVNum(c.Diag), lmCSVNum(c.Final), lmCSVNum(c.Delta), string(c.Category)})
		}
		n := metrics.CountTransfers(cells)
		known = known || n.Positive+n.Unchanged+n.Negative > 0
		t.Rows = append(t.Rows, []string{lmMethodLabel(m), strconv.Itoa(n.Positive), strconv.Itoa(n.Unchanged), strconv.Itoa(n.Negative), strconv.Itoa(n.Unknown)})
		series = append(series, MethodCounts{m.Spec.Name, n})
	}
	if !known {
		return nil, nil // e.g. a random stream: no diagonal, no transfer
	}
	t.Notes = []string{"The stream's last environment is left out: nothing is learned after it."}
	t.Caption = "LifeMem Figure 3: environments whose score rose, stayed within ±5 points or fell from right after learning to the end of the stream."
	t.Source = r.texSource()
	fig, err := TransferPlot(r.caption(), series, render.OneColumn)
	if err != nil {
		return nil, err
	}
	d := lmDoc{
		base: "lifemem_transfer", prov: r.title(), what: "LifeMem Figure 3: transfer categories", tables: []render.Table{t},
		header: []string{"method", "env", "diag_percent", "final_percent", "delta_points", "category"}, rows: rows,
		pngs: []lmPNG{{name: "lifemem_transfer", desc: "Figure 3 as stacked bars", fig: fig}},
	}
	return d.write(dir)
}

type MethodCounts struct {
	Name string
	N    metrics.TransferCounts
}

// baseline is the first method of the paper's no-memory baseline (ReAct),
// the floor the paper compares with.
func (r *lmRun) baseline() *lmMethod {
	kind := r.paperKind(paper.LifeMemBaseline)
	for _, m := range r.methods {
		if kind != "" && m.Spec.Kind == kind {
			return m
		}
	}
	return nil
}

// oodEnvs are the run's OOD environments: the configured ones, else every
// OOD environment a method has a score for, sorted.
func (r *lmRun) oodEnvs() []string {
	ood := r.info.Config.OOD
	if len(ood) == 0 {
		for _, m := range r.methods {
			for e := range m.OOD {
				if !slices.Contains(ood, e) {
					ood = append(ood, e)
				}
			}
		}
		slices.Sort(ood)
	}
	return ood
}

// writeOOD is Table 4: zero-shot scores on the OOD environments after the
// full stream, with the difference to ReAct.
func (r *lmRun) writeOOD(dir string) ([]render.Artefact, error) {
	ood := r.oodEnvs()
	if len(ood) == 0 {
		return nil, nil
	}
	base := r.baseline()
	cols := []string{"Method"}
	for _, e := range ood {
		cols = append(cols, r.kinds.label(e))
		if base != nil {
			cols = append(cols, "Δ "+r.kinds.label(e))
		}
	}
	t := render.Table{Title: "Table 4 — zero-shot out-of-distribution scores after the full stream — " + r.title(), Columns: cols}
	var rows [][]string
	for _, m := range r.methods {
		line := []string{lmMethodLabel(m)}
		for _, e := range ood {
			v := lmLookup(m.OOD, e)
			line = append(line, lmF2(v))
			d := math.NaN()
			if base != nil {
				d = v - lmLookup(base.OOD, e)
				line = append(line, lmF2(d))
			}
			rows = append(rows, []string{m.Spec.Name, e, lmCSVNum(v), lmCSVNum(d)})
		}
		t.Rows = append(t.Rows, line)
	}
	if base != nil {
		t.Notes = append(t.Notes, "Δ: difference in points to "+base.Spec.Name+" (no memory).")
	}
	t.Notes = append(t.Notes, "No learning happens on these environments: the memory is the one built over the whole stream.")
	t.Caption = "LifeMem Table 4: zero-shot out-of-distribution scores after the full stream."
	t.Source = r.texSource()
	t.Best = map[int]int{}
	for c := 1; c < len(cols); c++ {
		t.Best[c] = render.HigherBest
	}
	if base != nil {
		t.SubColumns = []string{"Method"}
		for k, e := range ood {
			t.Groups = append(t.Groups, render.TeXGroup{Label: r.kinds.label(e), From: 1 + 2*k, To: 2 + 2*k})
			t.SubColumns = append(t.SubColumns, "Score", "Δ")
		}
	}
	d := lmDoc{
		base: "lifemem_ood", prov: r.title(), what: "LifeMem Table 4: zero-shot OOD scores", tables: []render.Table{t},
		header: []string{"method", "env", "score_percent", "delta_vs_react_points"}, rows: rows,
	}
	return d.write(dir)
}

// writeCosts is Table 10: memory-construction versus acting calls, tokens
// and cost per method.
func (r *lmRun) writeCosts(dir string) ([]render.Artefact, error) {
	priced := false
	recorded := false
	for _, m := range r.methods {
		if m.Costs != nil {
			recorded = true
			priced = priced || m.Costs.Construction.Cost+m.Costs.Acting.Cost+m.Costs.Environment.Cost > 0
		}
	}
	if !recorded {
		return nil, nil
	}
	t := render.Table{
		Title: "Table 10 — prompt tokens and cost per method — " + r.title(),
		Columns: []string{"Method", "Build calls", "Build tokens", "Act calls", "Prompt tok/episode", "Prompt tok/call",
			"Env calls", "Build cost", "Act cost", "Total cost", "Build cost/1k traj."},
	}
	var rows [][]string
	cost := func(v float64) string {
		if !priced {
			return "–"
		}
		return strconv.FormatFloat(v, 'f', 4, 64)
	}
	for _, m := range r.methods {
		c := m.Costs
		if c == nil {
			continue
		}
		build := c.Construction.PromptTokens + c.Construction.CompletionTokens
		total := c.Construction.Cost + c.Acting.Cost + c.Environment.Cost
		per1k := math.NaN()
		if c.Trajectories > 0 && priced {
			per1k = 1000 * c.Construction.Cost / float64(c.Trajectories)
		}
		t.Rows = append(t.Rows, []string{
			lmMethodLabel(m), strconv.Itoa(c.Construction.Calls), strconv.Itoa(build), strconv.Itoa(c.Acting.Calls),
			strconv.FormatFloat(c.PromptTokensPerEpisode, 'f', 1, 64), strconv.FormatFloat(c.PromptTokensPerCall, 'f', 1, 64),
			strconv.Itoa(c.Environment.Calls), cost(c.Construction.Cost), cost(c.Acting.Cost), cost(total), lmF2(per1k),
		})
		for _, p := range []struct {
			phase string
			u     lmUsage
		}{{"construction", c.Construction}, {"acting", c.Acting}, {"environment", c.Environment}} {
			rows = append(rows, []string{m.Spec.Name, p.phase, strconv.Itoa(p.u.Calls), strconv.Itoa(p.u.CachedCalls),
				strconv.Itoa(p.u.PromptTokens), strconv.Itoa(p.u.CompletionTokens), render.CostNum(p.u.Cost, priced),
				strconv.Itoa(c.Trajectories), strconv.Itoa(c.Episodes)})
		}
	}
	t.Notes = []string{
		"Build: Learn and EndStage calls (clustering, summaries, skills, insights), self-learn included; Act: the method's calls while playing test episodes; Env: simulated parties such as τ-bench's customer.",
		"Token counts come from the backbone's usage fields (the sim backbone estimates them from the text).",
	}
	if !priced {
		t.Notes = append(t.Notes, "Costs are not reported: the run has no prices configured.")
	}
	// LaTeX keeps the calls and tokens of building and acting, and the
	// total cost; the Markdown and CSV keep every measure.
	t.Caption = "LifeMem Table 10: memory construction against acting, per method."
	t.Source = r.texSource()
	t.TeXCols = []int{0, 1, 2, 3, 4, 5, 9}
	t.Groups = []render.TeXGroup{{Label: "Build", From: 1, To: 2}, {Label: "Act", From: 3, To: 5}}
	t.SubColumns = []string{"Method", "Calls", "Tokens", "Calls", "Prompt tok./ep.", "Prompt tok./call", "", "", "", "Total cost", ""}
	t.TeXNotes = []string{"Build: learning and end-of-stage calls (clustering, summaries, skills, insights), self-learn included; Act: the method's calls in test episodes. Tokens from the backbone's usage fields (estimated from the text on sim)."}
	if !priced {
		t.TeXNotes = append(t.TeXNotes, "No prices configured: no cost (–).")
	}
	d := lmDoc{
		base: "lifemem_costs", prov: r.title(), what: "LifeMem Table 10: construction vs acting usage", tables: []render.Table{t},
		header: []string{"method", "phase", "calls", "cached_calls", "prompt_tokens", "completion_tokens", "cost_usd", "trajectories", "episodes"},
		rows:   rows,
	}
	return d.write(dir)
}

// writeClusters summarises the cluster statistics methods wrote.
func (r *lmRun) writeClusters(dir string) ([]render.Artefact, error) {
	var with []*lmMethod
	for _, m := range r.methods {
		if m.Stats != nil {
			with = append(with, m)
		}
	}
	if len(with) == 0 {
		return nil, nil
	}
	t := render.Table{
		Title:   "Memory clusters — " + r.title(),
		Columns: []string{"Method", "Clusters", "Mean size", "Median size", "Largest"},
	}
	var envs []string
	for _, m := range with {
		for e := range m.Stats.ClustersPerEnv {
			if !slices.Contains(envs, e) {
				envs = append(envs, e)
			}
		}
		for e := range m.Stats.MeanSizePerEnv {
			if !slices.Contains(envs, e) {
				envs = append(envs, e)
			}
		}
	}
	envs = lmOrderEnvs(envs, r.info.Config.Envs)
	per := render.Table{Title: "Clusters per environment (count / mean size of the clusters holding its trajectories)", Columns: []string{"Method"},
		Caption: "Clusters per environment: count / mean size of the clusters holding its trajectories.", Transpose: true}
	for _, e := range envs {
		per.Columns = append(per.Columns, r.kinds.label(e))
	}
	var rows [][]string
	for _, m := range with {
		s := m.Stats
		mean, med, mx := lmSizeSummary(s.Sizes)
		t.Rows = append(t.Rows, []string{lmMethodLabel(m), strconv.Itoa(s.Clusters), lmF2(mean), lmF2(med), lmMaxText(mx)})
		rows = append(rows, []string{m.Spec.Name, "", strconv.Itoa(s.Clusters), lmCSVNum(mean)})
		line := []string{lmMethodLabel(m)}
		for _, e := range envs {
			n, okN := s.ClustersPerEnv[e]
			ms, okM := s.MeanSizePerEnv[e]
			cell := "–"
			switch {
			case okN && okM:
				cell = fmt.Sprintf("%d / %s", n, lmF2(ms))
			case okN:
				cell = strconv.Itoa(n)
			case okM:
				cell = "– / " + lmF2(ms)
			}
			line = append(line, cell)
			if okN || okM {
				nText := ""
				if okN {
					nText = strconv.Itoa(n)
				}
				msV := math.NaN()
				if okM {
					msV = ms
				}
				rows = append(rows, []string{m.Spec.Name, e, nText, lmCSVNum(msV)})
			}
		}
		per.Rows = append(per.Rows, line)
	}
	t.Notes = []string{"From each method's " + lmStatsFile + "; the paper (App. I) reports a mean cluster size of 29 for WebShop and 12 for τ-bench."}
	t.Caption = "Memory clusters per method."
	t.Source = r.texSource()
	tables := []render.Table{t}
	if len(envs) > 0 {
		tables = append(tables, per)
	}
	d := lmDoc{
		base: "lifemem_clusters", prov: r.title(), what: "memory cluster statistics", tables: tables,
		header: []string{"method", "env", "clusters", "mean_size"}, rows: rows,
	}
	return d.write(dir)
}

func lmSizeSummary(sizes []int) (mean, median float64, largest int) {
	if len(sizes) == 0 {
		return math.NaN(), math.NaN(), -1
	}
	s := append([]int(nil), sizes...)
	slices.Sort(s)
	sum := 0
	for _, v := range s {
		sum += v
	}
	mean = float64(sum) / float64(len(s))
	if len(s)%2 == 1 {
		median = float64(s[len(s)/2])
	} else {
		median = float64(s[len(s)/2-1]+s[len(s)/2]) / 2
	}
	return mean, median, s[len(s)-1]
}

func lmMaxText(v int) string {
	if v < 0 {
		return "–"
	}
	return strconv.Itoa(v)
}

// lmOrderEnvs puts envs in the stream's order, others after, sorted.
func lmOrderEnvs(envs, stream []string) []string {
	var out, rest []string
	for _, e := range stream {
		if slices.Contains(envs, e) {
			out = append(out, e)
		}
	}
	for _, e := range envs {
		if !slices.Contains(stream, e) {
			rest = append(rest, e)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}
