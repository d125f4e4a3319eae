package alfworld

import (
	"fmt"
	"strings"
)

// rootType is PDDL's universal supertype. The ALFRED domain declares a type
// named "object" too, which Fast Downward merges with the root: a variable
// "?o - object" ranges over every entity, and predicates do the filtering.
const rootType = "object"

// domain is a parsed PDDL domain. Formulas stay as s-expressions until a
// problem supplies the objects their constants name (the ALFRED domain uses
// problem objects such as SinkBasinType as constants).
type domain struct {
	name    string
	types   []string
	typeIdx map[string]int
	parent  []int // parent type, -1 for the root
	preds   []predicate
	predIdx map[string]int
	actions []actionDef
}

type predicate struct {
	name  string
	arity int
}

type param struct {
	name string // without the leading '?'
	typ  int
}

type actionDef struct {
	name   string // lower-case, as Fast Downward and the grammar spell it
	params []param
	pre    *sexpr // nil when the action has no precondition
	eff    *sexpr
}

// maxArity bounds predicate arity; the ALFRED domain needs 2.
const maxArity = 3

func parseDomain(text string) (*domain, error) {
	root, err := parseSexpr(text)
	if err != nil {
		return nil, err
	}
	if root.head() != "define" {
		return nil, fmt.Errorf("line %d: want (define (domain ...) ...)", root.line)
	}
	d := &domain{typeIdx: map[string]int{}, predIdx: map[string]int{}}
	d.addType(rootType, -1)
	for _, part := range root.list[1:] {
		if err := d.parsePart(part); err != nil {
			return nil, err
		}
	}
	if d.name == "" {
		return nil, fmt.Errorf("line %d: domain has no name", root.line)
	}
	return d, nil
}

func (d *domain) addType(name string, parent int) int {
	if i, ok := d.typeIdx[name]; ok {
		if parent >= 0 && d.parent[i] < 0 && name != rootType {
			d.parent[i] = parent
		}
		return i
	}
	d.types = append(d.types, name)
	d.parent = append(d.parent, parent)
	d.typeIdx[name] = len(d.types) - 1
	return len(d.types) - 1
}

// isA reports whether type t is u or a subtype of u.
func (d *domain) isA(t, u int) bool {
	for steps := 0; t >= 0 && steps <= len(d.types); steps++ {
		if t == u {
			return true
		}
		t = d.parent[t]
	}
	return false
}

func (d *domain) parsePart(part *sexpr) error {
	if !part.isList() || len(part.list) == 0 {
		return fmt.Errorf("line %d: unexpected %q in domain", part.line, part.String())
	}
	switch part.head() {
	case "domain":
		if len(part.list) != 2 || part.list[1].isList() {
			return fmt.Errorf("line %d: bad (domain NAME)", part.line)
		}
		d.name = part.list[1].atom
	case ":requirements", ":functions", ":constants":
		// Requirements are implied by what we parse; numeric functions only
		// feed action costs, which text games ignore. The ALFRED domain has
		// no constants.
		if part.head() == ":constants" && len(part.list) > 1 {
			return fmt.Errorf("line %d: domain constants are not supported", part.line)
		}
	case ":types":
		names, err := typedList(part.list[1:], part.line)
		if err != nil {
			return fmt.Errorf("types: %w", err)
		}
		for _, n := range names {
			parent := d.addType(orRoot(n.typ), -1)
			d.addType(n.name, parent)
		}
	case ":predicates":
		for _, p := range part.list[1:] {
			if err := d.parsePredicate(p); err != nil {
				return err
			}
		}
	case ":action":
		return d.parseAction(part)
	default:
		return fmt.Errorf("line %d: unsupported domain section %q", part.line, part.head())
	}
	return nil
}

func orRoot(t string) string {
	if t == "" {
		return rootType
	}
	return t
}

func (d *domain) parsePredicate(p *sexpr) error {
	name := p.head()
	if name == "" {
		return fmt.Errorf("line %d: bad predicate %s", p.line, p.String())
	}
	args, err := typedList(p.list[1:], p.line)
	if err != nil {
		return fmt.Errorf("predicate %s: %w", name, err)
	}
	if len(args) > maxArity {
		return fmt.Errorf("line %d: predicate %s has arity %d (at most %d supported)", p.line, name, len(args), maxArity)
	}
	if _, dup := d.predIdx[name]; dup {
		return fmt.Errorf("line %d: predicate %s declared twice", p.line, name)
	}
	d.preds = append(d.preds, predicate{name: name, arity: len(args)})
	d.predIdx[name] = len(d.preds) - 1
	return nil
}

func (d *domain) parseAction(a *sexpr) error {
	if len(a.list) < 2 || a.list[1].isList() {
		return fmt.Errorf("line %d: action without a name", a.line)
	}
	act := actionDef{name: a.list[1].atom}
	for i := 2; i+1 < len(a.list); i += 2 {
		key, val := a.list[i], a.list[i+1]
		switch key.atom {
		case ":parameters":
			ps, err := typedList(val.list, val.line)
			if err != nil {
				return fmt.Errorf("action %s: %w", act.name, err)
			}
			for _, p := range ps {
				t, ok := d.typeIdx[orRoot(p.typ)]
				if !ok {
					return fmt.Errorf("line %d: action %s: unknown type %q", val.line, act.name, p.typ)
				}
				act.params = append(act.params, param{name: strings.TrimPrefix(p.name, "?"), typ: t})
			}
			if len(act.params) > maxParams {
				return fmt.Errorf("line %d: action %s has %d parameters (at most %d supported)", val.line, act.name, len(act.params), maxParams)
			}
		case ":precondition":
			if len(val.list) > 0 || !val.isList() {
				act.pre = val
			}
		case ":effect":
			act.eff = val
		default:
			return fmt.Errorf("line %d: action %s: unsupported key %q", key.line, act.name, key.atom)
		}
	}
	d.actions = append(d.actions, act)
	return nil
}

type typedName struct{ name, typ string }

// typedList reads "a b - t c - u d" into names with their types ("" when
// untyped).
func typedList(items []*sexpr, line int) ([]typedName, error) {
	var out []typedName
	pending := 0
	for i := 0; i < len(items); i++ {
		it := items[i]
		if it.isList() {
			return nil, fmt.Errorf("line %d: unexpected list %s", it.line, it.String())
		}
		if it.atom != "-" {
			out = append(out, typedName{name: it.atom})
			pending++
			continue
		}
		if i+1 >= len(items) || items[i+1].isList() {
			return nil, fmt.Errorf("line %d: '-' without a type", line)
		}
		if items[i+1].atom == "either" {
			return nil, fmt.Errorf("line %d: (either ...) types are not supported", line)
		}
		for j := len(out) - pending; j < len(out); j++ {
			out[j].typ = items[i+1].atom
		}
		pending = 0
		i++
	}
	return out, nil
}
