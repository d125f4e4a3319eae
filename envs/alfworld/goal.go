package alfworld

import (
	"fmt"
	"strings"
)

// The six ALFWorld task types, as named in the game directories.
const (
	PickAndPlace  = "pick_and_place_simple"
	LookAtInLight = "look_at_obj_in_light"
	PickClean     = "pick_clean_then_place_in_recep"
	PickHeat      = "pick_heat_then_place_in_recep"
	PickCool      = "pick_cool_then_place_in_recep"
	PickTwo       = "pick_two_obj_and_place"
)

// TaskSpec is what a game's PDDL goal asks, in ALFRED's terms. Type
// constants are PDDL names ("bowltype", "cabinettype").
type TaskSpec struct {
	Type       string
	Object     string // object type to move or look at
	Receptacle string // receptacle type to put it in ("" for look_at)
	Toggle     string // lamp type for look_at
}

// Describe words the task like ALFWorld's templates, for games whose
// grammar lacks a task line.
func (t TaskSpec) Describe() string {
	o, r, l := typeWord(t.Object), typeWord(t.Receptacle), typeWord(t.Toggle)
	switch t.Type {
	case LookAtInLight:
		return fmt.Sprintf("look at %s under the %s.", o, l)
	case PickClean:
		return fmt.Sprintf("put a clean %s in %s.", o, r)
	case PickHeat:
		return fmt.Sprintf("put a hot %s in %s.", o, r)
	case PickCool:
		return fmt.Sprintf("put a cool %s in %s.", o, r)
	case PickTwo:
		return fmt.Sprintf("put two %s in %s.", o, r)
	case PickAndPlace:
		return fmt.Sprintf("put a %s in %s.", o, r)
	}
	return "solve the task."
}

func typeWord(t string) string { return strings.TrimSuffix(t, "type") }

// analyseGoal reads the task out of the goal's atoms: objectType and
// receptacleType constants, the state predicates (isClean, isHot, isCool),
// isToggled with holds (look_at), and two objects told apart by '='
// (pick_two). A goal that fits none of the six types gets an empty Type.
func analyseGoal(w *world) (TaskSpec, error) {
	var (
		objType  = map[int]string{} // slot -> object type constant
		recType  string
		toggled  = map[int]bool{}
		held     = map[int]bool{}
		placed   = map[int]bool{}
		states   = map[string]bool{}
		distinct bool
	)
	pname := func(f *formula) string { return w.dom.preds[f.pred].name }
	constName := func(t term) string {
		if t.isVar() {
			return ""
		}
		return w.ents[t.entity()].id
	}
	var walk func(f *formula, negated bool)
	walk = func(f *formula, negated bool) {
		switch f.kind {
		case fNot:
			walk(f.subs[0], !negated)
		case fAnd, fOr, fExists, fForall:
			for _, g := range f.subs {
				walk(g, negated)
			}
		case fEq:
			distinct = distinct || negated
		case fAtom:
			if negated {
				return
			}
			a := f.args
			switch pname(f) {
			case "objecttype":
				if a[0].isVar() {
					objType[int(a[0])] = constName(a[1])
				}
			case "receptacletype":
				recType = constName(a[1])
			case "istoggled":
				if a[0].isVar() {
					toggled[int(a[0])] = true
				}
			case "holds":
				if a[1].isVar() {
					held[int(a[1])] = true
				}
			case "inreceptacle":
				if a[0].isVar() {
					placed[int(a[0])] = true
				}
			case "isclean", "ishot", "iscool":
				states[pname(f)] = true
			}
		}
	}
	walk(w.goal, false)
	var t TaskSpec
	switch {
	case len(toggled) > 0 && len(held) > 0:
		t.Type = LookAtInLight
		for s := range toggled {
			t.Toggle = objType[s]
		}
		for s := range held {
			t.Object = objType[s]
		}
		return t, nil
	case len(placed) == 2 && distinct:
		t.Type = PickTwo
	case states["isclean"]:
		t.Type = PickClean
	case states["ishot"]:
		t.Type = PickHeat
	case states["iscool"]:
		t.Type = PickCool
	case len(placed) == 1:
		t.Type = PickAndPlace
	default:
		return TaskSpec{}, nil
	}
	for s := range placed {
		t.Object = objType[s]
	}
	t.Receptacle = recType
	return t, nil
}
