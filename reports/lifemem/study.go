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

	"github.com/memharness/memharness/kinds"
	"github.com/memharness/memharness/runrecord"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/reports/paper"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/reports/runinfo"
)

// LifeMem's knob defaults (methods/agent's LifeMem; spec §1.8), shown in
// the sensitivity table where a config leaves a knob at 0.
const (
	lmDefaultSplit = 50
	lmDefaultTau   = 0.95
	lmDefaultTopK  = 2
)

// lmSetting is one LifeMem configuration with its results, possibly from
// another run of a sweep.
type lmSetting struct {
	run string // run label ("" inside one run)
	m   *lmMethod
	sim bool // the run's backbone is the sim reader
}

func (s lmSetting) knobs() (l int, tau float64, k int) {
	l, tau, k = s.m.Spec.SplitSize, s.m.Spec.Tau, s.m.Spec.TopK
	if l == 0 {
		l = lmDefaultSplit
	}
	if tau == 0 {
		tau = lmDefaultTau
	}
	if k == 0 {
		k = lmDefaultTopK
	}
	return l, tau, k
}

// lmDistinct reports whether the settings differ in at least one knob (a
// stream sweep repeats one setting: that is no sensitivity study).
func lmDistinct(settings []lmSetting) bool {
	type knobs struct {
		l, k      int
		tau       float64
		nos, notr bool
	}
	seen := map[knobs]bool{}
	for _, s := range settings {
		l, tau, k := s.knobs()
		seen[knobs{l, k, tau, s.m.Spec.NoSkills, s.m.Spec.NoTrajectories}] = true
	}
	return len(seen) > 1
}

// lmSensitivityTable is Table 8 over LifeMem settings: L, τ, k, OP and BwT,
// plus each environment's final score.
func lmSensitivityTable(title string, kinds lmKinds, settings []lmSetting, envs []string) (render.Table, [][]string) {
	cols := []string{"Setting", "L", "τ", "top-k", "OP", "BwT (%)"}
	for _, e := range envs {
		cols = append(cols, kinds.label(e))
	}
	t := render.Table{Title: title, Columns: cols, TeXCols: []int{0, 1, 2, 3, 4, 5}, Best: map[int]int{4: render.HigherBest, 5: render.HigherBest},
		Caption: "LifeMem Table 8: sensitivity of OP and BwT to L, τ and top-k."}
	var rows [][]string
	for _, s := range settings {
		l, tau, k := s.knobs()
		name := s.m.Spec.Name
		if s.run != "" {
			name = s.run + "/" + name
		}
		ablation := ""
		if s.m.Spec.NoSkills {
			ablation = " (no skills)"
		}
		if s.m.Spec.NoTrajectories {
			ablation = " (no trajectories)"
		}
		avg := lmAvgOP(s.m)
		b := metrics.BwT(s.m.Matrix)
		line := []string{name + ablation, strconv.Itoa(l), strconv.FormatFloat(tau, 'f', 2, 64), strconv.Itoa(k), lmF2(avg), lmF2(b.Value)}
		for _, e := range envs {
			line = append(line, lmF2(lmFinal(s.m.Matrix, e)))
		}
		t.Rows = append(t.Rows, line)
		if len(line[0]) > 32 {
			t.FirstWidth = "16em" // run labels of a sweep: wrap them
		}
		rows = append(rows, []string{s.run, s.m.Spec.Name, strconv.Itoa(l), render.Num(tau), strconv.Itoa(k),
			strconv.FormatBool(s.m.Spec.NoSkills), strconv.FormatBool(s.m.Spec.NoTrajectories), lmCSVNum(avg), lmCSVNum(b.Value)})
	}
	t.Notes = []string{
		fmt.Sprintf("L: a cluster may split once it has more members; τ: split only when its mean resultant length is below (1.00 splits on size alone); knobs left at 0 show LifeMem's defaults (L %d, τ %.2f, k %d).", lmDefaultSplit, lmDefaultTau, lmDefaultTopK),
		"The paper (App. E) sweeps L ∈ {10, 30, 50, 80} and τ ∈ {0.9, 0.95, 1.0} on ALFWorld with GPT-4o-mini and finds top-k ∈ {2, 4, 8} stable; it prints no other numbers we could recover.",
	}
	if c := lmCentre(settings); c >= 0 {
		if l, tau, k := settings[c].knobs(); l != lmDefaultSplit || tau != lmDefaultTau || k != lmDefaultTopK {
			t.Notes = append(t.Notes, fmt.Sprintf("The grid is centred on %s (L %d, τ %.2f, k %d), sized for this run's suite rather than the paper's defaults; the flat-row notes compare with it.", lmSettingName(settings[c]), l, tau, k))
		}
	}
	t.Notes = append(t.Notes, lmFlatNotes(settings)...)
	t.TeXNotes = append([]string{fmt.Sprintf("L: a cluster may split beyond that many members; τ: only when its mean resultant length is below; knobs at 0 are LifeMem's defaults (L %d, τ %.2f, k %d). Per-environment scores: lifemem_sensitivity.md. The paper (App. E) finds top-k ∈ {2, 4, 8} stable.", lmDefaultSplit, lmDefaultTau, lmDefaultTopK)},
		render.CondenseNotes(t.Notes[2:])...)
	return t, rows
}

// lmFlatNotes explains, on the sim backbone, settings whose OP equals the
// centre setting's: whether the knob changed the memory (cluster counts
// from lifemem_stats.json) and that the reader's answers did not move, so
// the row is no evidence that the knob does nothing.
func lmFlatNotes(settings []lmSetting) []string {
	ref := lmCentre(settings)
	if ref < 0 || !settings[ref].sim {
		return nil
	}
	r := settings[ref]
	rOP := lmAvgOP(r.m)
	var notes []string
	for i, s := range settings {
		if i == ref || !s.sim || s.m.Spec.NoSkills || s.m.Spec.NoTrajectories {
			continue
		}
		if d := lmAvgOP(s.m) - rOP; math.IsNaN(d) || d <= -0.005 || d >= 0.005 {
			continue
		}
		memory := "with no cluster statistics to compare"
		if s.m.Stats != nil && r.m.Stats != nil {
			if a, b := s.m.Stats.Clusters, r.m.Stats.Clusters; a != b || !slices.Equal(s.m.Stats.Sizes, r.m.Stats.Sizes) {
				memory = fmt.Sprintf("with a different memory (%d clusters against %d, see lifemem_clusters.md)", a, b)
			} else if _, _, k := s.knobs(); k != lmDefaultTopK {
				memory = fmt.Sprintf("with the same clusters (%d): top-k changes only what the prompt shows", a)
			} else {
				memory = fmt.Sprintf("with the same clusters (%d): L and τ change the memory only where a cluster outgrows one L and not the other, or its mean resultant length falls between the two τ (the largest cluster here has %d members)", a, slices.Max(append([]int{0}, s.m.Stats.Sizes...)))
			}
		}
		notes = append(notes, fmt.Sprintf("%s: OP equal to %s's on the sim backbone, %s. The sim reader's answers do not move with this knob here; this row does not show that the knob is inert.", lmSettingName(s), lmSettingName(r), memory))
	}
	return notes
}

// lmCentre is the setting the others move one knob away from: the one
// named "lifemem" (a config sized for a small suite centres its grid on
// other values than the method's defaults), else the first with LifeMem's
// defaults, else -1. Ablations never count.
func lmCentre(settings []lmSetting) int {
	plain := func(s lmSetting) bool { return !s.m.Spec.NoSkills && !s.m.Spec.NoTrajectories }
	for i, s := range settings {
		if s.run == "" && s.m.Spec.Name == "lifemem" && plain(s) {
			return i
		}
	}
	for i, s := range settings {
		l, tau, k := s.knobs()
		if l == lmDefaultSplit && tau == lmDefaultTau && k == lmDefaultTopK && plain(s) {
			return i
		}
	}
	return -1
}

func lmSettingName(s lmSetting) string {
	if s.run != "" {
		return s.run + "/" + s.m.Spec.Name
	}
	return s.m.Spec.Name
}

var lmSensitivityHeader = []string{"run", "method", "split_size", "tau", "top_k", "no_skills", "no_trajectories", "op_percent", "bwt_percent"}

func lmFinal(m metrics.ScoreMatrix, env string) float64 {
	i := slices.Index(m.Envs, env)
	if i < 0 {
		return math.NaN()
	}
	return m.Final(i)
}

// writeSensitivity writes Table 8 when the run holds two or more LifeMem
// settings (configs/paper/lifemem_sensitivity.yaml does).
func (r *lmRun) writeSensitivity(dir string) ([]render.Artefact, error) {
	var settings []lmSetting
	for _, m := range r.methods {
		if m.Spec.Kind == "lifemem" {
			settings = append(settings, lmSetting{m: m, sim: r.info.Backbone == "sim"})
		}
	}
	if !lmDistinct(settings) {
		return nil, nil
	}
	t, rows := lmSensitivityTable("Table 8 — sensitivity of LifeMem to L, τ and top-k — "+r.title(), r.kinds, settings, r.info.Config.Envs)
	t.Source = r.texSource()
	d := lmDoc{base: "lifemem_sensitivity", prov: r.title(), what: "LifeMem Table 8: sensitivity", tables: []render.Table{t}, header: lmSensitivityHeader, rows: rows}
	fig, err := lmSensitivityPlot(r.caption(), settings)
	if err != nil {
		return nil, err
	}
	d.pngs = []lmPNG{{name: "lifemem_sensitivity", desc: "LifeMem Table 8 as points: OP and BwT per setting", fig: fig}}
	return d.write(dir)
}

// byKind returns the run's first method of a kind, preferring the one named
// after it.
func (r *lmRun) byKind(kind string) *lmMethod {
	var first *lmMethod
	for _, m := range r.methods {
		if m.Spec.Kind != kind {
			continue
		}
		if m.Spec.Name == kind {
			return m
		}
		if first == nil {
			first = m
		}
	}
	return first
}

// paperKind is the kind whose entry names it as the paper's method name in
// LifeMem's Table 2 ("" when no registered kind does).
func (r *lmRun) paperKind(name string) string {
	k, _ := r.paperRows.KindOf(paper.LifeMemTableName, name)
	return k
}

// paperEnv is the registry name of the environment the paper calls name
// (its entry's display name); "" stays "", and a name no entry carries is
// kept, so it matches no environment of the run.
func (r *lmRun) paperEnv(name string) string {
	for _, e := range r.kinds {
		if name != "" && e.DisplayName == name {
			return e.Name
		}
	}
	return name
}

// byPaperName is byKind of the kind the paper calls name.
func (r *lmRun) byPaperName(name string) *lmMethod {
	if k := r.paperKind(name); k != "" {
		return r.byKind(k)
	}
	return nil
}

func lmAvgOP(m *lmMethod) float64 {
	op := metrics.CategoryMeans(metrics.FinalScores(m.Matrix), nil) // only "Avg"
	return op[len(op)-1].Value
}

// ours computes an anchor's quantity from this run; NaN when the run lacks
// what it needs. why says what was compared when it is not obvious.
func (r *lmRun) ours(a paper.LifeMemAnchor) (v float64, why string) {
	var m *lmMethod
	if a.Method != "" {
		kind := r.paperKind(a.Method)
		if kind != "" {
			m = r.byKind(kind)
		}
		if m == nil {
			return math.NaN(), "no " + cmp.Or(kind, a.Method) + " method in this run"
		}
	}
	env := r.paperEnv(a.Env)
	col := slices.Index(r.info.Config.Envs, env)
	switch a.Key {
	case paper.AnchorAvgOP:
		return lmAvgOP(m), ""
	case paper.AnchorDiag:
		if col < 0 {
			return math.NaN(), "environment not in the stream"
		}
		return m.Matrix.Diag(col), ""
	case paper.AnchorFinal:
		if col < 0 {
			return math.NaN(), "environment not in the stream"
		}
		return m.Matrix.Final(col), ""
	case paper.AnchorCell:
		if col < 0 || col > 1 || len(r.info.Config.Envs) < 2 {
			return math.NaN(), "needs the environment among the first two of the stream"
		}
		return m.Matrix.S[1][col], "row 2 of this run's stream"
	case paper.AnchorBwTEnv:
		if col < 0 {
			return math.NaN(), "environment not in the stream"
		}
		return metrics.RelativeChange(m.Matrix.Diag(col), m.Matrix.Final(col)), ""
	case paper.AnchorSelfLearn:
		return lmLookup(m.Self, env), ""
	case paper.AnchorRelativeGain:
		s := r.byPaperName(paper.LifeMemExemplar)
		if s == nil {
			return math.NaN(), "no synapse method in this run"
		}
		base := lmAvgOP(s)
		if base == 0 {
			return math.NaN(), ""
		}
		return 100 * (lmAvgOP(m) - base) / base, "relative Avg OP gain"
	case paper.AnchorPromptDelta:
		s := r.byPaperName(paper.LifeMemExemplar)
		if s == nil || s.Costs == nil || m.Costs == nil {
			return math.NaN(), "needs costs of lifemem and synapse"
		}
		return m.Costs.PromptTokensPerCall - s.Costs.PromptTokensPerCall, "prompt tokens per acting call"
	case paper.AnchorBuildPer1k:
		if m.Costs == nil || m.Costs.Trajectories == 0 || m.Costs.Construction.Cost == 0 {
			return math.NaN(), "needs priced construction usage"
		}
		return 1000 * m.Costs.Construction.Cost / float64(m.Costs.Trajectories), ""
	case paper.AnchorMeanCluster:
		if m.Stats == nil {
			return math.NaN(), "no " + lmStatsFile
		}
		return lmLookup(m.Stats.MeanSizePerEnv, env), ""
	}
	return math.NaN(), "human judgement; not computed"
}

// writeVsPaper sets the paper's surviving numbers beside this run's.
func (r *lmRun) writeVsPaper(dir string) ([]render.Artefact, error) {
	t := render.Table{
		Title:   "LifeMem paper numbers beside this run — " + r.title(),
		Columns: []string{"Quantity", "Paper backbone", "Paper", "This run", "Same backbone", "Source"},
	}
	var rows [][]string
	for _, a := range paper.LifeMemAnchors() {
		v, why := r.ours(a)
		same := "–"
		if a.Model != "" {
			same = "no"
			if r.info.Model != "" && strings.Contains(paper.Normalize(r.info.Model), paper.Normalize(a.Model)) {
				same = "yes"
			}
		}
		label := a.Label
		if why != "" {
			label += " (" + why + ")"
		}
		t.Rows = append(t.Rows, []string{label, render.OrDefault(a.Backbone, "–"), lmF2(a.Value) + " " + a.Unit, lmF2(v), same, a.Source})
		rows = append(rows, []string{a.Key, cmp.Or(r.paperKind(a.Method), a.Method), r.paperEnv(a.Env), a.Backbone, render.Num(a.Value), lmCSVNum(v), a.Unit, same, a.Source})
	}
	t.Notes = []string{
		"The paper's Table 2 is an image and its per-environment numbers are not recoverable; these are the numbers its text states.",
		"Compare orderings, not values, unless the backbone is the same: sim numbers validate the pipeline and are never LLM results.",
	}
	t.Caption = "Numbers the LifeMem paper states, beside this run."
	t.Source = r.texSource()
	t.TeXCols, t.FirstWidth = []int{0, 1, 2, 3, 5}, "12em"
	t.SubColumns = []string{"Quantity", "Paper backbone", "Paper", "Ours", "", "Source"}
	t.TeXNotes = []string{"The paper's Table 2 is an image: these are the numbers its text states. Compare orderings, not values, unless the backbone is the same."}
	d := lmDoc{
		base: "lifemem_vs_paper", prov: r.title(), what: "LifeMem numbers from the paper beside this run", tables: []render.Table{t},
		header: []string{"key", "method", "env", "paper_backbone", "paper", "ours", "unit", "same_backbone", "source"}, rows: rows,
	}
	return d.write(dir)
}

func (r *lmRun) writeIndex(dir string, arts []render.Artefact) (render.Artefact, error) {
	i := r.info
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", render.MdText(r.title()))
	fmt.Fprintf(&b, "- Run: %s\n", render.MdText(render.OrDefault(i.Name, filepath.Base(r.dir))))
	if i.Variant != "" {
		fmt.Fprintf(&b, "- Variant: %s\n", render.MdText(i.Variant))
	}
	fmt.Fprintf(&b, "- Backbone: %s; model: %s\n", render.MdText(runinfo.BackboneText(i.Backbone, i.Model)), render.MdText(render.OrDefault(i.Model, "unknown")))
	if i.BuildModel != "" {
		fmt.Fprintf(&b, "- Memory construction model: %s\n", render.MdText(i.BuildModel))
	}
	fmt.Fprintf(&b, "- Data: %s\n", render.MdText(render.OrDefault(i.DataSource, "unknown")))
	fmt.Fprintf(&b, "- Stream: %s over %s\n", render.MdText(render.OrDefault(i.Config.Stream, "similarity")), render.MdText(strings.Join(i.Config.Envs, " → ")))
	if len(i.Config.OOD) > 0 {
		fmt.Fprintf(&b, "- Zero-shot OOD: %s\n", render.MdText(strings.Join(i.Config.OOD, ", ")))
	}
	var per []string
	for _, m := range r.methods {
		per = append(per, fmt.Sprintf("%s (%d episodes, %d errored)", render.MdText(m.Spec.Name), m.Tasks, m.Errors))
	}
	fmt.Fprintf(&b, "- Methods: %s\n", strings.Join(per, ", "))
	b.WriteString("- How to regenerate: `bench report <rundir>` (the folder holding lifelong/run.json)\n\n")
	if i.Backbone == "sim" {
		b.WriteString("The sim backbone is a deterministic heuristic reader, not an LLM: its scores show what each memory lets an agent see, never how an LLM would do.\n\n")
	}
	man := r.manifest
	if len(man.LeftOut) == 0 {
		for _, lo := range i.LeftOut {
			man.LeftOut = append(man.LeftOut, runrecord.LeftOut{What: lo.Env, Reason: lo.Reason, Install: lo.Install})
		}
	}
	usage, err := runinfo.ReadUsage(r.dir)
	if err != nil {
		return render.Artefact{}, err
	}
	if line := runinfo.PlannedLine(runinfo.ReadPlan(r.dir), usage); line != "" {
		fmt.Fprintf(&b, "- Planned vs spent (plan.json, stored at the run's start): %s\n\n", render.MdText(line))
	}
	b.WriteString(runinfo.WarningsSection(man, usage))
	b.WriteString(r.testSetsSection())
	b.WriteString("## Artefacts\n\n")
	for _, a := range arts {
		fmt.Fprintf(&b, "- [%s](%s) — %s\n", render.MdText(a.Path), a.Path, render.MdText(a.Desc))
	}
	if err := os.WriteFile(filepath.Join(dir, "index.md"), []byte(b.String()), 0o644); err != nil {
		return render.Artefact{}, fmt.Errorf("write index.md: %w", err)
	}
	return render.Artefact{Path: "index.md", Desc: "this index"}, nil
}

// WriteSweep compares the lifelong runs of a sweep (each a run
// directory with lifelong results, e.g. OUT/NAME/VARIANT) and writes into
// outDir: Table 5 (OP per stream and the buffer stream's recovery rate) when
// the runs cover more than one stream, and Table 8 (sensitivity) over every
// LifeMem setting of every run. Runs without lifelong results are skipped.
// envEntries are the environments' registry entries, which name them;
// paperRows are the method kinds' paper rows, as for Write.
func WriteSweep(outDir string, runDirs []string, envEntries []envs.Entry, paperRows kinds.PaperRows) (render.Artefacts, error) {
	var runs []*lmRun
	for _, d := range runDirs {
		if !HasResults(d) {
			continue
		}
		r, err := loadLifeMem(d, paperRows)
		if err != nil {
			return render.Artefacts{}, fmt.Errorf("lifemem sweep: %w", err)
		}
		r.kinds = envEntries
		runs = append(runs, r)
	}
	if len(runs) == 0 {
		return render.Artefacts{}, fmt.Errorf("lifemem sweep: none of %d run directories has lifelong results", len(runDirs))
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return render.Artefacts{}, fmt.Errorf("lifemem sweep: %w", err)
	}
	out := render.Artefacts{Dir: outDir}
	for _, step := range []func(string, []*lmRun) ([]render.Artefact, error){lmWriteStreams, lmWriteSweepSensitivity, lmWriteOrders} {
		arts, err := step(outDir, runs)
		if err != nil {
			return render.Artefacts{}, fmt.Errorf("lifemem sweep: %w", err)
		}
		out.Files = append(out.Files, arts...)
	}
	var b strings.Builder
	b.WriteString("# LifeMem sweep\n\n| run | stream | backbone | methods |\n|---|---|---|---|\n")
	for _, r := range runs {
		var names []string
		for _, m := range r.methods {
			names = append(names, m.Spec.Name)
		}
		stream := r.info.Config.Stream
		if r.info.Config.InOrderStudy() {
			stream = r.info.Config.OrderLabel()
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", render.MdCell(lmRunLabel(r)), render.MdCell(stream),
			render.MdCell(runinfo.BackboneText(r.info.Backbone, r.info.Model)), render.MdCell(strings.Join(names, ", ")))
	}
	b.WriteString("\n## Artefacts\n\n")
	for _, a := range out.Files {
		fmt.Fprintf(&b, "- [%s](%s) — %s\n", render.MdText(a.Path), a.Path, render.MdText(a.Desc))
	}
	if err := os.WriteFile(filepath.Join(outDir, "lifemem_sweep.md"), []byte(b.String()), 0o644); err != nil {
		return render.Artefacts{}, fmt.Errorf("lifemem sweep: %w", err)
	}
	var provs []runinfo.Provenance
	for _, r := range runs {
		provs = append(provs, r.provenance())
	}
	if err := runinfo.StampCSVs(outDir, out.Files, runinfo.JoinProvenance(provs)); err != nil {
		return render.Artefacts{}, fmt.Errorf("lifemem sweep: %w", err)
	}
	out.Files = append(out.Files, render.Artefact{Path: "lifemem_sweep.md", Desc: "the runs compared and these artefacts"})
	return out, nil
}

func lmRunLabel(r *lmRun) string {
	return render.OrDefault(r.info.Variant, filepath.Base(r.dir))
}

// lmWriteStreams is Table 5: for each (method, backbone model), OP under each
// stream and the recovery rate (buffer − random) / (similarity − random).
func lmWriteStreams(dir string, runs []*lmRun) ([]render.Artefact, error) {
	streams := []string{"similarity", "random", "buffer"}
	type key struct{ method, model string }
	var keys []key
	op := map[key]map[string]float64{}
	from := map[key]map[string]string{}
	ci := map[key]map[string]metrics.Interval{} // OP's interval, by stream
	// What a LifeMem method built on the sim backbone, by stream, for the
	// note on a random/buffer tie.
	simStats := map[key]map[string]*lmStats{}
	kinds := map[string]bool{}
	for _, r := range runs {
		if r.info.Config.Order > 1 {
			continue // Table 5 sets one run per stream beside another: each stream's first order
		}
		kinds[render.OrDefault(r.info.Config.Stream, "similarity")] = true
		for _, m := range r.methods {
			k := key{m.Spec.Name, r.info.Model}
			if op[k] == nil {
				keys = append(keys, k)
				op[k], from[k], ci[k] = map[string]float64{}, map[string]string{}, map[string]metrics.Interval{}
			}
			st := render.OrDefault(r.info.Config.Stream, "similarity")
			if prev, dup := from[k][st]; dup {
				return nil, fmt.Errorf("method %s (model %s) has two %s runs: %s and %s", k.method, k.model, st, prev, lmRunLabel(r))
			}
			op[k][st], from[k][st] = lmAvgOP(m), lmRunLabel(r)
			ci[k][st], _ = r.avgIntervals(m, r.ciOptions())
			if m.Spec.Kind == "lifemem" && r.info.Backbone == "sim" && m.Stats != nil {
				if simStats[k] == nil {
					simStats[k] = map[string]*lmStats{}
				}
				simStats[k][st] = m.Stats
			}
		}
	}
	if len(kinds) < 2 {
		return nil, nil
	}
	t := render.Table{
		Title:   "Table 5 — robustness to the task stream (OP) and the buffer's recovery rate — backbone: " + lmBackbones(runs),
		Columns: []string{"Method", "Model", "Similarity", "Random", "Buffer", "Recovery rate"},
	}
	var rows [][]string
	for _, k := range keys {
		v := func(s string) float64 { return lmLookup(op[k], s) }
		rec := metrics.RecoveryRate(v("similarity"), v("random"), v("buffer"))
		recText := "–"
		if !math.IsNaN(rec) {
			recText = lmF2(100*rec) + " %"
		}
		w := func(s string) string {
			iv, ok := ci[k][s]
			if !ok {
				return lmF2(v(s))
			}
			return lmInterval(v(s), iv.Lo, iv.Hi)
		}
		t.Rows = append(t.Rows, []string{k.method, render.OrDefault(k.model, "–"), w("similarity"), w("random"), w("buffer"), recText})
		for _, s := range streams {
			iv, ok := ci[k][s]
			if !ok {
				iv = metrics.Interval{Lo: math.NaN(), Hi: math.NaN()}
			}
			rows = append(rows, append([]string{k.method, k.model, s, lmCSVNum(v(s))}, append(ciCells(iv), from[k][s], lmCSVNum(100*rec))...))
		}
	}
	t.Notes = []string{
		"OP after the full stream (mean final score over every environment). Random: one seeded global shuffle; buffer: the shuffle through a per-environment cache of 5 committed as one batch.",
		"Recovery rate = (buffer − random) / (similarity − random): the share of the random stream's loss the buffer wins back; undefined when the random stream lost nothing.",
		"OP [interval]: " + sweepCIWords(runs) + "; no interval where a method's cells do not allow one.",
	}
	for _, k := range keys {
		if n := lmStreamTieNote(k.method, simStats[k]["random"], simStats[k]["buffer"], lmLookup(op[k], "random"), lmLookup(op[k], "buffer")); n != "" {
			t.Notes = append(t.Notes, n)
		}
	}
	t.Caption = "LifeMem Table 5: OP under three task streams and the buffer's recovery rate."
	t.Source = "Backbone: " + lmBackbones(runs) + "."
	t.Best = map[int]int{2: render.HigherBest, 3: render.HigherBest, 4: render.HigherBest}
	d := lmDoc{
		base: "lifemem_streams", prov: "backbone: " + lmBackbones(runs), what: "LifeMem Table 5: stream robustness", tables: []render.Table{t},
		header: []string{"method", "run_model", "stream", "op_percent", "ci_low", "ci_high", "run", "recovery_rate_percent"}, rows: rows,
	}
	// The figure: OP of each method under each stream, the recovery rate
	// under the method's name.
	panel := render.BarPanel{Title: "OP after the full stream", YLabel: "OP (%)"}
	models := map[string]bool{}
	for _, k := range keys {
		models[k.model] = true
	}
	for _, k := range keys {
		g := k.method
		if len(models) > 1 {
			g += " (" + render.OrDefault(k.model, "–") + ")"
		}
		if rec := metrics.RecoveryRate(lmLookup(op[k], "similarity"), lmLookup(op[k], "random"), lmLookup(op[k], "buffer")); !math.IsNaN(rec) {
			g += "\nrecovery " + lmF2(100*rec) + " %"
		}
		panel.Groups = append(panel.Groups, g)
	}
	for _, s := range streams {
		sr := render.BarSeries{Name: s + " stream"}
		for _, k := range keys {
			sr.Values = append(sr.Values, lmLookup(op[k], s))
		}
		panel.Series = append(panel.Series, sr)
	}
	spec := render.FigSpec{Title: "Robustness to the task stream", Width: render.OneColumn,
		Caption: "Redraws LifeMem Table 5 · LifeMem lifelong protocol · backbone: " + lmBackbones(runs),
		Notes:   []string{"Recovery rate = (buffer − random) / (similarity − random). No intervals: one run per stream."}}
	if len(keys) > 3 {
		spec.Width = render.TwoColumn
	}
	fig, err := render.BarFigure(spec, []render.BarPanel{panel}, 1, false)
	if err != nil {
		return nil, fmt.Errorf("lifemem_streams.png: %w", err)
	}
	d.pngs = []lmPNG{{name: "lifemem_streams", desc: "LifeMem Table 5 as grouped bars: OP per stream and method", fig: fig}}
	return d.write(dir)
}

// lmStreamTieNote explains a LifeMem method whose buffer stream scores as
// its random one on the sim backbone (random and buffer are what it built
// on each; nil when not sim or not LifeMem): whether the memories differ,
// and why the sim can score two streams alike. "" when there is nothing to
// explain.
func lmStreamTieNote(method string, random, buffer *lmStats, opRandom, opBuffer float64) string {
	if random == nil || buffer == nil {
		return ""
	}
	if d := opBuffer - opRandom; math.IsNaN(d) || d <= -0.005 || d >= 0.005 {
		return ""
	}
	memory := fmt.Sprintf("with the same clusters (%d)", random.Clusters)
	if random.Clusters != buffer.Clusters || !slices.Equal(random.Sizes, buffer.Sizes) {
		memory = fmt.Sprintf("with a different memory (%d clusters against %d, see lifemem_clusters.md)", buffer.Clusters, random.Clusters)
	}
	return fmt.Sprintf("%s: buffer OP equal to random's on the sim backbone, %s. The sim's assigner mixes environments in a cluster only when a batch mixes them, and a sim rule helps or misleads by the one workflow it quotes, so two memories can score alike; this row does not show that the buffer is inert.", method, memory)
}

func lmBackbones(runs []*lmRun) string {
	var seen []string
	for _, r := range runs {
		b := runinfo.BackboneText(r.info.Backbone, r.info.Model)
		if !slices.Contains(seen, b) {
			seen = append(seen, b)
		}
	}
	return strings.Join(seen, "; ")
}

func lmWriteSweepSensitivity(dir string, runs []*lmRun) ([]render.Artefact, error) {
	var settings []lmSetting
	var envs []string
	var ops, bwts []metrics.Interval // each setting's, for the intervals
	for _, r := range runs {
		for _, m := range r.methods {
			if m.Spec.Kind == "lifemem" {
				settings = append(settings, lmSetting{run: lmRunLabel(r), m: m, sim: r.info.Backbone == "sim"})
				op, bwt := r.avgIntervals(m, r.ciOptions())
				ops, bwts = append(ops, op), append(bwts, bwt)
			}
		}
		for _, e := range r.info.Config.Envs {
			if !slices.Contains(envs, e) {
				envs = append(envs, e)
			}
		}
	}
	if !lmDistinct(settings) {
		return nil, nil
	}
	t, rows := lmSensitivityTable("Table 8 — sensitivity of LifeMem across the sweep — backbone: "+lmBackbones(runs), runs[0].kinds, settings, envs)
	t.Source = "Backbone: " + lmBackbones(runs) + "."
	// Across a sweep each setting's OP and BwT carry their intervals.
	for i := range rows {
		t.Rows[i][4] = lmInterval(ops[i].Point, ops[i].Lo, ops[i].Hi)
		t.Rows[i][5] = lmInterval(bwts[i].Point, bwts[i].Lo, bwts[i].Hi)
		rows[i] = append(append(rows[i], ciCells(ops[i])...), ciCells(bwts[i])...)
	}
	ciNote := "OP and BwT [interval]: " + sweepCIWords(runs) + "; no interval where a setting's cells do not allow one."
	t.Notes, t.TeXNotes = append(t.Notes, ciNote), append(t.TeXNotes, ciNote)
	header := append(slices.Clone(lmSensitivityHeader), "op_ci_low_percent", "op_ci_high_percent", "bwt_ci_low_percent", "bwt_ci_high_percent")
	d := lmDoc{base: "lifemem_sensitivity", what: "LifeMem Table 8: sensitivity across the sweep", prov: "backbone: " + lmBackbones(runs), tables: []render.Table{t}, header: header, rows: rows}
	fig, err := lmSensitivityPlot("LifeMem lifelong protocol · backbone: "+lmBackbones(runs), settings)
	if err != nil {
		return nil, err
	}
	d.pngs = []lmPNG{{name: "lifemem_sensitivity", desc: "LifeMem Table 8 as points: OP and BwT per setting", fig: fig}}
	return d.write(dir)
}

// testSetsSection lists each environment's test set and where it comes
// from, so a reader sees which scores stand on the paper's test sets and
// which on an assumed or whole split.
func (r *lmRun) testSetsSection() string {
	ts := r.info.TestSets
	if len(ts) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("## Test sets\n\n| environment | tasks | test set | note |\n|---|---:|---|---|\n")
	counts := map[string]int{}
	for _, t := range ts {
		counts[t.Status]++
		label := map[string]string{"paper": "the paper's", "assumed": "⚠ assumed", "unknown": "⚠ unknown: whole split", "whole": "⚠ whole split",
			"config": "set by the config", "embedded": "embedded suite"}[t.Status]
		fmt.Fprintf(&b, "| %s | %d | %s | %s |\n", render.MdText(r.kinds.label(t.Env)), t.Tasks, render.OrDefault(label, render.MdText(t.Status)), render.MdText(t.Note))
	}
	if n := counts["assumed"] + counts["unknown"] + counts["whole"]; n > 0 {
		fmt.Fprintf(&b, "\n%d environment(s) do not run the paper's own test set (%d assumed, %d whole split with the paper's unknown, %d whole split though the paper's size is known); their scores are not on the paper's tasks.\n",
			n, counts["assumed"], counts["unknown"], counts["whole"])
	}
	b.WriteString("\n")
	return b.String()
}
