package view

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/memharness/memharness/methods/registry"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// Entry is a run or a sweep found under the root, by its path relative to
// the root ("." when the root itself is a run).
type Entry struct {
	Rel   string
	Sweep bool
}

// discover walks root (at most five levels deep) for run directories
// (manifest.json) and sweeps (sweep.md), in natural path order.
func discover(root string) ([]Entry, error) {
	var out []Entry
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if strings.Count(rel, string(filepath.Separator)) >= 5 || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			// Inside a run only its own folders live; they hold no runs.
			switch d.Name() {
			case "report", "memory", "checkpoints", "lifelong":
				return filepath.SkipDir
			}
			return nil
		}
		switch d.Name() {
		case runrecord.ManifestFile:
			out = append(out, Entry{Rel: filepath.ToSlash(filepath.Dir(rel))})
		case "sweep.md":
			out = append(out, Entry{Rel: filepath.ToSlash(filepath.Dir(rel)), Sweep: true})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("view: scan %s: %w", root, err)
	}
	sort.SliceStable(out, func(i, j int) bool { return naturalLess(out[i].Rel, out[j].Rel) })
	return out, nil
}

// runIndex is one run's data, loaded once and shared by every request.
// Its samples come from the run's sample index (runrecord.SampleIndex): each
// holds the fields the list shows, filters and sorts by; a sample shown in
// full is read from its line (full).
type runIndex struct {
	dir string
	// kinds are the prediction method kinds whose entries say how to show
	// their memories.
	kinds    *registry.Registry
	manifest runrecord.Manifest
	samples  []runrecord.Sample
	spans    []runrecord.Span
	byIDOnce sync.Once
	byID     map[string]int // built at first lookup: the list needs none
	methods  []string
	users    []string
	fields   []string

	// prompts indexes prompts.jsonl, which runs from before the call
	// record kept; newer runs read a prompt from the call record.
	promptOnce sync.Once
	prompts    map[string]runrecord.Span
	promptErr  error

	// static is set while a static report is written: it reads the
	// redrawn samples' draws in one pass (the server reads one sample's
	// when its page is asked for) and leaves the agent steps' recorded
	// inputs out (every cell's calls would make a report of a long stream
	// take minutes and hundreds of megabytes).
	static    bool
	drawOnce  sync.Once
	drawCalls map[string][]runstore.Call // by unit
	drawErr   error

	callOnce sync.Once
	calls    *runstore.CallRecord
	units    map[string][]runrecord.Span
	callErr  error
	cells    cellCache // lifelong cells' agent calls by step
}

func loadRun(dir string, kinds *registry.Registry) (*runIndex, error) {
	if _, err := statFile(dir, filepath.Join(dir, runrecord.ManifestFile)); err != nil {
		return nil, err
	}
	man, err := runrecord.ReadManifest(filepath.Join(dir, runrecord.ManifestFile))
	if err != nil {
		return nil, err
	}
	if kinds == nil {
		kinds = registry.Default()
	}
	ri := &runIndex{dir: dir, manifest: man, kinds: kinds}
	x, err := sampleIndex(dir, man)
	if err != nil {
		return nil, err
	}
	ri.samples, ri.spans = make([]runrecord.Sample, x.Count()), make([]runrecord.Span, x.Count())
	seen := [3]map[string]bool{{}, {}, {}}
	for i := range ri.samples {
		ri.samples[i], ri.spans[i] = x.Lite(i), x.Span(i)
		s := &ri.samples[i]
		for k, v := range [3]string{s.Method, s.User, s.Field} {
			if !seen[k][v] {
				seen[k][v] = true
				switch k {
				case 0:
					ri.methods = append(ri.methods, v)
				case 1:
					ri.users = append(ri.users, v)
				case 2:
					ri.fields = append(ri.fields, v)
				}
			}
		}
	}
	sort.SliceStable(ri.users, func(i, j int) bool { return naturalLess(ri.users[i], ri.users[j]) })
	sort.SliceStable(ri.fields, func(i, j int) bool { return naturalLess(ri.fields[i], ri.fields[j]) })
	return ri, nil
}

// sampleIndex is the run's sample index: the one on disk when it matches
// samples.jsonl, else one built from it, which is kept on disk for the
// next viewer when the run has finished (a running run's samples change;
// a folder the viewer may not write keeps none).
func sampleIndex(dir string, man runrecord.Manifest) (*runrecord.SampleIndex, error) {
	if _, err := statFile(dir, filepath.Join(dir, runrecord.SamplesFile)); errors.Is(err, fs.ErrNotExist) {
		return &runrecord.SampleIndex{}, nil
	} else if err != nil {
		return nil, err
	}
	if _, err := statFile(dir, filepath.Join(dir, runrecord.SampleIndexFile)); err == nil || errors.Is(err, fs.ErrNotExist) {
		if x, err := runrecord.LoadSampleIndex(dir); err == nil {
			return x, nil
		}
	}
	x, err := runrecord.BuildSampleIndex(dir)
	if err != nil {
		return nil, err
	}
	if man.Finished != nil {
		_ = runrecord.WriteSampleIndex(dir, x) // a cache: without it the next open rebuilds
	}
	return x, nil
}

// lookup returns the position of sample id.
func (ri *runIndex) lookup(id string) (int, bool) {
	ri.byIDOnce.Do(func() {
		ri.byID = make(map[string]int, len(ri.samples))
		for i := range ri.samples {
			ri.byID[ri.samples[i].ID] = i
		}
	})
	i, ok := ri.byID[id]
	return i, ok
}

// full reads sample i's whole record (Raw, Error and all).
func (ri *runIndex) full(i int) (runrecord.Sample, error) {
	f, err := openFile(ri.dir, filepath.Join(ri.dir, runrecord.SamplesFile))
	if err != nil {
		return runrecord.Sample{}, err
	}
	defer f.Close()
	s, err := runrecord.ReadSampleAt(f, ri.spans[i])
	if err == nil && s.ID != ri.samples[i].ID {
		err = fmt.Errorf("samples.jsonl changed while the viewer ran: reload it (sample %d is %q, not %q)", i, s.ID, ri.samples[i].ID)
	}
	return s, err
}

// prompt returns the prompt sample id sent, or "" when the run did not
// keep it: from prompts.jsonl in runs that have one, else from the call
// record (runstore.SamplePrompt).
func (ri *runIndex) prompt(id string) (string, error) {
	ri.promptOnce.Do(func() {
		path := filepath.Join(ri.dir, runrecord.PromptsFile)
		if _, err := statFile(ri.dir, path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			ri.promptErr = err
			return
		}
		ri.prompts, ri.promptErr = runrecord.IndexPrompts(path)
	})
	if ri.promptErr != nil {
		return "", ri.promptErr
	}
	sp, ok := ri.prompts[id]
	if !ok {
		return ri.recordedPrompt(id)
	}
	f, err := openFile(ri.dir, filepath.Join(ri.dir, runrecord.PromptsFile))
	if err != nil {
		return "", err
	}
	defer f.Close()
	return runrecord.ReadPrompt(f, sp)
}

// recordedPrompt is sample id's prompt from the call record.
func (ri *runIndex) recordedPrompt(id string) (string, error) {
	calls, err := ri.callsOf(runstore.SampleUnit(id))
	if err != nil {
		return "", err
	}
	p, ok := runstore.SamplePrompt(calls)
	if !ok {
		for _, c := range calls {
			if c.Lost != "" {
				return "", errors.New(c.Lost)
			}
		}
	}
	return p, nil
}

// callsOf reads one unit's calls through the run's call record, opened
// and indexed by unit at first use.
func (ri *runIndex) callsOf(unit string) ([]runstore.Call, error) {
	ri.callOnce.Do(func() {
		for _, name := range []string{runstore.UsageJournal, runrecord.ChunksFile} {
			if _, err := statFile(ri.dir, filepath.Join(ri.dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				ri.callErr = err
				return
			}
		}
		if ri.calls, ri.callErr = runstore.OpenCallsWithin(ri.dir); ri.callErr == nil {
			ri.units, ri.callErr = ri.calls.IndexUnits()
		}
	})
	if ri.callErr != nil {
		return nil, ri.callErr
	}
	spans, ok := ri.units[unit]
	if !ok {
		return nil, nil
	}
	return ri.calls.OfLines(spans)
}

// Filter selects samples; empty fields match everything.
type Filter struct {
	Method, User, Field, Outcome string
	// Q is a case-insensitive substring of the sample ID, answer or prompt.
	Q string
	// Sort names a column (sortKeys); Desc reverses it.
	Sort string
	Desc bool
}

// outcomeOf classifies a sample for the outcome filter.
func outcomeOf(s *runrecord.Sample) string {
	switch {
	case s.Error != "":
		return "error"
	case !s.Valid:
		return "invalid"
	case s.Pred == s.Label:
		return "correct"
	}
	return "wrong"
}

// SearchTime bounds the time one sample-list search may spend reading
// prompts (a miss on a large run reads every one); past it, or when the
// client leaves, the search stops and the list says how far it got.
const SearchTime = 10 * time.Second

// Search says how far a search of the samples' texts got.
type Search struct {
	// Scanned of Of samples were searched; Stopped says why a search
	// ended early ("" when it covered them all).
	Scanned, Of int
	Stopped     string
	// Unread counts samples whose prompt could not be read (a damaged
	// call record): a match in it is not seen.
	Unread int
}

// match returns the indices of the samples f selects, in log order. A
// search (f.Q) stops when ctx ends: what matched so far comes back, and
// Search says it is partial.
func (ri *runIndex) match(ctx context.Context, f Filter) ([]int, Search) {
	out := make([]int, 0, 256)
	q, done := ri.newQuery(f.Q)
	defer done()
	var srch Search
	for i := range ri.samples {
		s := &ri.samples[i]
		if f.Method != "" && s.Method != f.Method || f.User != "" && s.User != f.User ||
			f.Field != "" && s.Field != f.Field || f.Outcome != "" && outcomeOf(s) != f.Outcome {
			continue
		}
		if q != nil {
			if err := ctx.Err(); err != nil {
				srch.Stopped = "the search took too long"
				if errors.Is(err, context.Canceled) {
					srch.Stopped = "the search was cancelled"
				}
				// Count what is left unsearched.
				for _, r := range ri.samples[i:] {
					if (f.Method == "" || r.Method == f.Method) && (f.User == "" || r.User == f.User) &&
						(f.Field == "" || r.Field == f.Field) && (f.Outcome == "" || outcomeOf(&r) == f.Outcome) {
						srch.Of++
					}
				}
				break
			}
			srch.Scanned++
			srch.Of++
		}
		ok, unread := ri.matches(i, q)
		if unread {
			srch.Unread++
		}
		if !ok {
			continue
		}
		out = append(out, i)
	}
	ri.sortSamples(out, f.Sort, f.Desc)
	return out, srch
}

// reportFiles lists the run's report artefacts: tables (Markdown) and
// figures (PNG), in natural order. When report/index.md exists only the
// files it links are listed: a file a later report no longer writes (a
// stale figure) stays out.
func reportFiles(dir string) (tables, figures []string) {
	ents, err := readDir(dir, filepath.Join(dir, "report"))
	if err != nil {
		return nil, nil
	}
	index, _ := readText(dir, filepath.Join(dir, "report", "index.md"))
	for _, e := range ents {
		switch n := e.Name(); {
		case e.IsDir():
		case index != "" && n != "index.md" && !strings.Contains(index, "("+n+")"):
		case strings.HasSuffix(n, ".md") && n != "index.md":
			tables = append(tables, n)
		case strings.HasSuffix(n, ".png"):
			figures = append(figures, n)
		}
	}
	sort.SliceStable(tables, func(i, j int) bool { return naturalLess(tables[i], tables[j]) })
	sort.SliceStable(figures, func(i, j int) bool { return naturalLess(figures[i], figures[j]) })
	if slices.Contains(entriesOf(dir, filepath.Join(dir, "report")), "index.md") {
		tables = append([]string{"index.md"}, tables...)
	}
	return tables, figures
}

func entriesOf(base, dir string) []string {
	ents, _ := readDir(base, dir)
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// readText reads a file of the run, or "" when it is absent.
func readText(base, path string) (string, error) {
	b, err := readFile(base, path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	return string(b), err
}

// prettyJSON re-indents a JSON document for display; other text is kept.
func prettyJSON(b []byte) string {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return string(b)
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return string(b)
	}
	return string(out)
}

// naturalLess orders digit runs by value (stage 2 before stage 10).
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			i, j := digits(a), digits(b)
			na, nb := strings.TrimLeft(a[:i], "0"), strings.TrimLeft(b[:j], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = a[i:], b[j:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digits(s string) int {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}
