package alfworld

import (
	"fmt"
	"sort"
)

// grounding is one applicable action with its parameter values.
type grounding struct {
	act  int
	args []int32
}

// engine is the mutable play state of one game, like TextWorld's PddlEnv:
// after every change it recomputes the applicable actions and their
// command strings.
type engine struct {
	gm         *Game
	st         *state
	sp         *speaker
	cmds       map[string]grounding
	admissible []string
	won        bool
	moves      int
}

// maxParams bounds action parameters (the ALFRED domain needs 6).
const maxParams = 8

// nothingHappens is TextWorld's answer to a command that matches no
// applicable action.
const nothingHappens = "Nothing happens."

// newEngine starts the game and returns it with the intro text.
func (gm *Game) newEngine() (*engine, string, error) {
	st := newState(gm.w)
	e := &engine{gm: gm, st: st, sp: &speaker{g: gm.g, w: gm.w, st: st, qs: gm.qs}}
	intro, err := e.sp.derive(gm.intro, binding{})
	if err != nil {
		return nil, "", fmt.Errorf("intro: %w", err)
	}
	if err := e.refresh(); err != nil {
		return nil, "", err
	}
	return e, intro, nil
}

// clone copies the engine for look-ahead (the oracle's simulation).
func (e *engine) clone() *engine {
	st := e.st.clone()
	c := *e
	c.st = st
	c.sp = &speaker{g: e.gm.g, w: e.gm.w, st: st, qs: e.gm.qs}
	return &c
}

func (e *engine) refresh() error {
	var gs []grounding
	for ai := range e.gm.w.actions {
		a := &e.gm.w.actions[ai]
		n := len(a.def.params)
		params := make([]int, n)
		for i := range params {
			params[i] = i
		}
		c := newCtx(e.st, a.types)
		var found []grounding
		seen := map[[maxParams]int32]bool{}
		c.each(a.preConj, params, func() bool {
			var key [maxParams]int32
			copy(key[:], c.b[:n])
			if !seen[key] { // branching on 'or' may find a binding twice
				seen[key] = true
				found = append(found, grounding{act: ai, args: append([]int32(nil), c.b[:n]...)})
			}
			return true
		})
		sort.Slice(found, func(i, j int) bool { return lessArgs(found[i].args, found[j].args) })
		gs = append(gs, found...)
	}
	e.cmds = make(map[string]grounding, len(gs))
	e.admissible = e.admissible[:0]
	for _, g := range gs {
		def := e.gm.w.actions[g.act].def
		text, err := e.sp.derive(e.gm.g.template[def.name], e.bind(g))
		if err != nil {
			return fmt.Errorf("command for %s: %w", def.name, err)
		}
		if _, dup := e.cmds[text]; dup {
			continue // TextWorld keeps the first action with a given text
		}
		e.cmds[text] = g
		e.admissible = append(e.admissible, text)
	}
	sort.Strings(e.admissible)
	gc := newCtx(e.st, e.gm.w.goalTypes)
	e.won = gc.holds(e.gm.w.goal)
	return nil
}

func lessArgs(a, b []int32) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func (e *engine) bind(g grounding) binding {
	def := e.gm.w.actions[g.act].def
	b := make(binding, len(def.params))
	for i, p := range def.params {
		b[p.name] = g.args[i]
	}
	return b
}

// step plays one command. ok is false when the command matched no
// applicable action (the feedback is then "Nothing happens.").
func (e *engine) step(cmd string) (feedback string, ok bool, err error) {
	g, ok := e.cmds[cmd]
	if !ok {
		return nothingHappens, false, nil
	}
	a := &e.gm.w.actions[g.act]
	c := newCtx(e.st, a.types)
	copy(c.b, g.args)
	var add, del []fact
	c.effects(a.eff, &add, &del)
	for _, f := range del {
		e.st.del(f)
	}
	for _, f := range add {
		e.st.add(f) // PDDL: adds win over deletes of the same atom
	}
	e.moves++
	feedback, err = e.sp.derive(e.gm.g.feedback[a.def.name], e.bind(g))
	if err != nil {
		return "", false, fmt.Errorf("feedback for %s: %w", a.def.name, err)
	}
	if err := e.refresh(); err != nil {
		return "", false, err
	}
	return feedback, true, nil
}
