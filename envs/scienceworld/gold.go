package scienceworld

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// GoldFile is ScienceWorld's goldsequences-*.json: gold paths keyed by the
// task index (as a string).
type GoldFile map[string]GoldTask

// GoldTask is one task type's gold paths.
type GoldTask struct {
	TaskIdx             int             `json:"taskIdx"`
	TaskName            string          `json:"taskName"`
	GoldActionSequences []GoldVariation `json:"goldActionSequences"`
}

// GoldVariation is the gold path of one (task, variation).
type GoldVariation struct {
	VariationIdx    int        `json:"variationIdx"`
	Fold            string     `json:"fold"`
	TaskDescription string     `json:"taskDescription"`
	Path            []GoldStep `json:"path"`
}

// GoldStep is one recorded action. The official files store every value as
// a string ("0.04", "true"); numbers and booleans are accepted too.
type GoldStep struct {
	Action      string    `json:"action"`
	Observation string    `json:"observation"`
	Score       looseText `json:"score"`
	IsCompleted looseText `json:"isCompleted"`
	// Freelook and Inventory are the "look around" and "inventory" texts in
	// the state before the action.
	Freelook  string `json:"freelook"`
	Inventory string `json:"inventory"`
}

// looseText holds a JSON string, number or boolean as text.
type looseText string

func (t *looseText) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = looseText(s)
		return nil
	}
	switch s := string(b); {
	case s == "true" || s == "false":
		*t = looseText(s)
	case json.Valid(b) && len(b) > 0 && (b[0] == '-' || (b[0] >= '0' && b[0] <= '9')):
		*t = looseText(s)
	default:
		return fmt.Errorf("want a string, number or boolean, got %s", snippet(b))
	}
	return nil
}

// ScoreFraction is the step's score as recorded (0–1 in the official files).
func (s GoldStep) ScoreFraction() (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(string(s.Score)), 64)
	if err != nil || f != f {
		return 0, fmt.Errorf("field score: %q is not a number", s.Score)
	}
	return f, nil
}

// Completed reports the step's isCompleted flag.
func (s GoldStep) Completed() (bool, error) {
	switch strings.ToLower(strings.TrimSpace(string(s.IsCompleted))) {
	case "true":
		return true, nil
	case "false", "":
		return false, nil
	}
	return false, fmt.Errorf("field isCompleted: %q is not true or false", s.IsCompleted)
}

// ParseGoldFile decodes and checks a gold-sequence file; errors name the
// file, the line where the offending task starts, and the field.
func ParseGoldFile(name string, data []byte) (GoldFile, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("%s:%d: want a JSON object keyed by task index", name, lineAt(data, dec.InputOffset()))
	}
	out := GoldFile{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, jsonErr(name, data, dec, err)
		}
		key, _ := tok.(string)
		base := dec.InputOffset()
		start := lineAt(data, base)
		var t GoldTask
		if err := dec.Decode(&t); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				// The decoder counts type-error offsets from the value's start.
				return nil, fmt.Errorf("%s:%d: task %q: field %s: %w", name, lineAt(data, base+te.Offset), key, te.Field, err)
			}
			return nil, jsonErr(name, data, dec, fmt.Errorf("task %q: %w", key, err))
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("%s:%d: task %q appears twice", name, start, key)
		}
		if err := t.check(key); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, start, err)
		}
		out[key] = t
	}
	if _, err := dec.Token(); err != nil {
		return nil, jsonErr(name, data, dec, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no tasks", name)
	}
	return out, nil
}

func (t GoldTask) check(key string) error {
	if strings.TrimSpace(t.TaskName) == "" {
		return fmt.Errorf("task %q: field taskName is empty", key)
	}
	if len(t.GoldActionSequences) == 0 {
		return fmt.Errorf("task %q: field goldActionSequences is empty", key)
	}
	seen := map[int]bool{}
	for i, v := range t.GoldActionSequences {
		where := fmt.Sprintf("task %q goldActionSequences[%d] (variation %d)", key, i, v.VariationIdx)
		if v.VariationIdx < 0 || seen[v.VariationIdx] {
			return fmt.Errorf("%s: field variationIdx is negative or repeated", where)
		}
		seen[v.VariationIdx] = true
		if len(v.Path) == 0 {
			return fmt.Errorf("%s: field path is empty", where)
		}
		for j, st := range v.Path {
			if strings.TrimSpace(st.Action) == "" {
				return fmt.Errorf("%s path[%d]: field action is empty", where, j)
			}
			if _, err := st.ScoreFraction(); err != nil {
				return fmt.Errorf("%s path[%d]: %w", where, j, err)
			}
			if _, err := st.Completed(); err != nil {
				return fmt.Errorf("%s path[%d]: %w", where, j, err)
			}
		}
	}
	return nil
}

// Keys returns the file's task keys in numeric order.
func (g GoldFile) Keys() []string {
	keys := make([]string, 0, len(g))
	for k := range g {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, errA := strconv.Atoi(keys[i])
		b, errB := strconv.Atoi(keys[j])
		if errA == nil && errB == nil && a != b {
			return a < b
		}
		return keys[i] < keys[j]
	})
	return keys
}

func jsonErr(name string, data []byte, dec *json.Decoder, err error) error {
	off := dec.InputOffset()
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	}
	return fmt.Errorf("%s:%d: %w", name, lineAt(data, off), err)
}

// lineAt is the 1-based line of byte offset off.
func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}
