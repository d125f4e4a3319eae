package alfworld

// state is the set of true ground atoms, indexed by predicate.
type state struct {
	w      *world
	byPred []map[fact]struct{}
}

func newState(w *world) *state {
	st := &state{w: w, byPred: make([]map[fact]struct{}, len(w.dom.preds))}
	for i := range st.byPred {
		st.byPred[i] = map[fact]struct{}{}
	}
	for _, f := range w.init {
		st.byPred[f.pred][f] = struct{}{}
	}
	return st
}

func (st *state) clone() *state {
	c := &state{w: st.w, byPred: make([]map[fact]struct{}, len(st.byPred))}
	for i, m := range st.byPred {
		c.byPred[i] = make(map[fact]struct{}, len(m))
		for f := range m {
			c.byPred[i][f] = struct{}{}
		}
	}
	return c
}

func (st *state) has(f fact) bool {
	_, ok := st.byPred[f.pred][f]
	return ok
}

func (st *state) add(f fact) { st.byPred[f.pred][f] = struct{}{} }
func (st *state) del(f fact) { delete(st.byPred[f.pred], f) }

// ctx evaluates formulas of one action or goal: slot types and a binding.
type ctx struct {
	st    *state
	types []int
	b     []int32 // entity per slot, -1 when unbound
}

func newCtx(st *state, types []int) *ctx {
	b := make([]int32, len(types))
	for i := range b {
		b[i] = -1
	}
	return &ctx{st: st, types: types, b: b}
}

func (c *ctx) val(t term) int32 {
	if t.isVar() {
		return c.b[t]
	}
	return int32(t.entity())
}

func (c *ctx) ground(f *formula) fact {
	g := fact{pred: int32(f.pred)}
	for i, a := range f.args {
		g.args[i] = c.val(a)
	}
	return g
}

func (c *ctx) bound(slots []int) bool {
	for _, s := range slots {
		if c.b[s] < 0 {
			return false
		}
	}
	return true
}

// holds evaluates f; every free variable of f must be bound.
func (c *ctx) holds(f *formula) bool {
	switch f.kind {
	case fTrue:
		return true
	case fAtom:
		return c.st.has(c.ground(f))
	case fEq:
		return c.val(f.args[0]) == c.val(f.args[1])
	case fAnd:
		for _, g := range f.subs {
			if !c.holds(g) {
				return false
			}
		}
		return true
	case fOr:
		for _, g := range f.subs {
			if c.holds(g) {
				return true
			}
		}
		return false
	case fNot:
		return !c.holds(f.subs[0])
	case fExists:
		found := false
		c.each(f.body, f.vars, func() bool { found = true; return false })
		c.unbind(f.vars)
		return found
	case fForall:
		ok := true
		c.each(nil, f.vars, func() bool {
			if !c.holds(f.subs[0]) {
				ok = false
			}
			return ok
		})
		c.unbind(f.vars)
		return ok
	}
	return false
}

func (c *ctx) unbind(slots []int) {
	for _, s := range slots {
		c.b[s] = -1
	}
}

// each calls yield for every binding of the unbound slots among slots that
// makes every formula of conj true, and returns false when yield asked to
// stop. Atoms of the conjunction drive the search (their matching facts
// bind variables); existential conjuncts are lifted into the conjunction
// and disjunctions split into branches, so only variables no atom
// constrains are enumerated over their type. Lifting and branching may
// yield a binding of slots more than once. Bindings are restored before
// each returns.
func (c *ctx) each(conj []*formula, slots []int, yield func() bool) bool {
	var rest []*formula
	for _, f := range conj {
		if c.bound(f.free) {
			if !c.holds(f) {
				return true
			}
			continue
		}
		rest = append(rest, f)
	}
	if len(rest) == 0 {
		u := -1
		for _, s := range slots {
			if c.b[s] < 0 {
				u = s
				break
			}
		}
		if u < 0 {
			return yield()
		}
		return c.enumerate(u, nil, slots, yield)
	}
	var driver *formula
	bestUnbound, bestSize := 0, 0
	for i, f := range rest {
		switch f.kind {
		case fExists:
			lifted := append(without(rest, i), f.body...)
			return c.each(lifted, slots, yield)
		case fAtom:
			unbound := 0
			for _, a := range f.args {
				if a.isVar() && c.b[a] < 0 {
					unbound++
				}
			}
			size := len(c.st.byPred[f.pred])
			if driver == nil || unbound < bestUnbound || unbound == bestUnbound && size < bestSize {
				driver, bestUnbound, bestSize = f, unbound, size
			}
		}
	}
	if driver == nil {
		for i, f := range rest {
			if f.kind == fOr {
				others := without(rest, i)
				for _, d := range f.subs {
					branch := conjuncts(d, append([]*formula(nil), others...))
					if !c.each(branch, slots, yield) {
						return false
					}
				}
				return true
			}
		}
		for _, f := range rest {
			for _, s := range f.free {
				if c.b[s] < 0 {
					return c.enumerate(s, rest, slots, yield)
				}
			}
		}
		return true
	}
	var newly [maxArity]int
	for g := range c.st.byPred[driver.pred] {
		k, ok := 0, true
		for i, a := range driver.args {
			v := g.args[i]
			switch {
			case !a.isVar():
				ok = int32(a.entity()) == v
			case c.b[a] >= 0:
				ok = c.b[a] == v
			case !c.st.w.entIsA(v, c.types[a]):
				ok = false
			default:
				c.b[a] = v
				newly[k] = int(a)
				k++
			}
			if !ok {
				break
			}
		}
		cont := true
		if ok {
			cont = c.each(rest, slots, yield)
		}
		for _, s := range newly[:k] {
			c.b[s] = -1
		}
		if !cont {
			return false
		}
	}
	return true
}

// without returns fs minus its i-th element, as a new slice.
func without(fs []*formula, i int) []*formula {
	out := make([]*formula, 0, len(fs)-1)
	out = append(out, fs[:i]...)
	return append(out, fs[i+1:]...)
}

func (c *ctx) enumerate(u int, rest []*formula, slots []int, yield func() bool) bool {
	defer func() { c.b[u] = -1 }()
	for _, e := range c.st.w.byType[c.types[u]] {
		c.b[u] = int32(e)
		if !c.each(rest, slots, yield) {
			return false
		}
	}
	return true
}

// effects collects the atoms an effect adds and deletes, evaluating
// conditions in the state before the action.
func (c *ctx) effects(f *formula, add, del *[]fact) {
	switch f.kind {
	case fAnd:
		for _, g := range f.subs {
			c.effects(g, add, del)
		}
	case fAtom:
		*add = append(*add, c.ground(f))
	case fNot:
		*del = append(*del, c.ground(f.subs[0]))
	case fWhen:
		if c.holds(f.subs[0]) {
			c.effects(f.subs[1], add, del)
		}
	case fForall:
		c.each(nil, f.vars, func() bool { c.effects(f.subs[0], add, del); return true })
	}
}
