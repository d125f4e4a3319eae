package apibank

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
)

// Layout of a data directory (the official api-bank folder plus
// api_specs.json, the API schemas extracted from api-bank/apis/*.py).
const (
	SpecsFile   = "api_specs.json"
	DatabaseDir = "init_database"
	SamplesDir  = "lv1-lv2-samples"
)

// GoldCall is one recorded API call of a dialogue.
type GoldCall struct {
	Name   string
	Params []Param // param_dict, in file order
	Result Result
}

// Dialogue is one sample file: the user's turns and the recorded calls.
type Dialogue struct {
	ID          string // "<subset>/<file stem>"
	Subset      string // "level-1-given-desc", "level-2-toolsearcher", ...
	File        string
	Level       int // the N of "-level-N-" in the file name
	Instruction string
	Calls       []GoldCall
}

// Skipped is a sample file that yields no task, and why.
type Skipped struct {
	File   string
	Reason string
}

// dataset is everything loaded from one data directory; read-only once built.
type dataset struct {
	specs        []APISpec
	byName       map[string]int
	searchable   []APISpec // every API except ToolSearcher itself
	searchIndex  searchIndex
	databases    map[string]any
	searchEngine *searchCorpus
	stubs        map[string]any // recorded outputs of APIs that are offline here
	dialogues    []*Dialogue
	skipped      []Skipped
}

func (d *dataset) spec(name string) (APISpec, bool) {
	i, ok := d.byName[name]
	if !ok {
		return APISpec{}, false
	}
	return d.specs[i], true
}

func (d *dataset) recorded(api, key string) (any, bool) {
	v, ok := d.stubs[api+"\x00"+key]
	return v, ok
}

// load reads a data directory from fsys.
func load(fsys fs.FS) (*dataset, error) {
	raw, err := fs.ReadFile(fsys, SpecsFile)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", SpecsFile, err)
	}
	specs, err := parseSpecs(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", SpecsFile, err)
	}
	d := &dataset{specs: specs, byName: map[string]int{}, databases: map[string]any{}, stubs: map[string]any{}}
	for i, s := range specs {
		d.byName[s.Name] = i
		if _, ok := apiFunc(s.Name); !ok {
			return nil, fmt.Errorf("%s: API %s has no implementation", SpecsFile, s.Name)
		}
		if s.Name != "ToolSearcher" {
			d.searchable = append(d.searchable, s)
		}
	}
	d.searchIndex = newSearchIndex(d.searchable)
	if err := d.loadDatabases(fsys); err != nil {
		return nil, err
	}
	if err := d.loadSamples(fsys); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *dataset) loadDatabases(fsys fs.FS) error {
	files, err := fs.Glob(fsys, DatabaseDir+"/*.json")
	if err != nil {
		return fmt.Errorf("list %s: %w", DatabaseDir, err)
	}
	if len(files) == 0 {
		return fmt.Errorf("%s: no database files", DatabaseDir)
	}
	for _, f := range files {
		raw, err := fs.ReadFile(fsys, f)
		if err != nil {
			return fmt.Errorf("read %s: %w", f, err)
		}
		v, err := decodeJSON(raw)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		name := strings.TrimSuffix(path.Base(f), ".json")
		d.databases[name] = v
		if name == "SearchEngine" {
			if d.searchEngine, err = newSearchCorpus(v); err != nil {
				return fmt.Errorf("%s: %w", f, err)
			}
		}
	}
	return nil
}

var levelRE = lazyre.New(`-level-(\d+)-`)

func (d *dataset) loadSamples(fsys fs.FS) error {
	files, err := fs.Glob(fsys, SamplesDir+"/*/*.jsonl")
	if err != nil {
		return fmt.Errorf("list %s: %w", SamplesDir, err)
	}
	if len(files) == 0 {
		return fmt.Errorf("%s: no dialogue files (*/*.jsonl)", SamplesDir)
	}
	sort.Strings(files)
	for _, f := range files {
		raw, err := fs.ReadFile(fsys, f)
		if err != nil {
			return fmt.Errorf("read %s: %w", f, err)
		}
		dlg, err := parseDialogue(f, raw)
		if err != nil {
			return err
		}
		if len(dlg.Calls) == 0 {
			reason := "no recorded API call"
			if len(bytes.TrimSpace(raw)) == 0 {
				reason = "empty file"
			}
			d.skipped = append(d.skipped, Skipped{File: f, Reason: reason})
			continue
		}
		for i, c := range dlg.Calls {
			if _, ok := d.spec(c.Name); !ok {
				return fmt.Errorf("%s: call %d: unknown API %q", f, i+1, c.Name)
			}
			d.record(c)
		}
		d.dialogues = append(d.dialogues, dlg)
	}
	return nil
}

// record keeps the outputs of the APIs that need outside services upstream.
func (d *dataset) record(c GoldCall) {
	if c.Result.Exception != nil {
		return
	}
	get := func(k string) string {
		for _, p := range c.Params {
			if p.Key == k {
				return p.Value
			}
		}
		return ""
	}
	var key string
	switch c.Name {
	case "Dictionary":
		key = dictionaryKey(get("keyword"))
	case "Translate":
		code := "en"
		for _, p := range c.Params {
			if p.Key == "tgt_lang" {
				var err error
				if code, err = languageCode(strings.ToLower(p.Value), true); err != nil {
					return
				}
			}
		}
		key = translateKey(get("src"), code)
	case "ImageCaption":
		key = strings.TrimSpace(get("url"))
	default:
		return
	}
	d.stubs[c.Name+"\x00"+key] = c.Result.Output
}

// parseDialogue reads one sample file: one message per line, or (LifeMem's
// test copy) lines of {instruction, api_list, message}.
func parseDialogue(file string, raw []byte) (*Dialogue, error) {
	base := path.Base(file)
	stem := strings.TrimSuffix(base, ".jsonl")
	subset := path.Base(path.Dir(file))
	dlg := &Dialogue{ID: subset + "/" + stem, Subset: subset, File: file}
	if m := levelRE.FindStringSubmatch(base); m != nil {
		dlg.Level, _ = strconv.Atoi(m[1])
	}
	var users []string
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		v, err := decodeJSON(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		obj, ok := v.(*Dict)
		if !ok {
			return nil, fmt.Errorf("%s:%d: not a JSON object", file, line)
		}
		msgs := []any{obj}
		if m, ok := obj.Get("message"); ok {
			if msgs, ok = m.([]any); !ok {
				return nil, fmt.Errorf("%s:%d: field message: not a list", file, line)
			}
		}
		for i, x := range msgs {
			msg, ok := x.(*Dict)
			if !ok {
				return nil, fmt.Errorf("%s:%d: message %d: not an object", file, line, i+1)
			}
			if err := addMessage(dlg, &users, msg); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", file, line, err)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	dlg.Instruction = strings.Join(users, " ")
	return dlg, nil
}

func addMessage(dlg *Dialogue, users *[]string, msg *Dict) error {
	switch role := msg.Str("role"); role {
	case "User":
		*users = append(*users, msg.Str("text"))
	case "AI":
	case "API":
		name := msg.Str("api_name")
		if name == "" {
			return fmt.Errorf("field api_name: missing")
		}
		pd, ok := mustGet(msg, "param_dict").(*Dict)
		if !ok {
			return fmt.Errorf("field param_dict: not an object")
		}
		res, ok := mustGet(msg, "result").(*Dict)
		if !ok {
			return fmt.Errorf("field result: not an object")
		}
		c := GoldCall{Name: name, Result: resultFromDict(res, name)}
		for _, k := range pd.Keys() {
			v, _ := pd.Get(k)
			c.Params = append(c.Params, Param{Key: k.(string), Value: pyStr(v)})
		}
		dlg.Calls = append(dlg.Calls, c)
	default:
		return fmt.Errorf("field role: unknown role %q", role)
	}
	return nil
}
