package view

import (
	"context"
	"embed"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/runrecord"
)

// PageSize is how many samples one list page shows.
const PageSize = 100

//go:embed assets
var assets embed.FS

// pages parses the page templates at first use: every bench command links
// this package, and parsing them at start-up cost each one about 0.4 MB.
var pages = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").Funcs(template.FuncMap{
		"inc": func(i int) int { return i + 1 },
		"ms":  func(v float64) string { return fmt.Sprintf("%.0f ms", v) },
	}).ParseFS(assets, "assets/*.tmpl"))
})

func asset(name string) string {
	b, err := assets.ReadFile("assets/" + name)
	if err != nil {
		panic(err) // embedded at build time
	}
	return string(b)
}

// Link is a labelled URL.
type Link struct {
	Label, URL string
	Current    bool
}

// Nav is the bar on top of every page of a run.
type Nav struct {
	Home, Run, Samples, Memory, Transcripts string
	RunName                                 string
}

// Page is what every template gets: the title, the navigation and the
// page's own data.
type Page struct {
	Title  string
	Nav    Nav
	Static bool
	Style  template.CSS
	// ScriptURL is the page's script, a served or written file: pages carry
	// no inline script, so a strict Content-Security-Policy holds.
	ScriptURL string
	Data      any
}

// ScriptName is the viewer's script: served at /static/viewer.js, written
// beside the static pages.
const ScriptName = "viewer.js"

func render(w io.Writer, name string, p Page) error {
	p.Style = template.CSS(asset("style.css"))
	if p.ScriptURL == "" {
		p.ScriptURL = "/static/" + ScriptName
	}
	return pages().ExecuteTemplate(w, name, p)
}

func navOf(ri *runIndex, name string, l links) Nav {
	n := Nav{Home: l.home(), Run: l.run(), RunName: name}
	if len(ri.samples) > 0 {
		n.Samples = l.samples(Filter{}, 1)
	}
	perUser, ll := memoryMethods(ri.dir)
	switch {
	case len(perUser) > 0:
		n.Memory = l.memory(perUser[0], firstOf(memoryUsers(ri.dir, perUser[0])))
	case len(ll) > 0:
		n.Memory = l.lifelong(ll[0])
	}
	for _, m := range ll {
		if st := transcriptStages(ri.dir, m); len(st) > 0 {
			n.Transcripts = l.transcripts(m, st[0])
			break
		}
	}
	return n
}

func firstOf(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// MethodCount is one method's sample outcomes.
type MethodCount struct {
	Method                                 string
	URL                                    string
	Samples, Correct, Wrong, Invalid, Errs int
}

// RunData is the overview of a run.
type RunData struct {
	Manifest, Config, Usage string
	Warnings                []string
	Tables                  []Link
	Figures                 []Link
	Methods                 []MethodCount
	Memory, Lifelong        []Link
	Transcripts             []Link
	PromptsKept             bool
}

func runData(ri *runIndex, l links) (RunData, error) {
	d := RunData{Warnings: ri.manifest.DataWarnings}
	b, err := readFile(ri.dir, filepath.Join(ri.dir, runrecord.ManifestFile))
	if err != nil {
		return d, err
	}
	d.Manifest = clip(prettyJSON(b))
	if d.Config, err = readText(ri.dir, filepath.Join(ri.dir, "config.yaml")); err != nil {
		return d, err
	}
	if u, err := readFile(ri.dir, filepath.Join(ri.dir, runrecord.UsageFile)); err == nil {
		d.Usage = clip(prettyJSON(u))
	}
	tables, figures := reportFiles(ri.dir)
	for _, t := range tables {
		d.Tables = append(d.Tables, Link{Label: t, URL: l.table(t)})
	}
	for _, f := range figures {
		d.Figures = append(d.Figures, Link{Label: f, URL: l.file(f)})
	}
	counts := map[string]*MethodCount{}
	for _, m := range ri.methods {
		counts[m] = &MethodCount{Method: m, URL: l.samples(Filter{Method: m}, 1)}
		d.Methods = append(d.Methods, MethodCount{})
	}
	for i := range ri.samples {
		s := &ri.samples[i]
		c := counts[s.Method]
		c.Samples++
		switch outcomeOf(s) {
		case "correct":
			c.Correct++
		case "wrong":
			c.Wrong++
		case "invalid":
			c.Invalid++
		case "error":
			c.Errs++
		}
	}
	for i, m := range ri.methods {
		d.Methods[i] = *counts[m]
	}
	perUser, ll := memoryMethods(ri.dir)
	for _, m := range perUser {
		d.Memory = append(d.Memory, Link{Label: m, URL: l.memory(m, firstOf(memoryUsers(ri.dir, m)))})
	}
	for _, m := range ll {
		d.Lifelong = append(d.Lifelong, Link{Label: m, URL: l.lifelong(m)})
		if st := transcriptStages(ri.dir, m); len(st) > 0 {
			d.Transcripts = append(d.Transcripts, Link{Label: m, URL: l.transcripts(m, st[0])})
		}
	}
	for _, name := range []string{runrecord.ChunksFile, runrecord.PromptsFile} {
		if _, err := statFile(ri.dir, filepath.Join(ri.dir, name)); err == nil {
			d.PromptsKept = true
		}
	}
	return d, nil
}

// TableData is one report table rendered from its Markdown.
type TableData struct {
	Name   string
	HTML   template.HTML
	Tables []Link
}

func tableData(ri *runIndex, name string, l links) (TableData, error) {
	if name != filepath.Base(name) || !strings.HasSuffix(name, ".md") {
		return TableData{}, fmt.Errorf("no table %q", name)
	}
	src, err := readFile(ri.dir, filepath.Join(ri.dir, "report", name))
	if err != nil {
		return TableData{}, err
	}
	d := TableData{Name: name, HTML: markdown(string(src), reportResolver(ri.dir, l))}
	tables, _ := reportFiles(ri.dir)
	for _, t := range tables {
		d.Tables = append(d.Tables, Link{Label: t, URL: l.table(t), Current: t == name})
	}
	return d, nil
}

// reportResolver links Markdown targets inside report/: tables to their
// page, images to the file; anything else is left as text.
func reportResolver(dir string, l links) func(string, bool) string {
	return func(target string, image bool) string {
		if strings.Contains(target, "/") || strings.Contains(target, `\`) || strings.Contains(target, ":") {
			return ""
		}
		if _, err := statFile(dir, filepath.Join(dir, "report", target)); err != nil {
			return ""
		}
		if image || !strings.HasSuffix(target, ".md") {
			return l.file(target)
		}
		return l.table(target)
	}
}

// Row is one line of the sample list.
type Row struct {
	Idx                                    int
	ID, URL, InstanceURL                   string
	Method, User, Field, Label, Pred, Outc string
	Tokens                                 int
	Latency                                float64
	Cached                                 string
	// Detail is set on static pages: the sample shown inline.
	Detail *SampleData
}

// SamplesData is one page of the filtered sample list.
type SamplesData struct {
	Filter                  Filter
	Methods, Users, Fields  []string
	Outcomes                []string
	Rows                    []Row
	Total, Page, Pages      int
	First, Prev, Next, Last string
	MethodPages             []Link // static: one list per method
	Action, Run             string
	Columns                 []SortLink
	Search                  Search
}

var outcomes = []string{"correct", "wrong", "invalid", "error"}

func samplesData(ri *runIndex, f Filter, page int, l links, withDetail bool) (SamplesData, error) {
	return samplesDataCtx(context.Background(), ri, f, page, l, withDetail)
}

// samplesDataCtx is samplesData whose search stops when ctx ends.
func samplesDataCtx(ctx context.Context, ri *runIndex, f Filter, page int, l links, withDetail bool) (SamplesData, error) {
	idx, srch := ri.match(ctx, f)
	d := SamplesData{Filter: f, Methods: ri.methods, Users: ri.users, Fields: ri.fields, Outcomes: outcomes,
		Total: len(idx), Action: "/samples", Columns: sortLinks(f, l), Search: srch}
	d.Pages = max(1, (len(idx)+PageSize-1)/PageSize)
	d.Page = min(max(page, 1), d.Pages)
	lo, hi := (d.Page-1)*PageSize, min(d.Page*PageSize, len(idx))
	for _, i := range idx[lo:hi] {
		s := &ri.samples[i]
		r := Row{Idx: i, ID: s.ID, URL: l.sample(s.ID, i), InstanceURL: l.instance(instanceOf(s)), Method: s.Method, User: s.User, Field: s.Field,
			Label: labelText(s.Kind, s.Label), Pred: labelText(s.Kind, s.Pred), Outc: outcomeOf(s), Tokens: s.PromptTokens + s.CompletionTokens,
			Latency: s.LatencyMS, Cached: fmt.Sprintf("%d/%d", s.CachedCalls, s.Calls)}
		if withDetail {
			sd, err := sampleData(ri, s.ID, staticPromptLimit)
			if err != nil {
				return d, err
			}
			sd.InstanceURL = r.InstanceURL
			r.Detail = &sd
		}
		d.Rows = append(d.Rows, r)
	}
	d.First, d.Last = l.samples(f, 1), l.samples(f, d.Pages)
	if d.Page > 1 {
		d.Prev = l.samples(f, d.Page-1)
	}
	if d.Page < d.Pages {
		d.Next = l.samples(f, d.Page+1)
	}
	if l.static() {
		d.MethodPages = append(d.MethodPages, Link{Label: "all methods", URL: l.samples(Filter{}, 1), Current: f.Method == ""})
		for _, m := range ri.methods {
			d.MethodPages = append(d.MethodPages, Link{Label: m, URL: l.samples(Filter{Method: m}, 1), Current: f.Method == m})
		}
	}
	return d, nil
}

// staticPromptLimit caps (in bytes) a prompt shown inline on a static list
// page, which keeps a static report of a large run small; the server shows
// prompts whole.
const staticPromptLimit = 3000

// SampleData is one sample in full.
type SampleData struct {
	runrecord.Sample
	Outcome        string
	Prompt         string
	PromptKept     bool
	PromptCut      int // characters not shown
	Tokens         int
	SamplesURL     string
	MemoryURL      string
	PromptFileNote string
	// PromptError says why a prompt the run kept cannot be read back (a
	// damaged call record); the rest of the page stands.
	PromptError string
	// LabelText and PredText are the label and answer in the data's terms
	// (Yes/No for binary fields).
	LabelText, PredText string
	// Draws are every model draw of the answer, rejected ones first.
	Draws       []Draw
	InstanceURL string
	// CallsURL lists the sample's recorded model calls (server only).
	CallsURL string
}

func sampleData(ri *runIndex, id string, limit int) (SampleData, error) {
	i, ok := ri.lookup(id)
	if !ok {
		return SampleData{}, fmt.Errorf("no sample %q", id)
	}
	s, err := ri.full(i)
	if err != nil {
		return SampleData{}, err
	}
	d := SampleData{Sample: s, Outcome: outcomeOf(&s), Tokens: s.PromptTokens + s.CompletionTokens,
		LabelText: labelText(s.Kind, s.Label), PredText: labelText(s.Kind, s.Pred), Draws: ri.draws(&s)}
	p, err := ri.prompt(id)
	if err != nil {
		d.PromptError = err.Error()
	}
	d.Prompt, d.PromptKept = p, p != ""
	if limit > 0 && len(d.Prompt) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(d.Prompt[cut]) {
			cut-- // never split a character
		}
		d.PromptCut = utf8.RuneCountInString(d.Prompt[cut:])
		d.Prompt = d.Prompt[:cut]
	}
	return d, nil
}

// TranscriptsData is one stage of one lifelong method, every episode step
// by step.
type TranscriptsData struct {
	Method, Stage string
	Methods       []Link
	Stages        []Link
	Envs          []EnvEpisodes
}

func transcriptsData(ri *runIndex, method, stage string, l links) (TranscriptsData, error) {
	d := TranscriptsData{Method: method, Stage: stage}
	_, ll := memoryMethods(ri.dir)
	for _, m := range ll {
		if st := transcriptStages(ri.dir, m); len(st) > 0 {
			d.Methods = append(d.Methods, Link{Label: m, URL: l.transcripts(m, st[0]), Current: m == method})
		}
	}
	for _, s := range transcriptStages(ri.dir, method) {
		d.Stages = append(d.Stages, Link{Label: s, URL: l.transcripts(method, s), Current: s == stage})
	}
	if strings.ContainsAny(method+stage, `/\`) || method == ".." || stage == ".." {
		return d, fmt.Errorf("no stage %q of %q", stage, method)
	}
	var calls cellCalls
	var url func(env, task string, occ, step int) string
	if !ri.static {
		calls = func(env string) (stepCalls, error) { return ri.stepCallsOf(method, stage, env) }
		if sl, ok := l.(serverLinks); ok {
			url = func(env, task string, occ, step int) string {
				return sl.stepInput(method, stage, env, task, occ, step)
			}
		}
	}
	envs, err := loadStage(ri.dir, method, stage, calls, url)
	d.Envs = envs
	return d, err
}

// MemoryData is the memory of one method for one user.
type MemoryData struct {
	Methods, Users []Link
	Memory         MemoryPage
	// CallsURL lists the user's construction calls (server only).
	CallsURL string
}

func memoryData(ri *runIndex, method, user string, l links) (MemoryData, error) {
	var d MemoryData
	perUser, _ := memoryMethods(ri.dir)
	for _, m := range perUser {
		d.Methods = append(d.Methods, Link{Label: m, URL: l.memory(m, user), Current: m == method})
	}
	users := memoryUsers(ri.dir, method)
	// The method must be one of the run's memory folders; the user may be
	// any ID (its file name is encoded, so it never leaves the folder).
	if !slices.Contains(perUser, method) {
		return d, fmt.Errorf("no memory %q/%q", method, user)
	}
	if user == "" {
		// A link to a method's memories without a user shows the first.
		if len(users) == 0 {
			return d, fmt.Errorf("no user has a memory of %q yet", method)
		}
		user = users[0]
	}
	for _, u := range users {
		d.Users = append(d.Users, Link{Label: u, URL: l.memory(method, u), Current: u == user})
	}
	kind := methodKind(ri.manifest, method)
	var show predict.Inspector
	if e, err := ri.kinds.Lookup(kind); err == nil {
		show = e.Memory
	}
	m, err := loadMemory(ri.dir, method, user, kind, show)
	d.Memory = m
	return d, err
}

// LifelongData is the memory one agent method built over the stream.
type LifelongData struct {
	Methods []Link
	Memory  LifelongMemory
}

func lifelongData(ctx context.Context, ri *runIndex, method string, l links) (LifelongData, error) {
	var d LifelongData
	_, ll := memoryMethods(ri.dir)
	for _, m := range ll {
		d.Methods = append(d.Methods, Link{Label: m, URL: l.lifelong(m), Current: m == method})
	}
	if strings.ContainsAny(method, `/\`) || method == ".." {
		return d, fmt.Errorf("no method %q", method)
	}
	m, err := loadLifelongMemory(ctx, ri.dir, method)
	d.Memory = m
	return d, err
}
