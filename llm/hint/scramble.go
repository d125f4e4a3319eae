package hint

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
)

// Scramble returns a deep copy of h in which every value the prompt does
// not show is replaced by noise: strings that do not occur in shown
// (case-insensitively, as written or in the JSON string encoding a prompt
// that shows JSON gives them; multi-line strings line by line), integers whose decimal form does not occur in it,
// and every floating-point value (a prompt shows text, so vectors and
// scores carried beside it are exactly what a reader must not use).
// Booleans are kept: they stand for wording the prompt does show (a
// "successful trial" heading, a "(done)" mark), not for a substring.
// Fields named in keep (by Go field name, at any depth) are copied as they
// are; callers name fields the prompt states in other words (the
// environment, which the instructions describe without naming it).
//
// Scramble is the no-peek check's tool: a sim whose answers do not change
// when its hints are scrambled decides from the prompt text alone.
func Scramble(h any, shown string, seed uint64, keep ...string) any {
	if h == nil {
		return nil
	}
	s := &scrambler{shown: strings.ToLower(shown), rng: rand.New(rand.NewPCG(seed, 0x6e6f_7065_656b)), keep: map[string]bool{}}
	for _, k := range keep {
		s.keep[k] = true
	}
	v := reflect.ValueOf(h)
	out := reflect.New(v.Type()).Elem()
	s.copy(out, v)
	return out.Interface()
}

type scrambler struct {
	shown string
	rng   *rand.Rand
	keep  map[string]bool
}

func (s *scrambler) noise() string {
	const letters = "bcdfghjklmnpqrstvwxz"
	var b strings.Builder
	b.WriteString("zz")
	for range 8 {
		b.WriteByte(letters[s.rng.IntN(len(letters))])
	}
	return b.String()
}

// str keeps a string the prompt shows; a multi-line string (a memory
// block, a transcript) is judged line by line, since a prompt may lay the
// same lines out differently around them.
func (s *scrambler) str(v string) string {
	if v == "" || s.has(v) {
		return v
	}
	if !strings.Contains(v, "\n") {
		return s.noise()
	}
	lines := strings.Split(v, "\n")
	for i, l := range lines {
		if t := strings.TrimSpace(l); t != "" && !s.has(t) {
			lines[i] = s.noise()
		}
	}
	return strings.Join(lines, "\n")
}

// has reports whether the prompt shows v: as written, or JSON-encoded (a
// prompt laying trajectories out as JSON shows `a & b` as `a \u0026 b` and
// a quote as `\"`, which a reader decodes).
func (s *scrambler) has(v string) bool {
	if strings.Contains(s.shown, strings.ToLower(v)) {
		return true
	}
	b, err := json.Marshal(v)
	if err != nil {
		return false
	}
	enc := strings.ToLower(string(b[1 : len(b)-1]))
	return enc != strings.ToLower(v) && strings.Contains(s.shown, enc)
}

func (s *scrambler) copy(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Elem().Type())
		s.copy(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Interface:
		if src.IsNil() {
			return
		}
		e := reflect.New(src.Elem().Type()).Elem()
		s.copy(e, src.Elem())
		dst.Set(e)
	case reflect.Struct:
		t := src.Type()
		for i := range src.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			if s.keep[f.Name] {
				dst.Field(i).Set(src.Field(i))
				continue
			}
			s.copy(dst.Field(i), src.Field(i))
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		out := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := range src.Len() {
			s.copy(out.Index(i), src.Index(i))
		}
		dst.Set(out)
	case reflect.Array:
		for i := range src.Len() {
			s.copy(dst.Index(i), src.Index(i))
		}
	case reflect.Map:
		if src.IsNil() {
			return
		}
		out := reflect.MakeMapWithSize(src.Type(), src.Len())
		iter := src.MapRange()
		for iter.Next() {
			v := reflect.New(iter.Value().Type()).Elem()
			s.copy(v, iter.Value())
			out.SetMapIndex(iter.Key(), v)
		}
		dst.Set(out)
	case reflect.String:
		dst.SetString(s.str(src.String()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v := src.Int()
		if strings.Contains(s.shown, strconv.FormatInt(v, 10)) {
			dst.SetInt(v)
			return
		}
		dst.SetInt(v + 1 + s.rng.Int64N(7))
	case reflect.Float32, reflect.Float64:
		dst.SetFloat(s.rng.Float64()*2 - 1)
	default:
		dst.Set(src)
	}
}
