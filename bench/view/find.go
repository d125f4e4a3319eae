package view

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/runrecord"
)

// sortKeys are the sample-list columns that sort, by their query name.
var sortKeys = []string{"id", "method", "user", "field", "label", "answer", "outcome", "tokens", "latency", "cached"}

// query is a search of the sample list: q lowered, and the files a sample's
// answer and prompt are read from opened once for the whole search (each is
// read only when what came before missed).
type query struct {
	q       string
	samples *os.File
	prompts io.ReaderAt
}

func (ri *runIndex) newQuery(q string) (*query, func()) {
	if q == "" {
		return nil, func() {}
	}
	qq := &query{q: strings.ToLower(q)}
	var files []*os.File
	if f, err := openFile(ri.dir, filepath.Join(ri.dir, runrecord.SamplesFile)); err == nil {
		qq.samples, files = f, append(files, f)
	}
	ri.prompt("") // index the prompts of a run that kept prompts.jsonl
	if len(ri.prompts) > 0 {
		if f, err := openFile(ri.dir, filepath.Join(ri.dir, runrecord.PromptsFile)); err == nil {
			qq.prompts, files = f, append(files, f)
		}
	}
	return qq, func() {
		for _, f := range files {
			f.Close()
		}
	}
}

// matches reports whether sample i's ID, answer or prompt contains the
// query (case-insensitive); a nil query matches everything. unread is set
// when the sample's prompt could not be read.
func (ri *runIndex) matches(i int, q *query) (ok, unread bool) {
	if q == nil {
		return true, false
	}
	s := &ri.samples[i]
	texts := []string{s.ID, s.Pred}
	if q.samples != nil {
		if full, err := runrecord.ReadSampleAt(q.samples, ri.spans[i]); err == nil {
			texts = append(texts, full.Raw)
		}
	}
	for _, t := range texts {
		if strings.Contains(strings.ToLower(t), q.q) {
			return true, false
		}
	}
	var p string
	var err error
	if sp, ok := ri.prompts[s.ID]; ok && q.prompts != nil {
		p, err = runrecord.ReadPrompt(q.prompts, sp)
	} else if len(ri.prompts) == 0 {
		p, err = ri.recordedPrompt(s.ID)
	}
	return strings.Contains(strings.ToLower(p), q.q), err != nil
}

// sortSamples orders idx by the column key (log order breaks ties, so a
// sort is stable across pages); an unknown key keeps log order.
func (ri *runIndex) sortSamples(idx []int, key string, desc bool) {
	if !slices.Contains(sortKeys, key) {
		return
	}
	val := func(i int) (string, float64) {
		s := &ri.samples[i]
		switch key {
		case "id":
			return s.ID, 0
		case "method":
			return s.Method, 0
		case "user":
			return s.User, 0
		case "field":
			return s.Field, 0
		case "label":
			return s.Label, 0
		case "answer":
			return s.Pred, 0
		case "outcome":
			return outcomeOf(s), 0
		case "tokens":
			return "", float64(s.PromptTokens + s.CompletionTokens)
		case "latency":
			return "", s.LatencyMS
		}
		return "", float64(s.CachedCalls)
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		sa, fa := val(a)
		sb, fb := val(b)
		c := cmp.Compare(fa, fb)
		if sa != sb {
			c = -1
			if naturalLess(sb, sa) {
				c = 1
			}
		}
		if desc {
			c = -c
		}
		return cmp.Or(c, cmp.Compare(a, b))
	})
}

// SortLink is a column head of the sample list: its link sorts by the
// column, and again the other way round when the list is sorted by it.
type SortLink struct {
	Label, Key, URL string
	Arrow           string // "▲" or "▼" on the sorted column
}

func sortLinks(f Filter, l links) []SortLink {
	labels := map[string]string{"id": "sample", "cached": "cached/calls"}
	var out []SortLink
	for _, k := range sortKeys {
		nf := f
		nf.Sort, nf.Desc = k, false
		sl := SortLink{Label: orDefault(labels[k], k), Key: k}
		if f.Sort == k {
			nf.Desc = !f.Desc
			sl.Arrow = "▲"
			if f.Desc {
				sl.Arrow = "▼"
			}
		}
		sl.URL = l.samples(nf, 1)
		out = append(out, sl)
	}
	return out
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// labelText writes a label or answer in the data's own terms: binary
// fields store 1/0, which the prompts ask as Yes/No.
func labelText(kind, v string) string {
	if kind != "binary" {
		return v
	}
	switch v {
	case "1":
		return "Yes"
	case "0":
		return "No"
	}
	return v
}

// instanceOf is a sample's instance: its ID without the "<method>/" prefix,
// the same for every method that answered the question.
func instanceOf(s *runrecord.Sample) string {
	return strings.TrimPrefix(s.ID, s.Method+"/")
}

// InstanceData is one instance answered by every method, side by side.
type InstanceData struct {
	Instance string
	User     string
	Field    string
	Label    string
	Methods  []SampleData
}

func instanceData(ri *runIndex, inst string, l links) (InstanceData, error) {
	d := InstanceData{Instance: inst}
	for _, m := range ri.methods {
		i, ok := ri.lookup(m + "/" + inst)
		if !ok {
			continue
		}
		sd, err := sampleData(ri, ri.samples[i].ID, 0)
		if err != nil {
			return d, err
		}
		sd.SamplesURL = l.sample(sd.ID, i)
		d.Methods = append(d.Methods, sd)
		d.User, d.Field, d.Label = sd.User, sd.Field, sd.LabelText
	}
	if len(d.Methods) == 0 {
		return d, fmt.Errorf("no instance %q", inst)
	}
	return d, nil
}

// RunStatus is a run's state and headline score on the front page.
type RunStatus struct {
	State    string // "finished", "running or stopped", "errors"
	Headline string // e.g. "pramem: Overall F1 11.50"
}

// runStatus reads the state from the manifest and the headline metric from
// the report's CSVs, without loading the samples.
func runStatus(dir string, m runrecord.Manifest) RunStatus {
	st := RunStatus{State: "running or stopped"}
	if m.Finished != nil {
		st.State = "finished"
		if m.Errored > 0 {
			st.State = fmt.Sprintf("finished, %d errored", m.Errored)
		}
	}
	st.Headline = headline(filepath.Join(dir, "report"))
	return st
}

// headline is the best method's headline metric from the report: Table 1's
// Overall F1, LifeMem's average OP, or metrics.csv's accuracy over all
// samples (invalid answers count as wrong).
func headline(report string) string {
	best := func(path, metricCol, metricWant, valueCol, methodCol, what string, filter map[string]string) string {
		rows, err := readCSV(path)
		if err != nil || len(rows) < 2 {
			return ""
		}
		col := func(name string) int { return slices.Index(rows[0], name) }
		mi, vi := col(methodCol), col(valueCol)
		if mi < 0 || vi < 0 {
			return ""
		}
		top, name := math.Inf(-1), ""
		for _, r := range rows[1:] {
			ok := metricCol == "" || col(metricCol) >= 0 && r[col(metricCol)] == metricWant
			for k, v := range filter {
				ok = ok && col(k) >= 0 && r[col(k)] == v
			}
			if !ok {
				continue
			}
			if v, err := strconv.ParseFloat(r[vi], 64); err == nil && v > top {
				top, name = v, r[mi]
			}
		}
		if name == "" {
			return ""
		}
		return fmt.Sprintf("best %s %.2f (%s)", what, top, name)
	}
	if h := best(filepath.Join(report, "table1.csv"), "metric", "f1", "value", "method", "Overall F1", map[string]string{"scene": "overall"}); h != "" {
		return h
	}
	if h := best(filepath.Join(report, "lifemem_table2.csv"), "category", "Avg", "value", "method", "average OP", map[string]string{"metric": "op"}); h != "" {
		return h
	}
	return best(filepath.Join(report, "metrics.csv"), "metric", "accuracy_all", "value", "method", "accuracy", nil)
}

func readCSV(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rows = append(rows, strings.Split(sc.Text(), ","))
	}
	return rows, sc.Err()
}

// plannedText is the home page's sample count: a lifelong run plans
// episodes, not samples, so it says so instead of "0".
func plannedText(dir string, m runrecord.Manifest) string {
	if m.Samples > 0 {
		return strconv.Itoa(m.Samples)
	}
	if _, err := os.Stat(filepath.Join(dir, lifelong.Dir, "run.json")); err == nil {
		return "lifelong episodes (no samples)"
	}
	return "0"
}

// serveScript serves the viewer's one script file.
func serveScript(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	io.WriteString(w, asset("filter.js"))
}
