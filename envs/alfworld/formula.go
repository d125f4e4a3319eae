package alfworld

import (
	"fmt"
	"strings"
)

type fkind uint8

const (
	fTrue fkind = iota
	fAtom
	fEq
	fAnd
	fOr
	fNot
	fExists
	fForall
	fWhen // effects only: (when cond eff)
)

// term is a variable slot (>= 0) or a constant entity (-(id+1)).
type term int32

func constTerm(id int) term { return term(-(id + 1)) }
func (t term) isVar() bool  { return t >= 0 }
func (t term) entity() int  { return int(-t) - 1 }

// formula is a compiled PDDL condition or effect. Variables are slots in a
// binding array shared by one action or goal.
type formula struct {
	kind fkind
	pred int
	args []term
	subs []*formula
	vars []int      // slots a quantifier introduces
	free []int      // free slots (computed once, used by the solver)
	body []*formula // conjuncts of a quantifier's body
}

// scope allocates variable slots while compiling one action or goal.
type scope struct {
	names []map[string]int // innermost last
	types []int            // type of each slot
}

func (sc *scope) lookup(name string) (int, bool) {
	for i := len(sc.names) - 1; i >= 0; i-- {
		if s, ok := sc.names[i][name]; ok {
			return s, true
		}
	}
	return 0, false
}

func (sc *scope) push(vars []typedName, w *world, line int) ([]int, error) {
	m := map[string]int{}
	slots := make([]int, 0, len(vars))
	for _, v := range vars {
		t, ok := w.dom.typeIdx[orRoot(v.typ)]
		if !ok {
			return nil, fmt.Errorf("line %d: unknown type %q", line, v.typ)
		}
		m[v.name] = len(sc.types)
		slots = append(slots, len(sc.types))
		sc.types = append(sc.types, t)
	}
	sc.names = append(sc.names, m)
	return slots, nil
}

func (sc *scope) pop() { sc.names = sc.names[:len(sc.names)-1] }

// compile turns an s-expression into a formula; effect selects the effect
// grammar (and, not, when, forall, increase).
func (w *world) compile(s *sexpr, sc *scope, effect bool) (*formula, error) {
	if !s.isList() {
		return nil, fmt.Errorf("line %d: expected a formula, got %q", s.line, s.atom)
	}
	if len(s.list) == 0 {
		return &formula{kind: fTrue}, nil
	}
	h := s.head()
	switch h {
	case "and", "or":
		if effect && h == "or" {
			return nil, fmt.Errorf("line %d: 'or' in an effect", s.line)
		}
		f := &formula{kind: fAnd}
		if h == "or" {
			f.kind = fOr
		}
		for _, c := range s.list[1:] {
			g, err := w.compile(c, sc, effect)
			if err != nil {
				return nil, err
			}
			if g != nil {
				f.subs = append(f.subs, g)
			}
		}
		return f, nil
	case "not":
		if len(s.list) != 2 {
			return nil, fmt.Errorf("line %d: (not F) takes one formula", s.line)
		}
		g, err := w.compile(s.list[1], sc, effect)
		if err != nil {
			return nil, err
		}
		if effect && g.kind != fAtom {
			return nil, fmt.Errorf("line %d: effects may only negate atoms", s.line)
		}
		return &formula{kind: fNot, subs: []*formula{g}}, nil
	case "exists", "forall":
		if len(s.list) != 3 || !s.list[1].isList() {
			return nil, fmt.Errorf("line %d: (%s (vars) F) expected", s.line, h)
		}
		if effect && h == "exists" {
			return nil, fmt.Errorf("line %d: 'exists' in an effect", s.line)
		}
		vars, err := typedList(s.list[1].list, s.line)
		if err != nil {
			return nil, err
		}
		for i := range vars {
			vars[i].name = strings.TrimPrefix(vars[i].name, "?")
		}
		slots, err := sc.push(vars, w, s.line)
		if err != nil {
			return nil, err
		}
		body, err := w.compile(s.list[2], sc, effect)
		sc.pop()
		if err != nil {
			return nil, err
		}
		k := fExists
		if h == "forall" {
			k = fForall
		}
		return &formula{kind: k, vars: slots, subs: []*formula{body}}, nil
	case "when":
		if !effect || len(s.list) != 3 {
			return nil, fmt.Errorf("line %d: (when C E) belongs in effects", s.line)
		}
		c, err := w.compile(s.list[1], sc, false)
		if err != nil {
			return nil, err
		}
		e, err := w.compile(s.list[2], sc, true)
		if err != nil {
			return nil, err
		}
		return &formula{kind: fWhen, subs: []*formula{c, e}}, nil
	case "increase", "decrease", "assign":
		if !effect {
			return nil, fmt.Errorf("line %d: %s outside an effect", s.line, h)
		}
		return nil, nil // action costs do not change the text game
	case "=":
		if len(s.list) != 3 {
			return nil, fmt.Errorf("line %d: (= a b) takes two terms", s.line)
		}
		args, err := w.terms(s.list[1:], sc)
		if err != nil {
			return nil, err
		}
		return &formula{kind: fEq, args: args}, nil
	case "imply":
		return nil, fmt.Errorf("line %d: 'imply' is not supported", s.line)
	}
	p, ok := w.dom.predIdx[h]
	if !ok {
		return nil, fmt.Errorf("line %d: unknown predicate %q", s.line, h)
	}
	if len(s.list)-1 != w.dom.preds[p].arity {
		return nil, fmt.Errorf("line %d: %s takes %d arguments, got %d", s.line, h, w.dom.preds[p].arity, len(s.list)-1)
	}
	args, err := w.terms(s.list[1:], sc)
	if err != nil {
		return nil, err
	}
	return &formula{kind: fAtom, pred: p, args: args}, nil
}

func (w *world) terms(items []*sexpr, sc *scope) ([]term, error) {
	out := make([]term, len(items))
	for i, it := range items {
		if it.isList() {
			return nil, fmt.Errorf("line %d: expected a term, got %s", it.line, it.String())
		}
		if strings.HasPrefix(it.atom, "?") {
			s, ok := sc.lookup(strings.TrimPrefix(it.atom, "?"))
			if !ok {
				return nil, fmt.Errorf("line %d: unbound variable %s", it.line, it.atom)
			}
			out[i] = term(s)
			continue
		}
		out[i] = constTerm(w.constant(it.atom))
	}
	return out, nil
}

// finish computes free-variable sets bottom-up.
func (f *formula) finish() {
	if f == nil {
		return
	}
	seen := map[int]bool{}
	add := func(s int) {
		if !seen[s] {
			seen[s] = true
			f.free = append(f.free, s)
		}
	}
	for _, a := range f.args {
		if a.isVar() {
			add(int(a))
		}
	}
	bound := map[int]bool{}
	for _, v := range f.vars {
		bound[v] = true
	}
	for _, g := range f.subs {
		g.finish()
		for _, s := range g.free {
			if !bound[s] {
				add(s)
			}
		}
	}
	if f.kind == fExists || f.kind == fForall {
		f.body = conjuncts(f.subs[0], nil)
	}
}

// conjuncts flattens nested 'and's.
func conjuncts(f *formula, out []*formula) []*formula {
	if f.kind == fAnd {
		for _, g := range f.subs {
			out = conjuncts(g, out)
		}
		return out
	}
	if f.kind == fTrue {
		return out
	}
	return append(out, f)
}
