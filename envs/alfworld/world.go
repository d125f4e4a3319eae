package alfworld

import (
	"fmt"
	"sort"
)

// entity is one PDDL object of a problem.
type entity struct {
	id   string // PDDL name, lower-cased ("cabinet_bar__plus_00_dot_65_...")
	typ  int
	name string // display name ("cabinet 3"), see names.go
}

// action is a domain action compiled against one problem's objects.
type action struct {
	def     *actionDef
	types   []int // slot types; the first len(def.params) are the parameters
	pre     *formula
	preConj []*formula
	eff     *formula
}

// world is a compiled game: domain, objects, initial facts and goal. It is
// immutable once built and shared by every episode of the game.
type world struct {
	dom       *domain
	ents      []entity
	entIdx    map[string]int
	byType    [][]int // entities of each type (subtypes included)
	init      []fact
	goal      *formula
	goalTypes []int
	actions   []action
}

// fact is a ground atom.
type fact struct {
	pred int32
	args [maxArity]int32
}

func newWorld(d *domain, p *problem) (*world, error) {
	w := &world{dom: d, entIdx: map[string]int{}}
	for _, o := range p.objects {
		t, ok := d.typeIdx[orRoot(o.typ)]
		if !ok {
			return nil, fmt.Errorf("object %s: unknown type %q", o.name, o.typ)
		}
		if _, dup := w.entIdx[o.name]; dup {
			continue // Fast Downward tolerates repeats; the first type wins
		}
		w.entIdx[o.name] = len(w.ents)
		w.ents = append(w.ents, entity{id: o.name, typ: t})
	}
	for _, s := range p.init {
		f, ok, err := w.groundInit(s)
		if err != nil {
			return nil, fmt.Errorf("init: %w", err)
		}
		if ok {
			w.init = append(w.init, f)
		}
	}
	sc := &scope{}
	g, err := w.compile(p.goal, sc, false)
	if err != nil {
		return nil, fmt.Errorf("goal: %w", err)
	}
	g.finish()
	w.goal, w.goalTypes = g, sc.types
	for i := range d.actions {
		a, err := w.compileAction(&d.actions[i])
		if err != nil {
			return nil, fmt.Errorf("action %s: %w", d.actions[i].name, err)
		}
		w.actions = append(w.actions, a)
	}
	// Constants met while compiling may have added entities.
	w.byType = make([][]int, len(d.types))
	for t := range d.types {
		for e := range w.ents {
			if d.isA(w.ents[e].typ, t) {
				w.byType[t] = append(w.byType[t], e)
			}
		}
	}
	return w, nil
}

// constant resolves a constant to an entity. An undeclared name (a type
// constant a problem does not mention) becomes an entity no fact mentions,
// so conditions on it are simply false.
func (w *world) constant(name string) int {
	if i, ok := w.entIdx[name]; ok {
		return i
	}
	w.entIdx[name] = len(w.ents)
	w.ents = append(w.ents, entity{id: name, typ: w.dom.typeIdx[rootType]})
	return len(w.ents) - 1
}

func (w *world) groundInit(s *sexpr) (fact, bool, error) {
	h := s.head()
	if h == "=" || h == "" {
		return fact{}, false, nil // numeric fluents (distances, costs)
	}
	p, ok := w.dom.predIdx[h]
	if !ok {
		return fact{}, false, fmt.Errorf("line %d: unknown predicate %q", s.line, h)
	}
	if len(s.list)-1 != w.dom.preds[p].arity {
		return fact{}, false, fmt.Errorf("line %d: %s takes %d arguments", s.line, h, w.dom.preds[p].arity)
	}
	f := fact{pred: int32(p)}
	for i, a := range s.list[1:] {
		if a.isList() {
			return fact{}, false, fmt.Errorf("line %d: nested term in %s", s.line, h)
		}
		e, ok := w.entIdx[a.atom]
		if !ok {
			return fact{}, false, fmt.Errorf("line %d: %s mentions undeclared object %q", s.line, h, a.atom)
		}
		f.args[i] = int32(e)
	}
	return f, true, nil
}

func (w *world) compileAction(def *actionDef) (action, error) {
	sc := &scope{}
	vars := make([]typedName, len(def.params))
	for i, p := range def.params {
		vars[i] = typedName{name: p.name, typ: w.dom.types[p.typ]}
	}
	if _, err := sc.push(vars, w, 0); err != nil {
		return action{}, err
	}
	a := action{def: def}
	var err error
	a.pre = &formula{kind: fTrue}
	if def.pre != nil {
		if a.pre, err = w.compile(def.pre, sc, false); err != nil {
			return action{}, fmt.Errorf("precondition: %w", err)
		}
	}
	a.eff = &formula{kind: fTrue}
	if def.eff != nil {
		if a.eff, err = w.compile(def.eff, sc, true); err != nil {
			return action{}, fmt.Errorf("effect: %w", err)
		}
	}
	a.pre.finish()
	a.eff.finish()
	a.preConj = conjuncts(a.pre, nil)
	a.types = sc.types
	return a, nil
}

// entIsA reports whether entity e has type t.
func (w *world) entIsA(e int32, t int) bool {
	return w.dom.isA(w.ents[e].typ, t)
}

// idOrder sorts entity indices by PDDL name, the order TextWorld lists them.
func (w *world) idOrder(es []int) {
	sort.Slice(es, func(i, j int) bool { return w.ents[es[i]].id < w.ents[es[j]].id })
}
