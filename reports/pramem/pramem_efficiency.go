package pramem

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/reports/paper"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/runrecord"
)

// effRow is one method of Table 3 with its memory statistics.
type effRow struct {
	M     *pmMethod
	Mem   *memStats
	Paper *paper.Efficiency
}

// table3Rows are the memory systems in the paper's order (Mem0, MemOS,
// ProEx, each kind in config order) and the full PraMem; nil with fewer
// than two, since the table compares construction costs.
func (st *pramemStudy) table3Rows() []effRow {
	pap := map[string]paper.Efficiency{}
	for _, e := range paper.Table3() {
		pap[e.Label] = e
	}
	var ms []*pmMethod
	for _, kd := range st.s.roles.systems {
		for i := range st.methods {
			if st.methods[i].Kind == kd {
				ms = append(ms, &st.methods[i])
			}
		}
	}
	if st.full != nil {
		ms = append(ms, st.full)
	}
	if len(ms) < 2 {
		return nil
	}
	rows := make([]effRow, len(ms))
	for i, m := range ms {
		rows[i] = effRow{M: m, Mem: st.memory(m.Name)}
		if label, ok := st.s.paper.Label(m.Kind, paper.Table3Name); ok {
			if e, ok := pap[label]; ok {
				rows[i].Paper = &e
			}
		}
	}
	return rows
}

// minutes formats a construction time in minutes; sim-backed runs build in
// fractions of a second, hence the extra precision below a minute.
func minutes(seconds float64) string {
	if math.IsNaN(seconds) {
		return "—"
	}
	m := seconds / 60
	if m < 1 {
		return strconv.FormatFloat(m+0, 'f', 4, 64)
	}
	return strconv.FormatFloat(m, 'f', 2, 64)
}

func perUser(v float64, decimals int) string {
	if math.IsNaN(v) {
		return "—"
	}
	return strconv.FormatFloat(v+0, 'f', decimals, 64)
}

// writeTable3 writes PraMem's Table 3: mean memory-construction time, LLM
// calls and tokens per user, and Overall F1, beside the paper's numbers.
func (st *pramemStudy) writeTable3(dir string) ([]render.Artefact, error) {
	rows := st.table3Rows()
	if rows == nil {
		return nil, nil
	}
	tab := render.Table{
		Title: st.s.Title() + " — PraMem Table 3: memory construction cost per user and Overall F1",
		Columns: []string{"Method", "Kind", "Memories", "Construction min/user", "LLM calls/user", "Prompt tokens/user",
			"Completion tokens/user", "Memory tokens", "Overall F1", "Paper min/user", "Paper Overall F1"},
	}
	var csvRows [][]string
	panels := []render.BarPanel{
		// Our construction can take milliseconds where the paper's takes
		// half an hour: log axes keep both series visible.
		{Title: "Construction (min/user, log)", YLabel: "minutes", LogY: true},
		{Title: "LLM calls per user (log)", YLabel: "calls", LogY: true},
		{Title: "Overall F1 (%)", YLabel: "F1 (%)"},
	}
	ours, theirs := make([][]float64, 3), make([][]float64, 3)
	var ms []*pmMethod
	var f1Lo, f1Hi []float64 // Overall F1 intervals, ours
	var problems []string
	noTime := []string{}
	// On sim the wall clock times the harness, not inference, and differs
	// from run to run: it is left out so the same config gives the same
	// CSV; calls and tokens are the comparable cost there.
	onSim := st.s.Run.Manifest.Backbone == "sim"
	for _, r := range rows {
		ms = append(ms, r.M)
		mem, a := r.Mem, st.scores[r.M.Name]
		secs := mem.Seconds.mean()
		if onSim {
			secs = math.NaN()
		} else if mem.Files > 0 && mem.Seconds.n == 0 {
			noTime = append(noTime, r.M.Name)
		}
		csvSecs, csvMins := render.Num(secs), render.Num(secs/60)
		if math.IsNaN(secs) {
			csvSecs, csvMins = "", ""
		}
		pMin, pF1 := "—", "—"
		csvPMin, csvPF1 := "", ""
		pm, pf, pc := math.NaN(), math.NaN(), math.NaN()
		if r.Paper != nil {
			pm, pf = r.Paper.Minutes, r.Paper.OverallF1
			if r.Paper.Calls > 0 {
				pc = r.Paper.Calls
			}
			pMin, pF1 = f1d(pm), f1d(pf)
			csvPMin, csvPF1 = pMin, pF1
		}
		tab.Rows = append(tab.Rows, []string{r.M.Name, r.M.Kind, fmt.Sprintf("%d/%d", mem.Files, mem.Users),
			minutes(secs), perUser(mem.Calls.mean(), 1), perUser(mem.Prompt.mean(), 0), perUser(mem.Complete.mean(), 0),
			perUser(mem.Tokens.mean(), 0), render.Fixed2(a.F1[t1Overall]), pMin, pF1})
		csvRows = append(csvRows, []string{r.M.Name, r.M.Kind, strconv.Itoa(mem.Users), strconv.Itoa(mem.Files),
			csvSecs, csvMins, render.Num(mem.Calls.mean()), render.Num(mem.Prompt.mean()), render.Num(mem.Complete.mean()),
			render.Num(mem.Tokens.mean()), render.Num(a.ACC[t1Overall]), render.Num(a.F1[t1Overall]), csvPMin, csvPF1})
		for i, v := range [][2]float64{{secs / 60, pm}, {mem.Calls.mean(), pc}, {a.F1[t1Overall], pf}} {
			ours[i], theirs[i] = append(ours[i], v[0]), append(theirs[i], v[1])
		}
		for _, p := range mem.Problems {
			problems = append(problems, "Unreadable memory file, left out: "+p+".")
		}
		panels[0].Groups = append(panels[0].Groups, r.M.Name)
		lo, hi := st.f1Intervals(r.M.Name)
		f1Lo, f1Hi = append(f1Lo, lo[t1Overall]), append(f1Hi, hi[t1Overall])
	}
	for i := range panels {
		panels[i].Groups = panels[0].Groups
		panels[i].Series = []render.BarSeries{{Name: "ours (" + st.backboneShort() + ")", Values: ours[i]}, {Name: "paper (" + paper.StudiesBackbone + ")", Values: theirs[i]}}
	}
	panels[2].Series[0].Lo, panels[2].Series[0].Hi = f1Lo, f1Hi
	tab.Notes = []string{
		"Per user, over the users the method answered for: construction time is the mean of meta.construction_seconds in memory/<method>/<user>.json (wall clock of building that memory), calls and tokens the memory's construction calls and usage, memory tokens its size; Memories = memory files read / users.",
		"Overall F1 in %, aggregated exactly as Table 1.",
		"Paper: PraMem Table 3 (" + paper.StudiesBackbone + "; minutes per user and Overall F1), matched by method kind. The paper's PraMem practises 80 rounds, about 500 LLM calls per user.",
	}
	if onSim {
		tab.Notes = append(tab.Notes, "With the sim backbone, construction time is not reported (—, empty in the CSV): it would time the harness, not model inference, and vary from run to run; the calls and tokens per user are the comparable cost.")
	}
	tab.Notes = append(tab.Notes, st.paperCaveats()...)
	if len(noTime) > 0 {
		tab.Notes = append(tab.Notes, "No construction time recorded by: "+strings.Join(noTime, ", ")+" (shown as —).")
	}
	tab.Notes = append(tab.Notes, problems...)
	tab.Notes = append(tab.Notes, st.inferredNote(ms)...)

	usage, err := st.usageTable()
	if err != nil {
		return nil, err
	}
	spec := st.figSpec("Memory construction cost", "Redraws PraMem Table 3", render.TwoColumn, st.s.CINote()+" (Overall F1, ours only)")
	if onSim {
		panels[0].Note = "ours: not measured on sim"
		spec.Notes = append(spec.Notes, "Construction time: ours is not reported on the sim backbone (the wall clock would time the harness, not inference); only the paper's bars are drawn. Calls per user are the comparable cost.")
	}
	png, err := render.BarFigure(spec, panels, 3, false)
	if err != nil {
		return nil, fmt.Errorf("pramem_table3.png: %w", err)
	}
	// LaTeX prints the paper's columns (minutes per user, Overall F1) and
	// our calls per user; the Markdown and CSV keep every measure.
	texTab := tab
	texTab.Caption = "PraMem Table 3: memory construction cost per user and Overall F1 (%)."
	texTab.Source = st.s.TeXSource()
	texTab.TeXCols = []int{0, 3, 4, 5, 8, 9, 10}
	texTab.Groups = []render.TeXGroup{{Label: "Ours (" + st.backboneShort() + ")", From: 3, To: 8}, {Label: "Paper (" + paper.StudiesBackbone + ")", From: 9, To: 10}}
	texTab.SubColumns = []string{"Method", "", "", "Min/user", "Calls/user", "Prompt tok./user", "", "", "F1", "Min/user", "F1"}
	texTab.Best = map[int]int{3: render.LowerBest, 4: render.LowerBest, 5: render.LowerBest, 8: render.HigherBest}
	texTab.TeXNotes = []string{"Per user: mean construction time, LLM calls and prompt tokens of the memory; Overall F1 aggregated as Table 1; paper rows matched by method kind (its PraMem practises 80 rounds, about 500 calls per user)."}
	if onSim {
		texTab.TeXNotes = append(texTab.TeXNotes, "On sim, time is not reported (—): it would time the harness, not inference.")
	}
	texTab.TeXNotes = append(texTab.TeXNotes, render.CondenseNotes(append(append([]string{}, problems...), st.inferredNote(ms)...))...)
	if len(noTime) > 0 {
		texTab.TeXNotes = append(texTab.TeXNotes, "No construction time recorded by: "+strings.Join(noTime, ", ")+" (—).")
	}
	md, tex := tab.Markdown(), texTab.LaTeX()
	if usage != nil {
		md += usage.Markdown()
		u := *usage
		u.Caption, u.Source = "Calls and tokens of the whole run by request purpose.", st.s.TeXSource()
		u.TeXNotes = []string{"All methods together, construction and prediction: a cross-check of the per-user figures; methods sharing a construction pay for it once."}
		tex += u.LaTeX()
	}
	return pmDoc{
		base: "pramem_table3",
		md:   st.s.MdDoc(md),
		tex:  st.s.TeXDoc(tex),
		header: []string{"method", "kind", "users", "memory_files", "construction_seconds", "construction_minutes",
			"calls_per_user", "prompt_tokens_per_user", "completion_tokens_per_user", "memory_tokens",
			"overall_acc_percent", "overall_f1_percent", "paper_minutes", "paper_overall_f1_percent"},
		rows: csvRows,
		fig:  png,
		what: "PraMem Table 3: memory construction time, calls and tokens per user and Overall F1, beside the paper's numbers",
	}.write(dir)
}

// usageTable lists usage.json (the whole run's calls and tokens by request
// purpose, construction and prediction alike); nil when the run has none.
func (st *pramemStudy) usageTable() (*render.Table, error) {
	path := filepath.Join(st.runDir, runrecord.UsageFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var by map[string]runrecord.MethodUsage
	if err := json.Unmarshal(b, &by); err != nil {
		// usage.json is a cross-check only: a damaged one must not cost
		// the whole report.
		return &render.Table{Title: st.s.Title() + " — usage.json by purpose", Columns: []string{"Purpose"},
			Notes: []string{fmt.Sprintf("%s is unreadable (%v).", runrecord.UsageFile, err)}}, nil
	}
	purposes := make([]string, 0, len(by))
	for p := range by {
		purposes = append(purposes, p)
	}
	slices.Sort(purposes)
	t := &render.Table{
		Title:   st.s.Title() + " — usage.json by purpose (whole run)",
		Columns: []string{"Purpose", "Calls", "Cached calls", "Prompt tokens", "Completion tokens"},
	}
	for _, p := range purposes {
		u := by[p]
		t.Rows = append(t.Rows, []string{p, strconv.Itoa(u.Calls), strconv.Itoa(u.CachedCalls),
			strconv.Itoa(u.PromptTokens), strconv.Itoa(u.CompletionTokens)})
	}
	t.Notes = []string{"Every call of the run by request purpose (all methods together, construction and prediction), as a cross-check of the per-user figures above; methods sharing a construction (ablations evaluated on one memory) pay for it once."}
	return t, nil
}
