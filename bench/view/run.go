package view

import (
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

	"github.com/memharness/memharness/bench/store"
	"github.com/memharness/memharness/runlog"
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
		case runlog.ManifestFile:
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
type runIndex struct {
	dir      string
	manifest runlog.Manifest
	samples  []runlog.Sample
	byID     map[string]int
	methods  []string
	users    []string
	fields   []string

	promptOnce sync.Once
	prompts    map[string]runlog.Span
	promptErr  error

	// static is set while a static report is written: it reads the
	// redrawn samples' draws in one pass (the server reads one sample's
	// when its page is asked for) and leaves the agent steps' recorded
	// inputs out (every cell's calls would make a report of a long stream
	// take minutes and hundreds of megabytes).
	static    bool
	drawOnce  sync.Once
	drawCalls map[string][]store.Call // by unit
	drawErr   error
}

func loadRun(dir string) (*runIndex, error) {
	if _, err := statFile(dir, filepath.Join(dir, runlog.ManifestFile)); err != nil {
		return nil, err
	}
	man, err := runlog.ReadManifest(filepath.Join(dir, runlog.ManifestFile))
	if err != nil {
		return nil, err
	}
	ri := &runIndex{dir: dir, manifest: man, byID: map[string]int{}}
	if ri.samples, err = readSamples(dir, filepath.Join(dir, runlog.SamplesFile)); err != nil {
		return nil, err
	}
	seen := [3]map[string]bool{{}, {}, {}}
	for i := range ri.samples {
		s := &ri.samples[i]
		ri.byID[s.ID] = i
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
	// Index the prompts in the background: the first sample page should not
	// wait for a scan of prompts.jsonl.
	go ri.prompt("")
	sort.SliceStable(ri.users, func(i, j int) bool { return naturalLess(ri.users[i], ri.users[j]) })
	sort.SliceStable(ri.fields, func(i, j int) bool { return naturalLess(ri.fields[i], ri.fields[j]) })
	return ri, nil
}

// prompt returns the prompt sample id sent, or "" when the run did not
// keep it (runs from before prompts were stored).
func (ri *runIndex) prompt(id string) (string, error) {
	ri.promptOnce.Do(func() {
		path := filepath.Join(ri.dir, runlog.PromptsFile)
		if _, err := statFile(ri.dir, path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			ri.promptErr = err
			return
		}
		ri.prompts, ri.promptErr = runlog.IndexPrompts(path)
	})
	if ri.promptErr != nil {
		return "", ri.promptErr
	}
	sp, ok := ri.prompts[id]
	if !ok {
		return "", nil
	}
	f, err := openFile(ri.dir, filepath.Join(ri.dir, runlog.PromptsFile))
	if err != nil {
		return "", err
	}
	defer f.Close()
	return runlog.ReadPrompt(f, sp)
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
func outcomeOf(s *runlog.Sample) string {
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

// match returns the indices of the samples f selects, in log order.
func (ri *runIndex) match(f Filter) []int {
	out := make([]int, 0, 256)
	q, done := ri.newQuery(f.Q)
	defer done()
	for i := range ri.samples {
		s := &ri.samples[i]
		if f.Method != "" && s.Method != f.Method || f.User != "" && s.User != f.User ||
			f.Field != "" && s.Field != f.Field || f.Outcome != "" && outcomeOf(s) != f.Outcome || !ri.matches(s, q) {
			continue
		}
		out = append(out, i)
	}
	ri.sortSamples(out, f.Sort, f.Desc)
	return out
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
