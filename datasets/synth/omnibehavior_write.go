package synth

import (
	"bufio"
	"fmt"
	"github.com/memharness/memharness/internal/pyfmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
)

// WriteOmniBehavior generates a dataset and writes one official per-user
// JSON file per user into dir/zh (and dir/en when cfg.English is set).
func WriteOmniBehavior(dir string, cfg OmniBehaviorConfig) error {
	d, err := GenerateOmniBehavior(cfg)
	if err != nil {
		return err
	}
	return d.Write(dir, cfg.English)
}

// Write writes <dir>/zh/<user>.json for every user, and
// <dir>/en/<user>.json with the English scene aliases and profile when
// english is true. A file is one object {"<user_id>": {"user_profile": ...,
// "action_history": [...]}}, UTF-8, one record per line; floats always carry
// a fraction ("59.0") as Python writes them.
func (d *OmniBehaviorData) Write(dir string, english bool) error {
	langs := []string{"zh"}
	if english {
		langs = append(langs, "en")
	}
	var buf []byte
	for _, lang := range langs {
		sub := filepath.Join(dir, lang)
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return fmt.Errorf("synth: %w", err)
		}
		for i := range d.Users {
			u := &d.Users[i]
			buf = u.appendJSON(buf[:0], lang == "en")
			err := writeFile(filepath.Join(sub, u.ID+".json"), func(w *bufio.Writer) { w.Write(buf) })
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func (u *OBUser) appendJSON(b []byte, en bool) []byte {
	profile := u.Profile
	if en {
		profile = u.ProfileEN
	}
	b = append(b, '{')
	b = pyfmt.AppendJSONString(b, u.ID)
	b = append(b, `: {"user_profile": `...)
	b = pyfmt.AppendJSONString(b, profile)
	b = append(b, `, "action_history": [`...)
	for i := range u.Records {
		r := &u.Records[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n"...)
		scene := r.Scene
		if en {
			scene = OmniBehaviorSceneEN(scene)
		}
		b = append(b, `{"type": `...)
		b = pyfmt.AppendJSONString(b, scene)
		b = append(b, `, "timestamp": `...)
		b = pyfmt.AppendJSONString(b, r.Timestamp)
		if r.Context != nil {
			b = append(b, `, "context": `...)
			b = appendJSONValue(b, r.Context)
		}
		b = append(b, `, "action": `...)
		b = appendJSONValue(b, r.Actions)
		b = append(b, '}')
	}
	return append(b, "\n]}}\n"...)
}

// appendJSONValue writes the value types an OBObject may hold, with
// Python's default separators.
func appendJSONValue(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case float64:
		b = strconv.AppendFloat(b, x, 'f', -1, 64)
		if x == math.Trunc(x) {
			b = append(b, ".0"...)
		}
		return b
	case string:
		return pyfmt.AppendJSONString(b, x)
	case []string:
		b = append(b, '[')
		for i, s := range x {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = pyfmt.AppendJSONString(b, s)
		}
		return append(b, ']')
	case OBObject:
		b = append(b, '{')
		for i, f := range x {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = pyfmt.AppendJSONString(b, f.Key)
			b = append(b, ": "...)
			b = appendJSONValue(b, f.Value)
		}
		return append(b, '}')
	case []OBObject:
		b = append(b, '[')
		for i, o := range x {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendJSONValue(b, o)
		}
		return append(b, ']')
	}
	panic(fmt.Sprintf("synth: unsupported JSON value %T", v))
}
