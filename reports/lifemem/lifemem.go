package lifemem

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/kinds"
	"github.com/memharness/memharness/reports/paper"
	"github.com/memharness/memharness/runrecord"

	"github.com/memharness/memharness/metrics"
)

// LifeMem's lifelong protocol (spec lifemem_envs.md §1.9–1.10) leaves its
// results under <run>/lifelong/ (layout in package lifelong's doc), in the
// record types of package runrecord, which the writer (package lifelong) uses
// too; the round-trip test runs the protocol and reads its output back.

// lmDir is the lifelong results folder of a run.
const lmDir = runrecord.LifelongDir

// HasResults reports whether runDir holds lifelong protocol results.
func HasResults(runDir string) bool {
	_, err := os.Stat(filepath.Join(runDir, lmDir, runrecord.LifelongInfoFile))
	return err == nil
}

// The records as the reports read them: run.json with the part of the
// config a report needs, cells without their transcripts (stored beside
// them, never read here).
type (
	lmInfo       = runrecord.LifelongInfo[runrecord.LifelongRunConfig]
	lmMethodSpec = runrecord.LifelongMethodRecord
	lmUsage      = runrecord.LifelongUsage
	lmCell       = runrecord.LifelongCell[struct{}]
	lmCosts      = runrecord.LifelongCosts
)

// lmMethod is one method's results.
type lmMethod struct {
	Spec   lmMethodSpec
	Matrix metrics.ScoreMatrix
	Self   map[string]float64
	OOD    map[string]float64
	Cells  []lmCell
	// Costs is nil when costs.json is missing (a run still in progress).
	Costs *lmCosts
	// Stats is nil when the method wrote no statistics file.
	Stats *lmStats
	// Tasks and Errors count episodes over every cell.
	Tasks, Errors int
}

type lmRun struct {
	dir   string
	kinds lmKinds
	// paperRows are the method kinds' paper rows: which kinds are the
	// paper's methods.
	paperRows kinds.PaperRows
	info      lmInfo
	methods   []*lmMethod
	// manifest is the bench manifest beside the lifelong results (zero when
	// absent): harness version and data warnings.
	manifest runrecord.Manifest
	// opts are the intervals' settings.
	opts Options
}

// loadLifeMem reads a run's lifelong results. Methods are listed in the
// config's order, then any other method folder, sorted; a configured method
// without results is left out.
func loadLifeMem(runDir string, paperRows kinds.PaperRows) (*lmRun, error) {
	r := &lmRun{dir: runDir, paperRows: paperRows}
	if m, err := runrecord.ReadManifest(filepath.Join(runDir, runrecord.ManifestFile)); err == nil {
		r.manifest = m
	}
	path := filepath.Join(runDir, lmDir, runrecord.LifelongInfoFile)
	if err := lmReadJSON(path, &r.info); err != nil {
		return nil, err
	}
	if len(r.info.Config.Envs) == 0 {
		return nil, fmt.Errorf("%s: config.envs is empty", path)
	}
	specs := map[string]lmMethodSpec{}
	var names []string
	for _, m := range r.info.Config.Methods {
		specs[m.Name] = m
		names = append(names, m.Name)
	}
	entries, err := os.ReadDir(filepath.Join(runDir, lmDir))
	if err != nil {
		return nil, err
	}
	var extra []string
	for _, e := range entries {
		if e.IsDir() && !slices.Contains(names, e.Name()) {
			extra = append(extra, e.Name())
		}
	}
	slices.Sort(extra)
	for _, name := range append(names, extra...) {
		spec, ok := specs[name]
		if !ok {
			spec = lmMethodSpec{Name: name, Kind: r.guessKind(name)}
		}
		m, err := loadLMMethod(filepath.Join(runDir, lmDir, name), spec, r.info.Config.Envs)
		if err != nil {
			return nil, err
		}
		if m != nil {
			r.methods = append(r.methods, m)
		}
	}
	if len(r.methods) == 0 {
		return nil, fmt.Errorf("%s: no method has results yet", filepath.Join(runDir, lmDir))
	}
	return r, nil
}

// guessKind names the kind of a method the config does not describe, from
// the conventional names: a name starting with a kind of the paper's
// methods (LifeMem's Table 2) is that kind.
func (r *lmRun) guessKind(name string) string {
	n := strings.ToLower(name)
	for _, k := range slices.Sorted(maps.Keys(r.paperRows)) {
		if _, ok := r.paperRows.Label(k, paper.LifeMemTableName); ok && strings.HasPrefix(n, k) {
			return k
		}
	}
	return ""
}

func loadLMMethod(dir string, spec lmMethodSpec, envs []string) (*lmMethod, error) {
	m := &lmMethod{Spec: spec, Matrix: metrics.NewScoreMatrix(envs), Self: map[string]float64{}, OOD: map[string]float64{}}
	cellsDir := filepath.Join(dir, runrecord.LifelongCellsDir)
	stages, err := os.ReadDir(cellsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	for _, st := range stages {
		if !st.IsDir() {
			continue
		}
		files, err := os.ReadDir(filepath.Join(cellsDir, st.Name()))
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if f.IsDir() || !strings.HasSuffix(f.Name(), ".json") {
				continue
			}
			path := filepath.Join(cellsDir, st.Name(), f.Name())
			var c lmCell
			if err := lmReadJSON(path, &c); err != nil {
				return nil, err
			}
			if err := m.place(c, path, envs); err != nil {
				return nil, err
			}
			m.Cells = append(m.Cells, c)
			m.Tasks += len(c.Tasks)
			m.Errors += c.Errors
		}
	}
	var costs lmCosts
	switch err := lmReadJSON(filepath.Join(dir, runrecord.LifelongCostsFile), &costs); {
	case err == nil:
		m.Costs = &costs
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	if m.Stats, err = loadLMStats(dir); err != nil {
		return nil, err
	}
	return m, nil
}

// place puts a cell into the matrix, the self-learn row or the OOD map.
func (m *lmMethod) place(c lmCell, path string, envs []string) error {
	switch c.Stage {
	case "self":
		m.Self[c.Env] = c.Score
		return nil
	case "ood":
		m.OOD[c.Env] = c.Score
		return nil
	}
	j, err := strconv.Atoi(c.Stage)
	if err != nil || j < 1 || j > len(envs) {
		return fmt.Errorf("%s: stage %q is not a stream stage (01..%02d), self or ood", path, c.Stage, len(envs))
	}
	i := slices.Index(envs, c.Env)
	if i < 0 || i >= j {
		return fmt.Errorf("%s: environment %q is not column 1..%d of row %d (envs %v)", path, c.Env, j, j, envs)
	}
	m.Matrix.S[j-1][i] = c.Score
	return nil
}

func lmReadJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// lmStats is the cluster statistics a memory method may write
// (lifemem_stats.json). The reader is lenient: clusters may be a count or a
// list (of sizes, or of objects with a size or member list), sizes a list or
// a name→size map, clusters_per_env a map of counts or of lists; the mean
// cluster size per environment comes from mean_size_per_env (absent: no
// value).
type lmStats struct {
	Clusters       int
	Sizes          []int
	ClustersPerEnv map[string]int
	// MeanSizePerEnv is the mean size of the clusters holding each env's
	// trajectories, when the file gives it.
	MeanSizePerEnv map[string]float64
}

// lmStatsFile is the statistics file name; it is looked for in the
// method's folder and in its state folder (the method's own directory).
const lmStatsFile = runrecord.LifelongStatsFile

func loadLMStats(dir string) (*lmStats, error) {
	for _, p := range []string{filepath.Join(dir, lmStatsFile), filepath.Join(dir, "state", lmStatsFile)} {
		b, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var raw map[string]any
		if err := json.Unmarshal(b, &raw); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		return parseLMStats(raw), nil
	}
	return nil, nil
}

func parseLMStats(raw map[string]any) *lmStats {
	s := &lmStats{ClustersPerEnv: map[string]int{}, MeanSizePerEnv: map[string]float64{}}
	switch v := raw["clusters"].(type) {
	case float64:
		s.Clusters = int(v)
	case []any:
		s.Clusters = len(v)
		for _, c := range v {
			if n, ok := lmSizeOf(c); ok {
				s.Sizes = append(s.Sizes, n)
			}
		}
	case map[string]any:
		s.Clusters = len(v)
		for _, k := range lmSortedKeys(v) {
			if n, ok := lmSizeOf(v[k]); ok {
				s.Sizes = append(s.Sizes, n)
			}
		}
	}
	if sz, ok := raw["sizes"]; ok {
		s.Sizes = nil
		switch v := sz.(type) {
		case []any:
			for _, x := range v {
				if n, ok := lmSizeOf(x); ok {
					s.Sizes = append(s.Sizes, n)
				}
			}
		case map[string]any:
			for _, k := range lmSortedKeys(v) {
				if n, ok := lmSizeOf(v[k]); ok {
					s.Sizes = append(s.Sizes, n)
				}
			}
		}
	}
	if s.Clusters == 0 {
		s.Clusters = len(s.Sizes)
	}
	if per, ok := raw["clusters_per_env"].(map[string]any); ok {
		for env, v := range per {
			if n, ok := lmSizeOf(v); ok {
				s.ClustersPerEnv[env] = n
			}
		}
	}
	// The mean size of the clusters holding an environment's trajectories
	// is read, never derived: its trajectories over its clusters is a
	// different number (7 trajectories in one cluster of 32 give 7, not 32).
	for _, key := range []string{"mean_size_per_env", "mean_cluster_size_per_env"} {
		if per, ok := raw[key].(map[string]any); ok {
			for env, v := range per {
				if f, ok := v.(float64); ok {
					s.MeanSizePerEnv[env] = f
				}
			}
		}
	}
	return s
}

// lmSizeOf reads a size: a number, a list's length, or an object's "size",
// "members", "examples" or "trajectories" field.
func lmSizeOf(v any) (int, bool) {
	switch x := v.(type) {
	case float64:
		return int(math.Round(x)), true
	case []any:
		return len(x), true
	case string:
		if n, err := strconv.Atoi(x); err == nil {
			return n, true
		}
		// LifeMem's SQLite stores members as a comma-joined list.
		if x == "" {
			return 0, true
		}
		return len(strings.Split(x, ",")), true
	case map[string]any:
		for _, k := range []string{"size", "members", "examples", "trajectories"} {
			if f, ok := x[k]; ok {
				return lmSizeOf(f)
			}
		}
	}
	return 0, false
}

func lmSortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
