package dbbench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
)

// Column is one column of a task's table.
type Column struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Table is a task's initial table. Row values are strings, json.Number or
// nil, as read from the data file.
type Table struct {
	Name    string   `json:"name"`
	Columns []Column `json:"column_info_list"`
	Rows    [][]any  `json:"row_list"`
}

// AnswerInfo is a task's gold answer: Direct rows for SELECT tasks, or the MD5
// table fingerprint for INSERT/UPDATE/DELETE tasks, plus the gold SQL.
type AnswerInfo struct {
	Direct [][]any `json:"direct"`
	MD5    *string `json:"md5"`
	SQL    string  `json:"sql"`
}

// Entry is one task of entry_dict.json.
type Entry struct {
	// Key is the entry's key in the file ("0".."499" upstream).
	Key         string     `json:"-"`
	SampleIndex int        `json:"sample_index"`
	Instruction string     `json:"instruction"`
	Table       Table      `json:"table_info"`
	Answer      AnswerInfo `json:"answer_info"`
	Skills      []string   `json:"skill_list"`
}

// IsSelect reports whether the task is judged on its answer rows (true) or
// on the table fingerprint (false).
func (e *Entry) IsSelect() bool { return e.Answer.MD5 == nil }

// Question is the user turn LifeMem shows: the question, then the table's
// name and headers (the older upstream variant, which LifeMem's
// trajectories use).
func (e *Entry) Question() string {
	names := make([]string, len(e.Table.Columns))
	for i, c := range e.Table.Columns {
		names[i] = c.Name
	}
	return fmt.Sprintf("%s\nThe name of this table is %s, and the headers of this table are %s.",
		e.Instruction, e.Table.Name, strings.Join(names, ", "))
}

// columnTypes maps the table's column names (lower case) to their types.
func (e *Entry) columnTypes() map[string]string {
	m := make(map[string]string, len(e.Table.Columns))
	for _, c := range e.Table.Columns {
		m[strings.ToLower(c.Name)] = c.Type
	}
	return m
}

var (
	// Identifiers are spliced into DDL, so they are kept to plain names.
	identRe = lazyre.New(`^[A-Za-z_][A-Za-z0-9_$]{0,63}$`)
	// Column types likewise: a type word with an optional size and UNSIGNED.
	typeRe = lazyre.New(`(?i)^[a-z]+( ?\(\d{1,3}(, ?\d{1,2})?\))?( unsigned)?$`)
	md5Re  = lazyre.New(`^[0-9a-f]{32}$`)
)

// parseEntries reads an entry_dict.json document: an object whose values
// are entries. Errors name the file, the line of the entry's key and the
// field at fault.
func parseEntries(file string, data []byte) ([]*Entry, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	lineOf := func(off int64) int { return 1 + bytes.Count(data[:min(int(off), len(data))], []byte("\n")) }
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("%s:1: %w", file, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("%s:1: want a JSON object of entries, got %v", file, tok)
	}
	var out []*Entry
	seen := map[string]bool{}
	for dec.More() {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, lineOf(off), err)
		}
		key, _ := tok.(string)
		line := lineOf(off + 1)
		var e Entry
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("%s:%d: entry %q: %w", file, line, key, err)
		}
		if seen[key] {
			return nil, fmt.Errorf("%s:%d: entry %q: duplicate key", file, line, key)
		}
		seen[key] = true
		e.Key = key
		if err := e.validate(); err != nil {
			return nil, fmt.Errorf("%s:%d: entry %q: %w", file, line, key, err)
		}
		out = append(out, &e)
	}
	if _, err := dec.Token(); err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s:%d: %w", file, lineOf(dec.InputOffset()), err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no entries", file)
	}
	return out, nil
}

// validate checks what the episode relies on; the message names the field.
func (e *Entry) validate() error {
	if strings.TrimSpace(e.Instruction) == "" {
		return fmt.Errorf("instruction: empty")
	}
	t := e.Table
	if !identRe.MatchString(t.Name) {
		return fmt.Errorf("table_info.name: %q is not a plain identifier", t.Name)
	}
	if len(t.Columns) == 0 {
		return fmt.Errorf("table_info.column_info_list: empty")
	}
	for i, c := range t.Columns {
		if !identRe.MatchString(c.Name) {
			return fmt.Errorf("table_info.column_info_list[%d].name: %q is not a plain identifier", i, c.Name)
		}
		if !typeRe.MatchString(c.Type) {
			return fmt.Errorf("table_info.column_info_list[%d].type: unsupported type %q", i, c.Type)
		}
	}
	for i, r := range t.Rows {
		if len(r) != len(t.Columns) {
			return fmt.Errorf("table_info.row_list[%d]: %d values for %d columns", i, len(r), len(t.Columns))
		}
		for j, v := range r {
			switch v.(type) {
			case string, json.Number, nil:
			default:
				return fmt.Errorf("table_info.row_list[%d][%d]: unsupported value %v", i, j, v)
			}
		}
	}
	a := e.Answer
	verb := strings.ToUpper(firstWord(a.SQL))
	switch {
	case strings.TrimSpace(a.SQL) == "":
		return fmt.Errorf("answer_info.sql: empty")
	case (a.Direct == nil) == (a.MD5 == nil):
		return fmt.Errorf("answer_info: exactly one of direct and md5 must be set")
	case a.MD5 != nil && verb != "INSERT" && verb != "UPDATE" && verb != "DELETE":
		return fmt.Errorf("answer_info.sql: md5 task with a %s statement", verb)
	case a.MD5 != nil && !md5Re.MatchString(*a.MD5) && *a.MD5 != "None":
		return fmt.Errorf("answer_info.md5: %q is not an MD5 hex digest", *a.MD5)
	case a.Direct != nil && verb != "SELECT":
		return fmt.Errorf("answer_info.sql: direct-answer task with a %s statement", verb)
	}
	for i, r := range a.Direct {
		for j, v := range r {
			switch v.(type) {
			case string, json.Number:
			default:
				return fmt.Errorf("answer_info.direct[%d][%d]: unsupported value %v", i, j, v)
			}
		}
	}
	return nil
}

func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}
