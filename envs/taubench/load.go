package taubench

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/safefile"
)

// Domain is a τ-bench domain.
type Domain string

const (
	Retail  Domain = "retail"
	Airline Domain = "airline"
)

// tables lists each domain's database files (without .json).
func (d Domain) tables() []string {
	if d == Airline {
		return []string{"users", "flights", "reservations"}
	}
	return []string{"users", "orders", "products"}
}

// splits lists each domain's task files, in suite order.
func (d Domain) splits() []string {
	if d == Airline {
		return []string{"test"}
	}
	return []string{"test", "train", "dev"}
}

func (d Domain) tools() []*tool {
	ts := retailTools()
	if d == Airline {
		ts = airlineTools()
	}
	for _, t := range ts {
		t.domain = d
	}
	return ts
}

// idField names the key that repeats a row's id inside the row.
func idField(tbl string) string {
	switch tbl {
	case "orders":
		return "order_id"
	case "products":
		return "product_id"
	case "flights":
		return "flight_number"
	case "reservations":
		return "reservation_id"
	}
	return ""
}

// detectDomain tells retail from airline by the database files present.
func detectDomain(fsys fs.FS, label string) (Domain, error) {
	if _, err := fs.Stat(fsys, "orders.json"); err == nil {
		return Retail, nil
	}
	if _, err := fs.Stat(fsys, "flights.json"); err == nil {
		return Airline, nil
	}
	return "", fmt.Errorf("taubench: %s: neither orders.json (retail) nor flights.json (airline) found", label)
}

// data is everything loaded from one domain directory.
type data struct {
	domain  Domain
	base    *DB
	wiki    string
	tools   toolset
	schemas []Value // tool list shown to the agent
	// schemaFile: schemas came from the data's tools_schema.json.
	schemaFile bool
	tasks      []*TaskRecord
}

func loadDir(dir string, domain Domain) (*data, error) {
	if _, err := os.Stat(dir); err != nil {
		// The fetch targets are per domain; an unknown domain names both.
		target := NameRetail + "` or `bench data fetch " + NameAirline
		if domain != "" {
			target = "taubench-" + string(domain)
		}
		return nil, fmt.Errorf("taubench: %w (fetch the data with `bench data fetch %s`): %w", err, target, envs.ErrNoData)
	}
	fsys := safefile.FS(os.DirFS(dir), 0)
	if domain == "" {
		d, err := detectDomain(fsys, dir)
		if err != nil {
			return nil, err
		}
		domain = d
	}
	return loadFS(fsys, dir, domain)
}

// loadFS reads a directory laid out like the official data (and our
// fixtures): <table>.json, wiki.md, tasks_<split>.jsonl (or the official
// tasks_<split>.py), optionally tools_schema.json.
func loadFS(fsys fs.FS, label string, domain Domain) (*data, error) {
	d := &data{domain: domain}
	base := map[string]*Object{}
	for _, t := range domain.tables() {
		o, err := loadTable(fsys, label, t)
		if err != nil {
			return nil, err
		}
		base[t] = o
	}
	d.base = newDB(base)
	wiki, err := fs.ReadFile(fsys, "wiki.md")
	if err != nil {
		return nil, fmt.Errorf("taubench: %s: %w", path.Join(label, "wiki.md"), err)
	}
	d.wiki = string(wiki)
	if err := d.loadTools(fsys, label); err != nil {
		return nil, err
	}
	for _, split := range domain.splits() {
		recs, err := loadTasks(fsys, label, split)
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			for i, a := range r.Actions {
				if _, ok := d.tools[a.Name]; !ok {
					return nil, fmt.Errorf("taubench: %s:%d: field actions[%d].name: unknown tool %q", r.File, r.Line, i, a.Name)
				}
			}
		}
		d.tasks = append(d.tasks, recs...)
	}
	if len(d.tasks) == 0 {
		return nil, fmt.Errorf("taubench: %s: no tasks_*.jsonl or tasks_*.py file", label)
	}
	return d, nil
}

func loadTable(fsys fs.FS, label, name string) (*Object, error) {
	file := name + ".json"
	where := path.Join(label, file)
	raw, err := fs.ReadFile(fsys, file)
	if err != nil {
		return nil, fmt.Errorf("taubench: %s: %w", where, err)
	}
	v, err := Decode(raw)
	if err != nil {
		return nil, fmt.Errorf("taubench: %s: %w", where, err)
	}
	o, ok := v.(*Object)
	if !ok {
		return nil, fmt.Errorf("taubench: %s: want an object of rows keyed by id, got %s", where, typeName(v))
	}
	idf := idField(name)
	for _, k := range o.Keys() {
		row, ok := o.vals[k].(*Object)
		if !ok {
			return nil, fmt.Errorf("taubench: %s: row %q: want an object, got %s", where, k, typeName(o.vals[k]))
		}
		if idf != "" {
			if id, _ := row.vals[idf].(string); id != k {
				return nil, fmt.Errorf("taubench: %s: row %q: field %s is %q, want the row key", where, k, idf, id)
			}
		}
	}
	return o, nil
}

// loadTools keeps the implemented tools the data's schema lists (all of
// them when the directory has no tools_schema.json).
func (d *data) loadTools(fsys fs.FS, label string) error {
	all := newToolset(d.domain.tools())
	raw, err := fs.ReadFile(fsys, "tools_schema.json")
	if errors.Is(err, fs.ErrNotExist) {
		d.tools, d.schemas = all, all.schemas()
		return nil
	}
	d.schemaFile = true
	where := path.Join(label, "tools_schema.json")
	if err != nil {
		return fmt.Errorf("taubench: %s: %w", where, err)
	}
	v, err := Decode(raw)
	if err != nil {
		return fmt.Errorf("taubench: %s: %w", where, err)
	}
	list, ok := v.([]Value)
	if !ok {
		return fmt.Errorf("taubench: %s: want a list of function schemas, got %s", where, typeName(v))
	}
	d.tools = toolset{}
	for i, e := range list {
		name := ""
		if o, ok := e.(*Object); ok {
			if fn, ok := o.vals["function"].(*Object); ok {
				name, _ = fn.vals["name"].(string)
			}
		}
		if name == "" {
			return fmt.Errorf("taubench: %s: entry %d: field function.name missing", where, i)
		}
		t, ok := all[name]
		if !ok {
			return fmt.Errorf("taubench: %s: entry %d: tool %q is not implemented for %s", where, i, name, d.domain)
		}
		d.tools[name] = t
	}
	d.schemas = list
	return nil
}

// TaskRecord is one official task.
type TaskRecord struct {
	Split       string
	Index       int
	Annotator   string
	UserID      string
	Instruction string
	Actions     []Action
	Outputs     []string
	// File and Line locate the record for error messages.
	File string
	Line int
}

func loadTasks(fsys fs.FS, label, split string) ([]*TaskRecord, error) {
	file := "tasks_" + split + ".jsonl"
	raw, err := fs.ReadFile(fsys, file)
	if errors.Is(err, fs.ErrNotExist) {
		return loadPyTasks(fsys, label, split)
	}
	where := path.Join(label, file)
	if err != nil {
		return nil, fmt.Errorf("taubench: %s: %w", where, err)
	}
	var out []*TaskRecord
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		v, err := Decode(text)
		if err != nil {
			return nil, fmt.Errorf("taubench: %s:%d: %w", where, line, err)
		}
		rec, err := taskFromValue(v, len(out))
		if err != nil {
			return nil, fmt.Errorf("taubench: %s:%d: %w", where, line, err)
		}
		rec.Split, rec.File, rec.Line = split, where, line
		out = append(out, rec)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("taubench: %s: %w", where, err)
	}
	return out, nil
}

// taskFromValue checks one task object; pos is the default task_index.
func taskFromValue(v Value, pos int) (*TaskRecord, error) {
	o, ok := v.(*Object)
	if !ok {
		return nil, fmt.Errorf("want a task object, got %s", typeName(v))
	}
	rec := &TaskRecord{Index: pos}
	if iv, ok := o.Get("task_index"); ok {
		n, ok := iv.(Num)
		if !ok || n.IsFloat {
			return nil, errors.New("field task_index: want an integer")
		}
		rec.Index = int(n.I)
	}
	if av, ok := o.Get("annotator"); ok && av != nil {
		s, ok := av.(string)
		if !ok {
			return nil, errors.New("field annotator: want a string")
		}
		rec.Annotator = s
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"user_id", &rec.UserID}, {"instruction", &rec.Instruction}} {
		s, ok := o.vals[f.name].(string)
		if !ok {
			return nil, fmt.Errorf("field %s: want a string", f.name)
		}
		*f.dst = s
	}
	acts, ok := o.vals["actions"].([]Value)
	if !ok {
		return nil, errors.New("field actions: want a list")
	}
	for i, av := range acts {
		a, ok := av.(*Object)
		if !ok {
			return nil, fmt.Errorf("field actions[%d]: want an object", i)
		}
		name, ok := a.vals["name"].(string)
		if !ok {
			return nil, fmt.Errorf("field actions[%d].name: want a string", i)
		}
		kw, ok := a.vals["kwargs"].(*Object)
		if !ok {
			return nil, fmt.Errorf("field actions[%d].kwargs: want an object", i)
		}
		rec.Actions = append(rec.Actions, Action{Name: name, Kwargs: kw})
	}
	if ov, ok := o.Get("outputs"); ok && ov != nil {
		outs, ok := ov.([]Value)
		if !ok {
			return nil, errors.New("field outputs: want a list of strings")
		}
		for i, e := range outs {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("field outputs[%d]: want a string", i)
			}
			rec.Outputs = append(rec.Outputs, s)
		}
	}
	return rec, nil
}
