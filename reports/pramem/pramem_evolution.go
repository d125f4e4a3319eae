package pramem

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/reports/paper"
	"github.com/memharness/memharness/reports/render"
)

// evoPoint is one evaluated snapshot of the memory evolution.
type evoPoint struct {
	M            *pmMethod
	Agg          t1Agg
	Tokens       float64 // mean memory tokens per user
	TokensSource string  // "memory files" or "prompts"
	Users        int
	Paper        *paper.EvolutionPoint // the paper's value at the same round of an 80-round run
}

// evolutionPoints are the run's earlier-snapshot methods and the full
// PraMem (the last snapshot), by round; nil without an earlier snapshot.
func (st *pramemStudy) evolutionPoints() []evoPoint {
	var ms []*pmMethod
	for i := range st.methods {
		if st.methods[i].Variant == pmEvolution {
			ms = append(ms, &st.methods[i])
		}
	}
	if len(ms) == 0 {
		return nil
	}
	if st.full != nil {
		ms = append(ms, st.full)
	}
	slices.SortStableFunc(ms, func(a, b *pmMethod) int { return a.Round - b.Round })
	pap := paper.Evolution()
	var pts []evoPoint
	for _, m := range ms {
		p := evoPoint{M: m, Agg: st.scores[m.Name]}
		mem := st.memory(m.Name)
		p.Users = mem.Users
		if mem.Files > 0 {
			p.Tokens, p.TokensSource = mem.Tokens.mean(), "memory files"
		} else if u := st.s.Usage[m.Name]; u.Samples > 0 {
			p.Tokens, p.TokensSource = float64(u.MemoryTokens)/float64(u.Samples), "prompts"
		} else {
			p.Tokens = math.NaN()
		}
		if m.Total == paper.EvolutionRounds {
			for i := range pap {
				if pap[i].Round == m.Round {
					p.Paper = &pap[i]
				}
			}
		}
		pts = append(pts, p)
	}
	return pts
}

// constructionCurve is the memory's mean token count after each practice
// round, from the memory meta of the full PraMem or else the first earlier
// snapshot that records it.
func (st *pramemStudy) constructionCurve(pts []evoPoint) (method string, rounds []int, tokens []float64, users []int) {
	cands := []*pmMethod{}
	if st.full != nil {
		cands = append(cands, st.full)
	}
	for _, p := range pts {
		cands = append(cands, p.M)
	}
	for _, m := range cands {
		c := st.memory(m.Name).Curve
		if len(c) == 0 {
			continue
		}
		for r := range c {
			rounds = append(rounds, r)
		}
		slices.Sort(rounds)
		for _, r := range rounds {
			tokens = append(tokens, c[r].mean())
			users = append(users, c[r].n)
		}
		return m.Name, rounds, tokens, users
	}
	return "", nil, nil, nil
}

// writeEvolution writes Figure 4: Overall ACC and F1 of memories evaluated
// after different numbers of practice rounds, and the memory's size.
func (st *pramemStudy) writeEvolution(dir string) ([]render.Artefact, error) {
	pts := st.evolutionPoints()
	if pts == nil {
		return nil, nil
	}
	curveMethod, cRounds, cTokens, cUsers := st.constructionCurve(pts)
	tab := render.Table{
		Title:   st.s.Title() + " — PraMem Figure 4: memory evolution by practice round (%)",
		Columns: []string{"Round", "Method", "Overall ACC", "Overall F1", "Memory tokens", "Paper ACC", "Paper F1"},
	}
	var csvRows [][]string
	totals := map[int]bool{}
	for _, p := range pts {
		totals[p.M.Total] = true
		pa, pf := "—", "—"
		csvPA, csvPF := "", ""
		if p.Paper != nil {
			pa, pf = f1d(p.Paper.Overall.ACC), f1d(p.Paper.Overall.F1)
			csvPA, csvPF = pa, pf
		}
		tab.Rows = append(tab.Rows, []string{
			fmt.Sprintf("%d of %d", p.M.Round, p.M.Total), p.M.Name,
			render.Fixed2(p.Agg.ACC[t1Overall]), render.Fixed2(p.Agg.F1[t1Overall]), tokensCell(p.Tokens), pa, pf,
		})
		csvRows = append(csvRows, []string{p.M.Name, strconv.Itoa(p.M.Round), strconv.Itoa(p.M.Total),
			render.Num(p.Agg.ACC[t1Overall]), render.Num(p.Agg.F1[t1Overall]), render.Num(p.Tokens), p.TokensSource, strconv.Itoa(p.Users), csvPA, csvPF})
	}
	var evo []string
	for _, e := range paper.Evolution() {
		evo = append(evo, fmt.Sprintf("after %d rounds %s/%s", e.Round, f1d(e.Overall.ACC), f1d(e.Overall.F1)))
	}
	tab.Notes = []string{
		"Each row evaluates the same construction's memory after the given number of practice rounds (pramem.eval_round; the full method is the last round); Overall ACC and F1 in %, aggregated exactly as Table 1.",
		"Memory tokens: the evaluated memory's token count, mean over users, from the run's memory files (or, without them, the memory tokens shown per question).",
		fmt.Sprintf("Paper (%s, %d rounds, Overall ACC/F1): %s; memory length grows until about round 60, then plateaus (a figure only). Paper values sit beside ours only at the same round of an %d-round run.",
			paper.StudiesBackbone, paper.EvolutionRounds, strings.Join(evo, ", "), paper.EvolutionRounds),
	}
	if len(totals) > 1 {
		tab.Notes = append(tab.Notes, "Warning: these methods configure different numbers of practice rounds, so they are not snapshots of one construction.")
	}
	if curveMethod != "" {
		tab.Notes = append(tab.Notes, fmt.Sprintf("The memory's size after every round of %s's construction (memory meta, mean over users) is in pramem_evolution_tokens.csv and the lower panel of the figure.", curveMethod))
	}
	texExtra := append([]string{}, tab.Notes[3:]...) // the warnings, for LaTeX
	tab.Notes = append(tab.Notes, st.paperCaveats()...)
	tab.Notes = append(tab.Notes, st.absentNote()...)
	var ms []*pmMethod
	for _, p := range pts {
		ms = append(ms, p.M)
	}
	tab.Notes = append(tab.Notes, st.inferredNote(ms)...)

	png, err := st.evolutionPNG(pts, curveMethod, cRounds, cTokens)
	if err != nil {
		return nil, err
	}
	texTab := tab
	texTab.Caption = "PraMem memory evolution by practice round (Overall, %)."
	texTab.Source = st.s.TeXSource()
	texTab.TeXCols = []int{0, 2, 3, 4, 5, 6}
	texTab.Groups = []render.TeXGroup{{Label: "Ours (" + st.backboneShort() + ")", From: 2, To: 4}, {Label: "Paper", From: 5, To: 6}}
	texTab.SubColumns = []string{"Round", "", "ACC", "F1", "Mem. tokens", "ACC", "F1"}
	texTab.TeXNotes = append([]string{
		fmt.Sprintf("Each row: the same construction's memory after that many practice rounds; memory tokens: mean over users. Paper (%s, %d rounds): %s, beside ours only at the same round of an %d-round run.",
			paper.StudiesBackbone, paper.EvolutionRounds, strings.Join(evo, ", "), paper.EvolutionRounds),
	}, render.CondenseNotes(append(append(texExtra, st.absentNote()...), st.inferredNote(ms)...))...)
	d := pmDoc{
		base: "pramem_evolution",
		md:   st.s.MdDoc(tab.Markdown()),
		tex:  st.s.TeXDoc(texTab.LaTeX()),
		header: []string{"method", "round", "total_rounds", "overall_acc_percent", "overall_f1_percent", "memory_tokens",
			"memory_tokens_source", "users", "paper_acc_percent", "paper_f1_percent"},
		rows: csvRows,
		fig:  png,
		what: "PraMem Figure 4: Overall ACC and F1 and memory tokens of memories evaluated after different numbers of practice rounds",
	}
	if curveMethod != "" {
		var rows [][]string
		for i, r := range cRounds {
			rows = append(rows, []string{curveMethod, strconv.Itoa(r), render.Num(cTokens[i]), strconv.Itoa(cUsers[i])})
		}
		d.extraCSVs = append(d.extraCSVs, pmCSV{
			name:   "pramem_evolution_tokens.csv",
			header: []string{"method", "round", "mean_memory_tokens", "users"},
			rows:   rows,
			desc:   "the memory's token count after every practice round of " + curveMethod + "'s construction (memory meta), mean over users",
		})
	}
	return d.write(dir)
}

func (st *pramemStudy) evolutionPNG(pts []evoPoint, curveMethod string, cRounds []int, cTokens []float64) (render.FigFiles, error) {
	var xs, acc, f1, tok, pxs, pacc, pf1 []float64
	var accLo, accHi, f1Lo, f1Hi []float64 // bootstrap intervals of the Overall scores
	for i, p := range pts {
		// Several methods at one round (e.g. pramem and pramem_r80) are the
		// same snapshot: plot the first.
		if i > 0 && p.M.Round == pts[i-1].M.Round {
			continue
		}
		x := float64(p.M.Round)
		xs, acc, f1, tok = append(xs, x), append(acc, p.Agg.ACC[t1Overall]), append(f1, p.Agg.F1[t1Overall]), append(tok, p.Tokens)
		al, ah := st.accInterval(p.M.Name)
		fl, fh := st.f1Intervals(p.M.Name)
		accLo, accHi, f1Lo, f1Hi = append(accLo, al), append(accHi, ah), append(f1Lo, fl[t1Overall]), append(f1Hi, fh[t1Overall])
		if p.Paper != nil {
			pxs, pacc, pf1 = append(pxs, x), append(pacc, p.Paper.Overall.ACC), append(pf1, p.Paper.Overall.F1)
		}
	}
	// ACC and F1 get a panel each: on one shared axis the lower curve
	// (F1) would look flat whatever it does.
	ours := "this run (" + st.backboneShort() + ")"
	accP := render.LinePanel{Title: "Overall ACC", XLabel: "practice rounds", YLabel: "ACC (%)", YFloor: 0, YCeil: 100, Series: []render.XySeries{
		{Name: ours, X: xs, Y: acc, Lo: accLo, Hi: accHi, Line: true, Color: 0},
	}}
	f1P := render.LinePanel{Title: "Overall F1", XLabel: "practice rounds", YLabel: "F1 (%)", YFloor: 0, YCeil: 100, Series: []render.XySeries{
		{Name: ours, X: xs, Y: f1, Lo: f1Lo, Hi: f1Hi, Line: true, Color: 0},
	}}
	if len(pxs) > 0 {
		accP.Series = append(accP.Series, render.XySeries{Name: "paper (" + paper.StudiesBackbone + ")", X: pxs, Y: pacc, Color: 1, Hollow: true})
		f1P.Series = append(f1P.Series, render.XySeries{Name: "paper (" + paper.StudiesBackbone + ")", X: pxs, Y: pf1, Color: 1, Hollow: true})
	}
	bottom := render.LinePanel{Title: "Memory size", XLabel: "practice rounds", YLabel: "memory tokens (mean per user)", YFloor: 0, YCeil: math.NaN()}
	if curveMethod != "" {
		cx := make([]float64, len(cRounds))
		for i, r := range cRounds {
			cx[i] = float64(r)
		}
		bottom.Series = append(bottom.Series, render.XySeries{Name: "after each round (" + curveMethod + ")", X: cx, Y: cTokens, Line: true, Color: 2})
	}
	bottom.Series = append(bottom.Series, render.XySeries{Name: "evaluated memories", X: xs, Y: tok, Color: 3})
	spec := st.figSpec("Memory evolution over practice rounds", "Redraws PraMem Figure 4", render.TwoColumn, st.s.CINote())
	png, err := render.LineFigure(spec, []render.LinePanel{accP, f1P, bottom}, 3)
	if err != nil {
		return render.FigFiles{}, fmt.Errorf("pramem_evolution.png: %w", err)
	}
	return png, nil
}

// tokensCell formats a mean token count without decimals.
func tokensCell(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return strconv.FormatFloat(v+0, 'f', 0, 64)
}
