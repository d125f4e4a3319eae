package sim

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/memharness/memharness/llm"
)

// Reader answers the requests whose hint has one Go type. A method or an
// environment that attaches a hint of its own teaches the sim to read it by
// handing a Reader to New (through Readers), so this package never names a
// method or an environment: its knowledge of a kind's requests lives beside
// the kind.
type Reader struct {
	hint   reflect.Type
	answer func(s *Sim, req llm.Request, h any) (string, error)
}

// ReaderFor returns the Reader of hints of type H: a request carrying an H,
// or a non-nil *H, is answered by read with the hint's value. A nil *H is a
// bug in the method that sent it and an error naming the request's purpose.
func ReaderFor[H any](read func(s *Sim, req llm.Request, h H) (string, error)) Reader {
	return Reader{
		hint: reflect.TypeFor[H](),
		answer: func(s *Sim, req llm.Request, h any) (string, error) {
			switch v := h.(type) {
			case H:
				return read(s, req, v)
			case *H:
				if v != nil {
					return read(s, req, *v)
				}
			}
			return "", fmt.Errorf("sim: request %q carries a nil %T hint", req.Purpose, h)
		},
	}
}

// Hint names the hint type r reads.
func (r Reader) Hint() string {
	if r.hint == nil {
		return "<none>"
	}
	return r.hint.String()
}

// Readers is the set of hint readers a Sim is taught, keyed by hint type.
// The zero value is empty: every request then goes to the generic prompt
// reader. It is a value handed to New, never a package variable, so two
// runs in one process may teach their sims different kinds.
type Readers struct {
	byType map[reflect.Type]Reader
}

// NewReaders returns the Readers holding rs, or an error when two of them
// read the same hint type (the second would silently shadow the first).
func NewReaders(rs ...Reader) (Readers, error) {
	var out Readers
	return out, out.Add(rs...)
}

// Add registers rs. Reading one hint type twice, or a Reader not made by
// ReaderFor, is an error naming the type.
func (r *Readers) Add(rs ...Reader) error {
	for _, x := range rs {
		if x.hint == nil || x.answer == nil {
			return fmt.Errorf("sim: a reader without a hint type (build readers with sim.ReaderFor)")
		}
		if _, dup := r.byType[x.hint]; dup {
			return fmt.Errorf("sim: two readers for hint type %s", x.hint)
		}
		if r.byType == nil {
			r.byType = map[reflect.Type]Reader{}
		}
		r.byType[x.hint] = x
	}
	return nil
}

// Hints lists the hint types r reads, sorted, for messages and tests.
func (r Readers) Hints() []string {
	out := make([]string, 0, len(r.byType))
	for t := range r.byType {
		out = append(out, t.String())
	}
	slices.Sort(out)
	return out
}

func (r Readers) clone() Readers {
	if r.byType == nil {
		return r
	}
	c := Readers{byType: make(map[reflect.Type]Reader, len(r.byType))}
	for t, x := range r.byType {
		c.byType[t] = x
	}
	return c
}

// lookup finds the reader of h's type, or of the type h points to.
func (r Readers) lookup(h any) (Reader, bool) {
	t := reflect.TypeOf(h)
	if x, ok := r.byType[t]; ok {
		return x, true
	}
	if t.Kind() == reflect.Pointer {
		x, ok := r.byType[t.Elem()]
		return x, ok
	}
	return Reader{}, false
}
