package mind2web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/safefile"
	"io/fs"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Config says which part of a release to load and how to show it.
type Config struct {
	// Split is the folder of the release to read ("test_task", the
	// cross-task split LifeMem uses, by default). When the folder is
	// missing, the JSON files directly in the data directory are read.
	Split string
	// TopK is how many ranked candidates the agent sees per page (Synapse:
	// 5). Negative means all candidates (no step is then unreachable unless
	// its positives are missing from cleaned_html).
	TopK int
}

// DefaultTopK is Synapse's top_k_elements.
const DefaultTopK = 5

// ScoresFile is the candidate ranks of scores_all_data.pkl converted to JSON:
// {"scores": {"<annotation_id>_<action_uid>": {"<backend_node_id>": float}},
// "ranks": {...same keys...: int}}. One way to make it:
//
//	python3 -c 'import pickle,json; d=pickle.load(open("scores_all_data.pkl","rb")); json.dump({k:{s:{c:float(x) for c,x in v.items()} for s,v in d[k].items()} for k in ("scores","ranks")}, open("scores_all_data.json","w"))'
const ScoresFile = "scores_all_data.json"

func (c Config) withDefaults() Config {
	if c.Split == "" {
		c.Split = "test_task"
	}
	if c.TopK == 0 {
		c.TopK = DefaultTopK
	}
	return c
}

// Open loads the cross-task split from a directory laid out like the
// release: dataDir/test_task/*.json (or *.json directly in dataDir) and,
// optionally, dataDir/scores_all_data.json.
func Open(dataDir string) (*Suite, error) {
	return OpenWith(dataDir, Config{})
}

// OpenWith is Open with a Config.
func OpenWith(dataDir string, cfg Config) (*Suite, error) {
	return openFS(safefile.FS(os.DirFS(dataDir), 0), dataDir, cfg)
}

// openFS reads a release from fsys; label prefixes file names in errors.
func openFS(fsys fs.FS, label string, cfg Config) (*Suite, error) {
	cfg = cfg.withDefaults()
	dir := cfg.Split
	if st, err := fs.Stat(fsys, dir); err != nil || !st.IsDir() {
		dir = "."
	}
	files, err := jsonFiles(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("mind2web: %s: %w", label, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("mind2web: no task files in %s (want %s/*.json from the official test.zip; run 'bench data fetch mind2web'): %w", path.Join(label, dir), cfg.Split, envs.ErrNoData)
	}
	var recs []*Record
	seen := map[string]string{}
	for _, f := range files {
		name := path.Join(label, f)
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, fmt.Errorf("mind2web: %w", err)
		}
		got, err := decodeRecords(b, name)
		if err != nil {
			return nil, err
		}
		for _, r := range got {
			if prev, dup := seen[r.AnnotationID]; dup {
				return nil, fmt.Errorf("mind2web: %s: annotation_id %q already in %s", name, r.AnnotationID, prev)
			}
			seen[r.AnnotationID] = name
		}
		recs = append(recs, got...)
	}
	need := map[string]bool{}
	for _, r := range recs {
		for _, a := range r.Actions {
			need[r.AnnotationID+"_"+a.ActionUID] = true
		}
	}
	sc, err := readScores(fsys, label, need)
	if err != nil {
		return nil, err
	}
	return newSuite(recs, sc, cfg, splitName(cfg.Split, dir))
}

func splitName(split, dir string) string {
	if dir == "." {
		return "test"
	}
	return split
}

// jsonFiles lists dir's task files in natural order (test_task_2 before
// test_task_10), leaving out the scores file.
func jsonFiles(fsys fs.FS, dir string) ([]string, error) {
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".json") || n == ScoresFile {
			continue
		}
		out = append(out, path.Join(dir, n))
	}
	sort.Slice(out, func(i, j int) bool { return naturalLess(out[i], out[j]) })
	return out, nil
}

// naturalLess orders by the trailing number of the base name, then by name.
func naturalLess(a, b string) bool {
	na, oka := trailingNumber(a)
	nb, okb := trailingNumber(b)
	if oka && okb && na != nb {
		return na < nb
	}
	return a < b
}

func trailingNumber(p string) (int, bool) {
	base := strings.TrimSuffix(path.Base(p), ".json")
	i := len(base)
	for i > 0 && base[i-1] >= '0' && base[i-1] <= '9' {
		i--
	}
	n, err := strconv.Atoi(base[i:])
	return n, err == nil
}

// decodeRecords reads one JSON array of records, validating each; errors
// name the file, line and field.
func decodeRecords(b []byte, name string) ([]*Record, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	at := func(off int64) string { return fmt.Sprintf("%s:%d", name, lineAt(b, off)) }
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("mind2web: %s: %w", at(dec.InputOffset()), err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, fmt.Errorf("mind2web: %s: want a JSON array of task records", at(0))
	}
	var out []*Record
	for i := 0; dec.More(); i++ {
		start := dec.InputOffset()
		r := new(Record)
		if err := dec.Decode(r); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				return nil, fmt.Errorf("mind2web: %s: record %d: field %s: want %s, got %s", at(te.Offset), i, te.Field, te.Type, te.Value)
			}
			return nil, fmt.Errorf("mind2web: %s: record %d: %w", at(dec.InputOffset()), i, err)
		}
		if err := validate(r); err != nil {
			return nil, fmt.Errorf("mind2web: %s: record %d (annotation_id %q): %w", at(start+1), i, r.AnnotationID, err)
		}
		out = append(out, r)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("mind2web: %s: %w", at(dec.InputOffset()), err)
	}
	return out, nil
}

// lineAt is the 1-based line of byte offset off, skipping the whitespace a
// decoder offset may point before.
func lineAt(b []byte, off int64) int {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	for off < int64(len(b)) && (b[off] == ' ' || b[off] == '\n' || b[off] == '\r' || b[off] == '\t' || b[off] == ',') {
		off++
	}
	return 1 + bytes.Count(b[:off], []byte{'\n'})
}

var validOps = map[string]bool{"CLICK": true, "TYPE": true, "SELECT": true}

// validate checks the fields an episode relies on.
func validate(r *Record) error {
	switch {
	case r.AnnotationID == "":
		return errors.New("field annotation_id: missing")
	case strings.TrimSpace(r.ConfirmedTask) == "":
		return errors.New("field confirmed_task: missing")
	case len(r.Actions) == 0:
		return errors.New("field actions: empty")
	case len(r.ActionReprs) != len(r.Actions):
		return fmt.Errorf("field action_reprs: %d entries for %d actions", len(r.ActionReprs), len(r.Actions))
	}
	for i, a := range r.Actions {
		if !validOps[a.Operation.Op] {
			return fmt.Errorf("field actions[%d].operation.op: %q is not CLICK, TYPE or SELECT", i, a.Operation.Op)
		}
		if strings.TrimSpace(a.CleanedHTML) == "" {
			return fmt.Errorf("field actions[%d].cleaned_html: missing", i)
		}
		for _, set := range []struct {
			name string
			cs   []Candidate
		}{{"pos_candidates", a.PosCandidates}, {"neg_candidates", a.NegCandidates}} {
			for j, c := range set.cs {
				if c.BackendNodeID == "" {
					return fmt.Errorf("field actions[%d].%s[%d].backend_node_id: missing", i, set.name, j)
				}
			}
		}
	}
	return nil
}
