package memqa

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	dmemqa "github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/metrics"
	scoring "github.com/memharness/memharness/metrics/memqa"
	"github.com/memharness/memharness/reports/paper"
	"github.com/memharness/memharness/reports/render"
)

// Files the study writes into the report folder.
const (
	MetricsFile     = "metrics.csv"
	ComparisonsFile = "comparisons.csv"
	Mem0Base        = "locomo_mem0_layout"
	PerTypeBase     = "longmemeval_per_type"
	LengthBase      = "answer_length"
	ScoresFigure    = "category_scores"
	LengthFigure    = "answer_length_scores"
)

// Write writes the study's files into dir (a run's report folder) and
// returns them with the Markdown that index.md shows: the main table with
// its intervals, the paired comparisons, the benchmark's paper layout and
// the answer-length table, each under a title naming the run's choices.
func (st *Study) Write(dir string) ([]render.Artefact, string, error) {
	var arts []render.Artefact
	var md strings.Builder
	if err := st.writeMetrics(filepath.Join(dir, MetricsFile)); err != nil {
		return nil, "", err
	}
	arts = append(arts, render.Artefact{Path: MetricsFile, Desc: "every score per method and class, with its clustered interval"})
	md.WriteString(st.mainTable().Markdown() + "\n")
	if len(st.Comparisons) > 0 {
		if err := st.writeComparisons(filepath.Join(dir, ComparisonsFile)); err != nil {
			return nil, "", err
		}
		arts = append(arts, render.Artefact{Path: ComparisonsFile, Desc: "paired differences against the baseline, clustered"})
		md.WriteString(st.comparisonTable().Markdown() + "\n")
	}
	var t render.Table
	var header []string
	var rows [][]string
	var base, what string
	if st.Opts.Benchmark == dmemqa.LoCoMo {
		t, header, rows = st.mem0Table()
		base, what = Mem0Base, "the Mem0 paper's LoCoMo layout (F1, BLEU-1, J per category), published numbers beside"
	} else {
		t, header, rows = st.perTypeTable()
		base, what = PerTypeBase, "LongMemEval's accuracy per question type"
	}
	more, err := writeTable(dir, base, what, t, header, rows)
	if err != nil {
		return nil, "", err
	}
	arts = append(arts, more...)
	md.WriteString(t.Markdown() + "\n")
	lt, lh, lr := st.lengthTable()
	bt := st.lengthBucketTable()
	more, err = writeTable(dir, LengthBase, "answer length per method and class, and how the scores move with it", lt, lh, lr, bt)
	if err != nil {
		return nil, "", err
	}
	arts = append(arts, more...)
	md.WriteString(lt.Markdown() + "\n" + bt.Markdown() + "\n")
	figs, err := st.writeFigures(dir)
	if err != nil {
		return nil, "", err
	}
	if len(figs) > 0 {
		md.WriteString("### Figures\n\n")
		for _, a := range figs {
			if strings.HasSuffix(a.Path, ".png") {
				fmt.Fprintf(&md, "- [%s](%s): %s\n", a.Path, a.Path, render.MdText(a.Desc))
			}
		}
		md.WriteString("\n")
	}
	return append(arts, figs...), md.String(), nil
}

// writeTable writes t as base.md and base.tex and its data as base.csv.
func writeTable(dir, base, what string, t render.Table, header []string, rows [][]string, more ...render.Table) ([]render.Artefact, error) {
	if err := render.WriteCSV(filepath.Join(dir, base+".csv"), header, rows); err != nil {
		return nil, err
	}
	files := []struct {
		name string
		body string
	}{{base + ".md", t.Markdown()}, {base + ".tex", t.LaTeX()}}
	for _, m := range more {
		files[0].body += "\n" + m.Markdown()
		files[1].body += m.LaTeX()
	}
	files[1].body = render.TeXFile(t.Title, files[1].body)
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), []byte(f.body), 0o644); err != nil {
			return nil, fmt.Errorf("write %s: %w", f.name, err)
		}
	}
	return []render.Artefact{{Path: base + ".csv", Desc: what}, {Path: base + ".md", Desc: what + " (Markdown)"},
		{Path: base + ".tex", Desc: what + " (LaTeX)"}}, nil
}

// title is the common head of every table's title.
func (st *Study) title(what string) string {
	t := fmt.Sprintf("%s: %s — %s (%s; %s", st.Opts.Run, st.Opts.Benchmark, what, st.Choices(), st.Clustering())
	if st.Opts.Backbone != "" {
		t += "; " + st.Opts.Backbone
	}
	return t + ")"
}

// headline is the score a benchmark's main table shows per class.
func (st *Study) headline(c *Cell) Metric {
	if st.Opts.Benchmark == dmemqa.LoCoMo {
		return c.F1
	}
	return c.Judge
}

// ciCell is "0.512 [0.431, 0.598]" on the sources' 0–1 scale (scale 1) or
// in percent (scale 100), "—" when the score was not recorded.
func ciCell(m Metric, scale float64, decimals int) string {
	if m.Items == 0 || math.IsNaN(m.Point) {
		return "—"
	}
	f := func(v float64) string { return strconv.FormatFloat(v*scale, 'f', decimals, 64) }
	if math.IsNaN(m.Lo) {
		return f(m.Point)
	}
	return fmt.Sprintf("%s [%s, %s]", f(m.Point), f(m.Lo), f(m.Hi))
}

func point(m Metric, scale float64, decimals int) string {
	if m.Items == 0 || math.IsNaN(m.Point) {
		return "—"
	}
	return strconv.FormatFloat(m.Point*scale, 'f', decimals, 64)
}

func (st *Study) mainTable() render.Table {
	what := "F1 per category"
	if st.Opts.Benchmark == dmemqa.LongMemEval {
		what = "judge accuracy per question type"
	}
	t := render.Table{Title: st.title(what), Columns: []string{"method"}}
	for _, c := range st.Classes {
		t.Columns = append(t.Columns, st.ClassLabel(c))
	}
	bleu := st.hasScore(func(c *Cell) Metric { return c.BLEU1 })
	if bleu {
		t.Columns = append(t.Columns, "BLEU-1 (overall)")
	}
	t.Columns = append(t.Columns, "evidence recall", "prompt tokens / q (every call)")
	for _, m := range st.Opts.Methods {
		row := []string{m}
		for _, c := range st.Classes {
			cell := st.Cells[m][c]
			if cell == nil {
				row = append(row, "—")
				continue
			}
			row = append(row, fmt.Sprintf("%s (n=%d)", ciCell(st.headline(cell), 1, 3), cell.N))
		}
		all := st.Cells[m][OverallClass]
		if all == nil {
			all = &Cell{BLEU1: Metric{}, Recall: Metric{}, Tokens: math.NaN()}
		}
		if bleu {
			row = append(row, ciCell(all.BLEU1, 1, 3))
		}
		row = append(row, ciCell(all.Recall, 1, 3), f1d0(all.Tokens))
		t.Rows = append(t.Rows, row)
	}
	if w := st.clusterWarning(); w != "" {
		t.Notes = append(t.Notes, w)
	}
	t.Notes = append(t.Notes, st.namesNote(),
		"Evidence recall is reported for methods that retrieve turns (RAG: recall@k of the evidence dia_ids on LoCoMo, of the has_answer turns on LongMemEval); — where a method retrieves nothing.",
		"Prompt tokens / q (every call): the prompt tokens of every model call the question's record holds (the answer, the judges and, on a conversation's first question, the memory's construction); the paper layout below counts the answering prompt alone.")
	if n := st.untaggedNote(); n != "" {
		t.Notes = append(t.Notes, n)
	}
	return t
}

// untaggedNote says how the evidence recall of methods whose memory items
// are attributed to turns by tag was read, and how many of their items
// carried no tag ("" when no method's are).
func (st *Study) untaggedNote() string {
	key := st.Opts.Keys.Untagged
	if key == "" {
		return ""
	}
	var parts []string
	for _, m := range st.Opts.Methods {
		sum, n := 0.0, 0
		for _, s := range st.byMethod[m] {
			if v, ok := s.Scores[key]; ok {
				sum += v
				n++
			}
		}
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s %.1f%% (%d questions)", m, 100*sum/float64(n), n))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "The evidence recall of an MCP memory server is read from the turn tags written with each turn that survive in the items its search returned; " +
		"an item without one (the server rewrote what it stored) counts as retrieving no turn. Items shown without a tag, mean share per question: " + strings.Join(parts, ", ") + "."
}

// namesNote spells out the category names the tables print.
func (st *Study) namesNote() string {
	if st.Opts.Benchmark != dmemqa.LoCoMo {
		return "Abstention questions (question_id ending in _abs) are their own class; the overall row covers every question."
	}
	var parts []string
	for _, c := range scoring.PrintOrder() {
		n, _ := scoring.CategoryName(st.Opts.Names, c)
		parts = append(parts, fmt.Sprintf("%d %s", c, n))
	}
	other := scoring.NamesMem0
	if st.Opts.Names == scoring.NamesMem0 {
		other = scoring.NamesLoCoMoCode
	}
	var alt []string
	for _, c := range scoring.PrintOrder() {
		n, _ := scoring.CategoryName(other, c)
		alt = append(alt, fmt.Sprintf("%d %s", c, n))
	}
	return fmt.Sprintf("Category names (%s table, report.category_names): %s. The %s table would print %s; scoring follows the official code's per-number rules either way.",
		st.Opts.Names, strings.Join(parts, ", "), other, strings.Join(alt, ", "))
}

// writeMetrics writes one metric a row, in the columns the other
// families' metrics.csv has, shares in percent.
func (st *Study) writeMetrics(path string) error {
	header := []string{"method", "field", "name", "metric", "value", "unit", "ci_low", "ci_high", "n"}
	var rows [][]string
	for _, m := range st.Opts.Methods {
		for _, c := range st.Classes {
			cell := st.Cells[m][c]
			if cell == nil {
				continue
			}
			field := c
			if c == OverallClass {
				field = "all"
			}
			name := st.ClassLabel(c)
			share := func(metric string, iv Metric) {
				if iv.Items == 0 {
					return
				}
				rows = append(rows, []string{m, field, name, metric, render.Num(100 * iv.Point), render.UnitPercent,
					render.Num(100 * iv.Lo), render.Num(100 * iv.Hi), strconv.Itoa(iv.Items)})
			}
			k := st.Opts.Keys
			share(k.F1, cell.F1)
			share(k.BLEU1, cell.BLEU1)
			share("judge_accuracy", cell.Judge)
			share(k.Recall, cell.Recall)
			n := strconv.Itoa(cell.N)
			rows = append(rows,
				[]string{m, field, name, "prompt_tokens_per_question", render.Num(cell.Tokens), render.UnitTokens, "", "", n},
				[]string{m, field, name, "answer_words", render.Num(cell.Words), render.UnitCount, "", "", n})
		}
	}
	return render.WriteCSV(path, header, rows)
}

func (st *Study) comparisonTable() render.Table {
	t := render.Table{Title: st.title("paired differences against " + st.Opts.Baseline),
		Columns: []string{"method", "class", "n", "clusters"}}
	type col struct {
		name string
		pick func(Comparison) *metrics.Paired
	}
	var cols []col
	for _, c := range []col{{"ΔF1", func(c Comparison) *metrics.Paired { return c.F1 }},
		{"ΔBLEU-1", func(c Comparison) *metrics.Paired { return c.BLEU1 }},
		{"ΔJ", func(c Comparison) *metrics.Paired { return c.Judge }}} {
		for _, cmp := range st.Comparisons {
			if c.pick(cmp) != nil {
				cols = append(cols, c)
				break
			}
		}
	}
	for _, c := range cols {
		t.Columns = append(t.Columns, c.name, "p")
	}
	for _, cmp := range st.Comparisons {
		clusters := 0
		row := []string{cmp.Method, st.ClassLabel(cmp.Class), strconv.Itoa(cmp.N), ""}
		for _, c := range cols {
			p := c.pick(cmp)
			if p == nil {
				row = append(row, "—", "—")
				continue
			}
			clusters = p.Clusters
			row = append(row, pairedCell(p), pCell(p.P))
		}
		row[3] = strconv.Itoa(clusters)
		t.Rows = append(t.Rows, row)
	}
	t.Notes = append(t.Notes, fmt.Sprintf("Each difference is the method's mean minus %s's on the questions both answered, on the sources' 0–1 scale; its interval and two-sided p come from resampling whole clusters, both methods scored on each resample.", st.Opts.Baseline))
	return t
}

func pairedCell(p *metrics.Paired) string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }
	if math.IsNaN(p.Lo) {
		return f(p.Diff)
	}
	return fmt.Sprintf("%s [%s, %s]", f(p.Diff), f(p.Lo), f(p.Hi))
}

func pCell(p float64) string {
	if math.IsNaN(p) {
		return "—"
	}
	return strconv.FormatFloat(p, 'f', 3, 64)
}

func (st *Study) writeComparisons(path string) error {
	header := []string{"method", "baseline", "field", "name", "metric", "diff", "unit", "ci_low", "ci_high", "p", "n", "clusters"}
	var rows [][]string
	k := st.Opts.Keys
	for _, cmp := range st.Comparisons {
		field := cmp.Class
		if field == OverallClass {
			field = "all"
		}
		for _, x := range []struct {
			metric string
			p      *metrics.Paired
		}{{k.F1, cmp.F1}, {k.BLEU1, cmp.BLEU1}, {"judge_accuracy", cmp.Judge}} {
			if x.p == nil {
				continue
			}
			rows = append(rows, []string{cmp.Method, cmp.Baseline, field, st.ClassLabel(cmp.Class), x.metric,
				render.Num(100 * x.p.Diff), render.UnitPercent, render.Num(100 * x.p.Lo), render.Num(100 * x.p.Hi),
				render.Num(x.p.P), strconv.Itoa(x.p.Items), strconv.Itoa(x.p.Clusters)})
		}
	}
	return render.WriteCSV(path, header, rows)
}

// mem0Columns are the Mem0 paper's LoCoMo columns, by the names it prints.
func mem0Columns() []string { return []string{"single-hop", "multi-hop", "open-domain", "temporal"} }

// categoryNamed is the category the configured table gives name.
func (st *Study) categoryNamed(name string) (int, bool) {
	for c := 1; c <= 5; c++ {
		if n, _ := scoring.CategoryName(st.Opts.Names, c); n == name {
			return c, true
		}
	}
	return 0, false
}

// mem0Table lays the run out as the Mem0 paper's LoCoMo tables: per
// category F1, B1 and J in percent (its Table 1), then overall, the
// context tokens given to the answer and the search and total latency per
// question at p50 and p95 (its Table 2), with our answering prompt's
// tokens beside them; the published rows follow, each with its source.
func (st *Study) mem0Table() (render.Table, []string, [][]string) {
	t := render.Table{Title: st.title("the Mem0 paper's LoCoMo layout"), Columns: []string{"method"}}
	header := []string{"method", "source", "backbone"}
	for _, name := range mem0Columns() {
		c, _ := st.categoryNamed(name)
		label := fmt.Sprintf("%s (cat %d)", name, c)
		from := len(t.Columns)
		for _, s := range []string{"F1", "B1", "J"} {
			t.Columns = append(t.Columns, label+" "+s)
			t.SubColumns = append(t.SubColumns, s)
			header = append(header, strings.ReplaceAll(name, "-", "_")+"_"+strings.ToLower(s))
		}
		header = append(header, strings.ReplaceAll(name, "-", "_")+"_j_sd")
		t.Groups = append(t.Groups, render.TeXGroup{Label: label, From: from, To: from + 2})
	}
	from := len(t.Columns)
	for _, s := range []string{"F1", "B1", "J"} {
		t.Columns = append(t.Columns, "overall "+s)
		t.SubColumns = append(t.SubColumns, s)
		header = append(header, "overall_"+strings.ToLower(s))
	}
	header = append(header, "overall_j_sd")
	t.Groups = append(t.Groups, render.TeXGroup{Label: "overall (" + st.overallScope() + ")", From: from, To: from + 2})
	from = len(t.Columns)
	t.Columns = append(t.Columns, "context tokens / q", "answer prompt tokens / q")
	t.SubColumns = append(t.SubColumns, "context", "prompt")
	t.Groups = append(t.Groups, render.TeXGroup{Label: "tokens / q", From: from, To: from + 1})
	from = len(t.Columns)
	t.Columns = append(t.Columns, "search s p50", "search s p95", "total s p50", "total s p95")
	t.SubColumns = append(t.SubColumns, "search p50", "search p95", "total p50", "total p95")
	t.Groups = append(t.Groups, render.TeXGroup{Label: "latency (s) / q", From: from, To: from + 3})
	header = append(header, "context_tokens_per_question", "answer_prompt_tokens_per_question", "rag_top_k", "rag_chunk_tokens",
		"search_latency_p50_s", "search_latency_p95_s", "total_latency_p50_s", "total_latency_p95_s")
	t.SubColumns = append([]string{"method"}, t.SubColumns...)
	var rows [][]string
	for _, m := range st.Opts.Methods {
		all := st.Cells[m][OverallClass]
		if all == nil {
			continue
		}
		row := []string{m}
		csv := []string{m, "this run", st.Opts.Backbone}
		add := func(c *Cell) {
			for _, v := range []Metric{c.F1, c.BLEU1, c.Judge} {
				row = append(row, point(v, 100, 2))
				csv = append(csv, render.Num(100*pointOrNaN(v)))
			}
			csv = append(csv, "") // the paper's sd over its judge runs; one run here
		}
		for _, name := range mem0Columns() {
			c, ok := st.categoryNamed(name)
			cell := st.Cells[m][strconv.Itoa(c)]
			if !ok || cell == nil {
				row = append(row, "—", "—", "—")
				csv = append(csv, "", "", "", "")
				continue
			}
			add(cell)
		}
		add(all)
		row = append(row, f1d0(all.ContextTokens), f1d0(all.AnswerTokens),
			seconds(all.SearchP50), seconds(all.SearchP95), seconds(all.TotalP50), seconds(all.TotalP95))
		csv = append(csv, render.Num(all.ContextTokens), render.Num(all.AnswerTokens), "", "",
			render.Num(all.SearchP50/1000), render.Num(all.SearchP95/1000), render.Num(all.TotalP50/1000), render.Num(all.TotalP95/1000))
		t.Rows = append(t.Rows, row)
		rows = append(rows, csv)
	}
	pub := paper.LoCoMoPublished()
	if len(pub) > 0 {
		if t.Sections == nil {
			t.Sections = map[int]string{}
		}
		t.Sections[len(t.Rows)] = "published"
		t.Breaks = append(t.Breaks, len(t.Rows))
	}
	sources := map[string][]string{}
	var order []string
	for _, p := range pub {
		row := []string{p.Label + " (published, " + p.Backbone + ")"}
		csv := []string{p.Label, p.Source, p.Backbone}
		add := func(s paper.LoCoMoScore) {
			row = append(row, pubNum(s.F1, 2), pubNum(s.B1, 2), pubJ(s))
			csv = append(csv, render.Num(s.F1), render.Num(s.B1), render.Num(s.J), render.Num(s.JSD))
		}
		for _, name := range mem0Columns() {
			s, ok := p.Categories[name]
			if !ok {
				s = paper.LoCoMoScore{F1: math.NaN(), B1: math.NaN(), J: math.NaN(), JSD: math.NaN()}
			}
			add(s)
		}
		add(p.Overall)
		ctx := pubNum(p.MemoryTokens, 0)
		k, chunk := "", render.Num(p.ChunkTokens)
		if p.TopK > 0 {
			ctx = fmt.Sprintf("%d × %s", p.TopK, pubNum(p.ChunkTokens, 0))
			k = strconv.Itoa(p.TopK)
		}
		l := p.Latency
		row = append(row, ctx, "—", pubNum(l.SearchP50, 3), pubNum(l.SearchP95, 3), pubNum(l.TotalP50, 3), pubNum(l.TotalP95, 3))
		csv = append(csv, render.Num(p.MemoryTokens), "", k, chunk,
			render.Num(l.SearchP50), render.Num(l.SearchP95), render.Num(l.TotalP50), render.Num(l.TotalP95))
		t.Rows = append(t.Rows, row)
		rows = append(rows, csv)
		if _, ok := sources[p.Source]; !ok {
			order = append(order, p.Source)
		}
		sources[p.Source] = append(sources[p.Source], p.Label+" ("+p.Backbone+")")
	}
	for _, src := range order {
		t.Notes = append(t.Notes, fmt.Sprintf("Published, from %s: %s.", src, strings.Join(sources[src], "; ")))
	}
	if len(pub) > 0 {
		t.Notes = append(t.Notes, st.publishedLoCoMoNote())
	}
	judge := "J is the LLM judge's share of answers graded correct; — where no judge ran on this run."
	if st.Opts.Judge != "" {
		judge = "J is " + st.Opts.Judge + "'s share of answers graded correct; — where it did not grade."
	}
	t.Notes = append(t.Notes,
		"Scores in percent, as the Mem0 paper prints them (F1: LoCoMo's own per-category F1; B1: BLEU-1 as mem0's evaluation computes it). The paper's columns are names; the category number under each is what the "+string(st.Opts.Names)+" table gives that name (report.category_names), so the published numbers beside ours sit under the same name, not necessarily the same number.",
		judge,
		"Context tokens / q: the tokens of the memories and conversation turns the answer prompt showed, counted by the run's token counter as our prompt lays them out (the Mem0 paper's Table 2 column: memory tokens, or the chunk size times the k chunks retrieved for RAG, counted with tiktoken's cl100k_base). Answer prompt tokens / q: the answering calls' whole prompt (instructions, context and question) as the model stack metered it. Neither counts the judge's calls or the calls that built a memory; both are over the questions of the overall column.",
		"Latency per question, in seconds at p50 and p95 (linear interpolation) over the overall column's questions: total is the answering path (the question's retrieval calls and its answering calls, as recorded with their latency; a call answered from the response cache counts 0), search the retrieval calls alone, shown as — where the method's retrieval makes no recorded call (BM25 and embeddings run in process, so their time is not measured and total is the answering calls' alone) or nothing was recorded. On the sim backbone every latency is the sim's configured one (backbone.sim.latency, 0 unless set), not a model's.",
		"The paper prints points only; every cell's interval ("+st.Clustering()+") is in metrics.csv and the first table.", st.namesNote())
	t.Caption = "LoCoMo in the layout of the Mem0 paper's tables (F1, BLEU-1, J per category; tokens and latency per question; " + st.Choices() + ")"
	return t, header, rows
}

// publishedLoCoMoNote says how the published rows' columns map to LoCoMo's
// numeric categories under each name table, and what they count.
func (st *Study) publishedLoCoMoNote() string {
	var tables []string
	for _, nt := range []scoring.NameTable{scoring.NamesLoCoMoCode, scoring.NamesMem0} {
		var parts []string
		for _, name := range mem0Columns() {
			for c := 1; c <= 5; c++ {
				if n, _ := scoring.CategoryName(nt, c); n == name {
					parts = append(parts, fmt.Sprintf("%s = %d", name, c))
				}
			}
		}
		tables = append(tables, fmt.Sprintf("under the %s table %s", nt, strings.Join(parts, ", ")))
	}
	return "The published rows are keyed by the column names their source prints (single-hop, multi-hop, open-domain, temporal), which stand for LoCoMo's numeric categories " +
		strings.Join(tables, "; ") + " (mem0 #2609 gives the mem0 table for the Mem0 paper's columns). " +
		"Their sources leave the adversarial category out, and their J is the mean of ten judge runs (± one standard deviation as printed). " +
		"The Mem0 paper's Table 1 prints no overall F1 or B1, and its Table 2 (overall J, tokens, latency) has no per-category numbers: — where the paper prints none. " +
		"Its Table 2 row \"A-Mem\" is kept apart from Table 1's \"A-Mem\" (the A-Mem paper's numbers) and \"A-Mem*\" (the Mem0 authors' re-run), as the paper does not say which it is."
}

// pubNum is a published number as the source prints it, "—" where it
// prints none.
func pubNum(v float64, decimals int) string {
	if math.IsNaN(v) {
		return "—"
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// pubJ is a published J with the standard deviation printed beside it.
func pubJ(s paper.LoCoMoScore) string {
	if math.IsNaN(s.JSD) || math.IsNaN(s.J) {
		return pubNum(s.J, 2)
	}
	return pubNum(s.J, 2) + " ± " + pubNum(s.JSD, 2)
}

// seconds is a latency in ms as seconds with the paper's three decimals,
// "—" when not recorded.
func seconds(ms float64) string {
	if math.IsNaN(ms) {
		return "—"
	}
	return strconv.FormatFloat(ms/1000, 'f', 3, 64)
}

func pointOrNaN(m Metric) float64 {
	if m.Items == 0 {
		return math.NaN()
	}
	return m.Point
}

// perTypeTable is LongMemEval's accuracy per question type, in percent
// with intervals, as its evaluation prints it per type, with the context
// tokens and latency per question; the published rows follow, each with
// its paper, table, dataset and backbone.
func (st *Study) perTypeTable() (render.Table, []string, [][]string) {
	t := render.Table{Title: st.title("accuracy per question type"), Columns: []string{"method"}}
	header := []string{"method", "source", "backbone", "field", "accuracy", "unit", "ci_low", "ci_high", "n"}
	for _, c := range st.Classes {
		t.Columns = append(t.Columns, st.ClassLabel(c))
	}
	t.Columns = append(t.Columns, "context tokens / q", "answer prompt tokens / q", "total latency s p50")
	var rows [][]string
	for _, m := range st.Opts.Methods {
		row := []string{m}
		for _, c := range st.Classes {
			cell := st.Cells[m][c]
			if cell == nil {
				row = append(row, "—")
				continue
			}
			row = append(row, ciCell(cell.Judge, 100, 1))
			if cell.Judge.Items > 0 {
				field := c
				if c == OverallClass {
					field = "all"
				}
				rows = append(rows, []string{m, "this run", st.Opts.Backbone, field, render.Num(100 * cell.Judge.Point), render.UnitPercent,
					render.Num(100 * cell.Judge.Lo), render.Num(100 * cell.Judge.Hi), strconv.Itoa(cell.Judge.Items)})
			}
		}
		if all := st.Cells[m][OverallClass]; all != nil {
			row = append(row, f1d0(all.ContextTokens), f1d0(all.AnswerTokens), seconds(all.TotalP50))
		} else {
			row = append(row, "—", "—", "—")
		}
		t.Rows = append(t.Rows, row)
	}
	pub := paper.LongMemEvalPublished()
	if len(pub) > 0 {
		t.Sections = map[int]string{len(t.Rows): "published"}
		t.Breaks = append(t.Breaks, len(t.Rows))
	}
	sources := map[string][]string{}
	var order []string
	for _, p := range pub {
		row := []string{p.Label + " (published, " + p.Backbone + ")"}
		for _, c := range st.Classes {
			v, ok := p.Types[c]
			switch {
			case c == OverallClass:
				v, ok = p.Overall, true
			case c == dmemqa.Abstention && !p.AbstentionApart:
				ok = false
			}
			if !ok || math.IsNaN(v) {
				row = append(row, "—")
				continue
			}
			row = append(row, pubNum(v, 1))
			field := c
			if c == OverallClass {
				field = "all"
			}
			rows = append(rows, []string{p.Label, p.Source, p.Backbone, field, render.Num(v), render.UnitPercent, "", "", ""})
		}
		row = append(row, orDash(p.Context), "—", orDash(p.Latency))
		t.Rows = append(t.Rows, row)
		if _, ok := sources[p.Source]; !ok {
			order = append(order, p.Source)
		}
		sources[p.Source] = append(sources[p.Source], fmt.Sprintf("%s (%s on %s, graded by %s)", p.Label, p.Backbone, p.Dataset, p.Judge))
	}
	t.Notes = append(t.Notes, "Accuracy in percent: the judge's share of answers graded correct, per question type as LongMemEval's evaluation prints it.")
	for _, src := range order {
		t.Notes = append(t.Notes, fmt.Sprintf("Published, from %s: %s.", src, strings.Join(sources[src], "; ")))
	}
	if len(pub) > 0 {
		t.Notes = append(t.Notes, "The published rows print the six question types and no abstention class (LongMemEval's data labels each abstention question, question_id ending in _abs, with one of the six types); ours put the abstention questions in a class of their own, so a published type column and ours may not cover the same questions. Published context tokens and latency are the source's \"Avg Context Tokens\" and \"Latency\" (its IQR in brackets) as printed; the source does not name the latency's statistic. The LongMemEval paper (arXiv 2410.10813) shows its per-type results in figures only, so none of its numbers is set here.")
	}
	t.Notes = append(t.Notes, "Context tokens / q: the tokens of the memories and turns the answer prompt showed (run's token counter); answer prompt tokens / q: the answering calls' whole prompt as metered, never the judge's or a memory's construction calls; total latency: p50 over the questions of the answering path's recorded calls (retrieval and answer; on the sim backbone the sim's configured latency, backbone.sim.latency, 0 unless set).")
	t.Caption = "LongMemEval accuracy per question type (" + st.Choices() + ")"
	return t, header, rows
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// clusterWarning is the caveat of intervals drawn from too few clusters
// (the fewest any overall cell had), empty when none is too few.
func (st *Study) clusterWarning() string {
	fewest := 0
	for _, m := range st.Opts.Methods {
		if c := st.Cells[m][OverallClass]; c != nil {
			for _, iv := range []Metric{c.F1, c.Judge} {
				if iv.Items > 0 && (fewest == 0 || iv.Clusters < fewest) {
					fewest = iv.Clusters
				}
			}
		}
	}
	if st.Opts.Iters < 1 || fewest == 0 || fewest >= metrics.MinClusters {
		return ""
	}
	return fmt.Sprintf("Only %d clusters: an interval resampled from fewer than %d is coarse and not to be trusted (LoCoMo itself has ten conversations).", fewest, metrics.MinClusters)
}

// f1d0 is a count per question rounded to a whole number, "—" when
// undefined.
func f1d0(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}
