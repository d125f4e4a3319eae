package export

import (
	"bufio"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memharness/memharness/runrecord"
)

// Formats are the export formats, by the name `bench export --format` and
// the report.export config key take.
var formatNames = []string{FormatInspect, FormatEEE, FormatLMEval}

// The formats.
const (
	FormatInspect = "inspect"
	FormatEEE     = "eee"
	FormatLMEval  = "lmeval"
)

// Formats lists the export formats' names.
func Formats() []string { return slices.Clone(formatNames) }

// run is what an export reads of one run directory.
type run struct {
	dir      string
	man      runrecord.Manifest
	lifelong bool
	methods  []string
	// metrics are the report's numbers, per method in file order.
	metrics map[string][]metric
	// level and iters are the bootstrap's confidence level and resamples.
	level float64
	iters int
}

// metric is one number of the report: a metrics.csv row of a prediction
// run, or a score-matrix cell or Table 2 value of a lifelong run.
type metric struct {
	Group string // the field ("movie_rating", "all"), "stage 03" or a Table 2 category
	Name  string // "accuracy_valid", an environment, "op"
	Value float64
	// CI is set when the report gave a bootstrap interval.
	CI     bool
	Lo, Hi float64
	N      int
	Unit   string
}

// Key names the metric within its method ("movie_rating/accuracy_valid").
func (m metric) Key() string { return m.Group + "/" + m.Name }

// open reads a finished run's manifest and report numbers.
func open(dir string) (*run, error) {
	man, err := runrecord.ReadManifest(filepath.Join(dir, runrecord.ManifestFile))
	if err != nil {
		return nil, fmt.Errorf("%s is not a run directory: %w", dir, err)
	}
	if man.Finished == nil {
		return nil, fmt.Errorf("%s: the run has not finished (no finished time in %s); finish it first (re-run the same command)", dir, runrecord.ManifestFile)
	}
	if man.Shard != "" {
		return nil, fmt.Errorf("%s is shard %s of a sharded run: export the merged run ('bench merge' writes it)", dir, man.Shard)
	}
	r := &run{dir: dir, man: man, methods: man.Methods, metrics: map[string][]metric{}, level: 0.95, iters: 1000}
	if cfg, ok := man.Config.(map[string]any); ok {
		if rep, ok := cfg["report"].(map[string]any); ok {
			if v, ok := rep["level"].(float64); ok && v > 0 {
				r.level = v
			}
			if v, ok := rep["bootstrap"].(float64); ok {
				r.iters = int(v)
			}
		}
		r.lifelong = cfg["task"] == "lifemem"
	}
	if r.lifelong {
		err = r.readLifelongMetrics()
	} else {
		err = r.readPredictionMetrics()
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}

// reportCSV reads one CSV of the run's report: header and rows by column name.
func (r *run) reportCSV(name string) ([]map[string]string, string, error) {
	path := filepath.Join(r.dir, "report", name)
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, path, fmt.Errorf("%s is missing: write the run's report first (bench report %s)", path, r.dir)
	}
	if err != nil {
		return nil, path, err
	}
	defer f.Close()
	cr := csv.NewReader(bufio.NewReader(f))
	head, err := cr.Read()
	if err != nil {
		return nil, path, fmt.Errorf("%s: header: %w", path, err)
	}
	var rows []map[string]string
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return rows, path, nil
		}
		if err != nil {
			return nil, path, fmt.Errorf("%s: %w", path, err)
		}
		row := make(map[string]string, len(head))
		for i, h := range head {
			if i < len(rec) {
				row[h] = rec[i]
			}
		}
		rows = append(rows, row)
	}
}

// number parses a report cell; ok is false for an empty (undefined) one.
func number(path string, line int, col, s string) (float64, bool, error) {
	if s == "" {
		return 0, false, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false, fmt.Errorf("%s:%d: column %s: %w", path, line, col, err)
	}
	return v, true, nil
}

func (r *run) readPredictionMetrics() error {
	rows, path, err := r.reportCSV("metrics.csv")
	if err != nil {
		return err
	}
	for i, row := range rows {
		line := i + 2
		v, ok, err := number(path, line, "value", row["value"])
		if err != nil {
			return err
		}
		if !ok {
			continue // undefined (e.g. cost of an unpriced run): nothing to export
		}
		m := metric{Group: row["field"], Name: row["metric"], Value: v, Unit: row["unit"]}
		lo, okLo, err := number(path, line, "ci_low", row["ci_low"])
		if err != nil {
			return err
		}
		hi, okHi, err := number(path, line, "ci_high", row["ci_high"])
		if err != nil {
			return err
		}
		m.CI, m.Lo, m.Hi = okLo && okHi, lo, hi
		if m.N, err = strconv.Atoi(row["n"]); err != nil {
			return fmt.Errorf("%s:%d: column n: %w", path, line, err)
		}
		r.metrics[row["method"]] = append(r.metrics[row["method"]], m)
	}
	return nil
}

func (r *run) readLifelongMetrics() error {
	rows, path, err := r.reportCSV("lifemem_matrix.csv")
	if err != nil {
		return err
	}
	for i, row := range rows {
		v, ok, err := number(path, i+2, "score_percent", row["score_percent"])
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		n, _ := strconv.Atoi(row["tasks"])
		r.metrics[row["method"]] = append(r.metrics[row["method"]],
			metric{Group: "stage " + row["stage"], Name: row["env"], Value: v, N: n, Unit: "%"})
	}
	rows, path, err = r.reportCSV("lifemem_table2.csv")
	if err != nil {
		return err
	}
	for i, row := range rows {
		v, ok, err := number(path, i+2, "value", row["value"])
		if err != nil {
			return err
		}
		if !ok {
			continue // BwT undefined for the category
		}
		n, _ := strconv.Atoi(row["envs"])
		r.metrics[row["method"]] = append(r.metrics[row["method"]],
			metric{Group: row["category"], Name: row["metric"], Value: v, N: n, Unit: row["unit"]})
	}
	return nil
}

// config is the manifest's resolved config (nil when it has none).
func (r *run) config() map[string]any {
	cfg, _ := r.man.Config.(map[string]any)
	return cfg
}

// started and finished are the run's own times: every timestamp of an
// export is one of them, so exporting again writes the same bytes.
func (r *run) started() time.Time  { return r.man.Started.UTC() }
func (r *run) finished() time.Time { return r.man.Finished.UTC() }

// id is a stable identifier of the run (or of one of its parts), derived
// from its config hash and start time: the same run always exports the
// same IDs, two runs never share one.
func (r *run) id(parts ...string) string {
	h := sha256.New()
	h.Write([]byte(r.man.ConfigHash + "\x00" + r.man.Variant + "\x00" + r.man.Started.UTC().Format(time.RFC3339Nano)))
	for _, p := range parts {
		h.Write([]byte("\x00" + p))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// uuid4 shapes r.id(parts...) as a version-4 UUID (Every Eval Ever names
// its files by one).
func (r *run) uuid4(parts ...string) string {
	b, _ := hex.DecodeString(r.id(parts...)[:32])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	s := hex.EncodeToString(b)
	return s[:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:]
}

// task is the run's task name as other tools list it: the config name,
// with the variant of a sweep.
func (r *run) task() string {
	if r.man.Variant != "" {
		return r.man.Name + "/" + r.man.Variant
	}
	return r.man.Name
}

// model is the acting model's name as the run recorded it.
func (r *run) model() string {
	if r.man.Model != "" {
		return r.man.Model
	}
	return r.man.Backbone
}

// fileSafe makes a name usable as one path element.
func fileSafe(s string) string {
	return strings.Map(func(c rune) rune {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
			return c
		}
		return '_'
	}, s)
}

// writeJSONFile writes v as indented JSON (map keys sorted by encoding/json).
func writeJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return writeFile(path, append(b, '\n'))
}

// writeFile writes through a temporary file and a rename, so a reader
// never sees half an export.
func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
