package alfworld

import (
	"fmt"
)

// Plan returns commands that solve the game, found by an expert that knows
// the whole state: it picks a fitting object and receptacle for the task
// type read from the PDDL goal and plays the ALFRED sub-goals (find, take,
// clean/heat/cool, put; or take and turn on a lamp). Every command is
// checked on a simulation of the game; the plan must end with the goal met.
func (gm *Game) Plan() ([]string, error) {
	e, _, err := gm.newEngine()
	if err != nil {
		return nil, err
	}
	p := &planner{e: e, w: gm.w}
	if err := p.solve(gm.Task); err != nil {
		return nil, err
	}
	if !p.e.won {
		return nil, fmt.Errorf("plan %q does not reach the goal", p.cmds)
	}
	return p.cmds, nil
}

type planner struct {
	e    *engine
	w    *world
	cmds []string
}

func (p *planner) solve(t TaskSpec) error {
	if p.e.won {
		return nil
	}
	switch t.Type {
	case PickAndPlace, PickClean, PickHeat, PickCool:
		need := map[string]string{PickClean: "cleanable", PickHeat: "heatable", PickCool: "coolable"}[t.Type]
		r, o, err := p.choose(t, need, 1)
		if err != nil {
			return err
		}
		if err := p.pick(o[0]); err != nil {
			return err
		}
		switch t.Type {
		case PickClean:
			err = p.treat(o[0], "clean", "sinkbasintype", "sinktype")
		case PickHeat:
			err = p.treat(o[0], "heat", "microwavetype")
		case PickCool:
			err = p.treat(o[0], "cool", "fridgetype")
		}
		if err != nil {
			return err
		}
		return p.put(o[0], r)
	case PickTwo:
		r, objs, err := p.choose(t, "", 2)
		if err != nil {
			return err
		}
		for _, o := range objs {
			if err := p.pick(o); err != nil {
				return err
			}
			if err := p.put(o, r); err != nil {
				return err
			}
		}
		return nil
	case LookAtInLight:
		return p.lookAt(t)
	}
	return fmt.Errorf("unsupported goal (no ALFWorld task type fits it)")
}

// choose picks the target receptacle and n objects to bring there (fewer
// when some already are).
func (p *planner) choose(t TaskSpec, need string, n int) (int, []int, error) {
	ot, okO := p.w.entIdx[t.Object]
	rt, okR := p.w.entIdx[t.Receptacle]
	if !okO || !okR {
		return 0, nil, fmt.Errorf("goal names unknown types %q, %q", t.Object, t.Receptacle)
	}
	if !p.has("cancontain", rt, ot) {
		return 0, nil, fmt.Errorf("no %s can hold a %s", t.Receptacle, t.Object)
	}
	objs := p.objectsOfType(ot, need)
	for _, r := range p.withType("receptacletype", rt) {
		var there, elsewhere []int
		for _, o := range objs {
			if p.has("inreceptacle", o, r) {
				there = append(there, o)
			} else {
				elsewhere = append(elsewhere, o)
			}
		}
		if n == 1 {
			// Any fitting object will do, even one already there (it
			// still needs cleaning, heating or cooling).
			if len(objs) > 0 {
				return r, objs[:1], nil
			}
			continue
		}
		if missing := n - len(there); missing <= len(elsewhere) {
			if missing < 0 {
				missing = 0
			}
			return r, elsewhere[:missing], nil
		}
	}
	return 0, nil, fmt.Errorf("no reachable %s (%d) for a %s", t.Object, len(objs), t.Receptacle)
}

// objectsOfType lists pickupable objects of type ot lying in a receptacle,
// with the extra property need when given, in PDDL-name order.
func (p *planner) objectsOfType(ot int, need string) []int {
	var out []int
	for _, o := range p.withType("objecttype", ot) {
		if !p.has("pickupable", o) || (need != "" && !p.has(need, o)) || p.container(o) < 0 {
			continue
		}
		out = append(out, o)
	}
	return out
}

func (p *planner) lookAt(t TaskSpec) error {
	ot, okO := p.w.entIdx[t.Object]
	lt, okL := p.w.entIdx[t.Toggle]
	if !okO || !okL {
		return fmt.Errorf("goal names unknown types %q, %q", t.Object, t.Toggle)
	}
	objs := p.objectsOfType(ot, "")
	if len(objs) == 0 {
		return fmt.Errorf("no %s to pick up", t.Object)
	}
	lamp := -1
	for _, l := range p.withType("objecttype", lt) {
		if p.has("toggleable", l) && p.container(l) >= 0 {
			lamp = l
			break
		}
	}
	if lamp < 0 {
		return fmt.Errorf("no usable %s", t.Toggle)
	}
	if err := p.pick(objs[0]); err != nil {
		return err
	}
	if err := p.do("go to " + p.name(p.container(lamp))); err != nil {
		return err
	}
	return p.do("use " + p.name(lamp))
}

func (p *planner) pick(o int) error {
	src := p.container(o)
	if err := p.goTo(src, true); err != nil {
		return err
	}
	return p.do(fmt.Sprintf("take %s from %s", p.name(o), p.name(src)))
}

func (p *planner) put(o, r int) error {
	if err := p.goTo(r, true); err != nil {
		return err
	}
	return p.do(fmt.Sprintf("put %s in/on %s", p.name(o), p.name(r)))
}

// treat cleans, heats or cools o with the first receptacle of one of the
// given types.
func (p *planner) treat(o int, verb string, types ...string) error {
	for _, t := range types {
		te, ok := p.w.entIdx[t]
		if !ok {
			continue
		}
		for _, r := range p.withType("receptacletype", te) {
			if err := p.goTo(r, false); err != nil {
				return err
			}
			return p.do(fmt.Sprintf("%s %s with %s", verb, p.name(o), p.name(r)))
		}
	}
	return fmt.Errorf("no %v to %s with", types, verb)
}

// goTo walks to r, opening it when its content is needed.
func (p *planner) goTo(r int, open bool) error {
	if err := p.do("go to " + p.name(r)); err != nil {
		return err
	}
	if open && p.has("openable", r) && !p.has("opened", r) {
		return p.do("open " + p.name(r))
	}
	return nil
}

func (p *planner) do(cmd string) error {
	if _, ok, err := p.e.step(cmd); err != nil {
		return err
	} else if !ok {
		return fmt.Errorf("step %d: %q is not admissible", len(p.cmds)+1, cmd)
	}
	p.cmds = append(p.cmds, cmd)
	return nil
}

func (p *planner) name(e int) string { return p.w.ents[e].name }

// has tests a fact by predicate name.
func (p *planner) has(pred string, args ...int) bool {
	pi, ok := p.w.dom.predIdx[pred]
	if !ok || len(args) != p.w.dom.preds[pi].arity {
		return false
	}
	f := fact{pred: int32(pi)}
	for i, a := range args {
		f.args[i] = int32(a)
	}
	return p.e.st.has(f)
}

// withType lists the first arguments of pred(x, typ) in PDDL-name order.
func (p *planner) withType(pred string, typ int) []int {
	pi, ok := p.w.dom.predIdx[pred]
	if !ok {
		return nil
	}
	var out []int
	for f := range p.e.st.byPred[pi] {
		if f.args[1] == int32(typ) {
			out = append(out, int(f.args[0]))
		}
	}
	p.w.idOrder(out)
	return out
}

// container is the receptacle o lies in, or -1.
func (p *planner) container(o int) int {
	pi, ok := p.w.dom.predIdx["inreceptacle"]
	if !ok {
		return -1
	}
	best := -1
	for f := range p.e.st.byPred[pi] {
		if f.args[0] == int32(o) && (best < 0 || p.w.ents[f.args[1]].id < p.w.ents[best].id) {
			best = int(f.args[1])
		}
	}
	return best
}
