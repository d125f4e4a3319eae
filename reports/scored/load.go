package scored

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/runrecord"
)

// Kinds of question, as in datasets/behavior.
const (
	KindBinary     = "binary"
	KindMultiClass = "multi_class"
)

// run is a loaded run directory with its samples grouped for reporting.
type Run struct {
	Manifest runrecord.Manifest
	Samples  []runrecord.Sample
	Methods  []string // manifest order, then unlisted methods sorted
	Fields   []Field  // sorted by name
}

type Field struct {
	Name    string
	Kind    string
	Classes []string
}

// Load reads <runDir>/manifest.json and samples.jsonl and scores them
// with opts (their defaults filled in). The summary's RunUsage and Plan are
// left for the caller, which reads them only when it writes an index.
func Load(runDir string, opts Options) (*Summary, error) {
	opts = opts.WithDefaults()
	r, err := loadRun(runDir, opts)
	if err != nil {
		return nil, err
	}
	return summarise(r, opts)
}

func loadRun(runDir string, opts Options) (*Run, error) {
	m, err := runrecord.ReadManifest(filepath.Join(runDir, runrecord.ManifestFile))
	if err != nil {
		return nil, err
	}
	samples, err := runrecord.ReadSamples(filepath.Join(runDir, runrecord.SamplesFile))
	if err != nil {
		return nil, err
	}
	if len(samples) == 0 {
		return nil, fmt.Errorf("%s: no samples", filepath.Join(runDir, runrecord.SamplesFile))
	}
	r := &Run{Manifest: m, Samples: samples, Methods: methodOrder(m.Methods, samples)}
	if i := slices.Index(r.Methods, opts.Baseline); i > 0 {
		r.Methods = append([]string{opts.Baseline}, slices.Delete(slices.Clone(r.Methods), i, i+1)...)
	}
	r.Fields, err = collectFields(samples, opts)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// methodOrder keeps the configured order (its first method is the baseline)
// and appends methods found only in the samples, sorted.
func methodOrder(configured []string, samples []runrecord.Sample) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range configured {
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	var extra []string
	for _, s := range samples {
		if !seen[s.Method] {
			seen[s.Method] = true
			extra = append(extra, s.Method)
		}
	}
	slices.Sort(extra)
	present := map[string]bool{}
	for _, s := range samples {
		present[s.Method] = true
	}
	// Drop configured methods with no samples: they have nothing to report.
	out = slices.DeleteFunc(out, func(m string) bool { return !present[m] })
	return append(out, extra...)
}

// collectFields finds every question field, its kind and its classes: the
// configured classes when given, else the labels and valid predictions seen,
// in numeric order when all are numbers.
func collectFields(samples []runrecord.Sample, opts Options) ([]Field, error) {
	byName := map[string]*Field{}
	labels := map[string]map[string]bool{}
	for _, s := range samples {
		f, ok := byName[s.Field]
		if !ok {
			f = &Field{Name: s.Field, Kind: s.Kind}
			byName[s.Field] = f
			labels[s.Field] = map[string]bool{}
		}
		if s.Kind != f.Kind {
			return nil, fmt.Errorf("sample %s: field %q has kind %q, earlier samples say %q", s.ID, s.Field, s.Kind, f.Kind)
		}
		if s.Error != "" {
			continue
		}
		labels[s.Field][s.Label] = true
		if s.Valid && s.Pred != "" {
			labels[s.Field][s.Pred] = true
		}
	}
	var out []Field
	for name, f := range byName {
		if cl, ok := opts.Classes[name]; ok {
			f.Classes = slices.Clone(cl)
		} else {
			f.Classes = sortLabels(labels[name])
		}
		out = append(out, *f)
	}
	slices.SortFunc(out, func(a, b Field) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

func sortLabels(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	numeric := true
	for l := range set {
		if l == "" {
			continue
		}
		out = append(out, l)
		if _, err := strconv.ParseFloat(l, 64); err != nil {
			numeric = false
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		if numeric {
			x, _ := strconv.ParseFloat(a, 64)
			y, _ := strconv.ParseFloat(b, 64)
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
		}
		return strings.Compare(a, b)
	})
	return out
}

// instanceKey pairs the samples of different methods: a sample ID is
// "<method>/<instance ID>".
func instanceKey(s runrecord.Sample) string {
	return strings.TrimPrefix(s.ID, s.Method+"/")
}
