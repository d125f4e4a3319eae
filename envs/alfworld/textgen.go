package alfworld

import (
	"fmt"
	"sort"
	"strings"
)

type symKind uint8

const (
	sTerm    symKind = iota
	sNonterm         // #name#
	sEval            // expression inside {...}
	sCond            // {expr | given}
	sList            // [{expr | given}]
)

// symbol is one piece of a grammar right-hand side, in TextWorld's
// context-sensitive grammar notation.
type symbol struct {
	kind  symKind
	text  string  // terminal text, nonterminal name or expression
	given string  // query of a conditional ("" = current context only)
	inner *symbol // expression of a conditional, conditional of a list
}

// parseSymbols splits a right-hand side into symbols. Characters that start
// no symbol are kept as text, as TextWorld's parser tolerates them.
func parseSymbols(rhs string) ([]symbol, error) {
	rhs = strings.ReplaceAll(rhs, `\n`, "\n")
	var out []symbol
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			out = append(out, symbol{kind: sTerm, text: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(rhs); {
		switch rhs[i] {
		case '\t':
			i++ // TextWorld's grammar skips tabs between symbols
			continue
		case '#':
			end := strings.IndexByte(rhs[i+1:], '#')
			if end < 0 {
				return nil, fmt.Errorf("unclosed '#' in %q", rhs)
			}
			flush()
			out = append(out, symbol{kind: sNonterm, text: rhs[i+1 : i+1+end]})
			i += end + 2
			continue
		case '{':
			c, n, err := parseConditional(rhs[i:])
			if err != nil {
				return nil, err
			}
			flush()
			out = append(out, c)
			i += n
			continue
		case '[':
			if i+1 < len(rhs) && rhs[i+1] == '{' {
				c, n, err := parseConditional(rhs[i+1:])
				if err != nil {
					return nil, err
				}
				if i+1+n >= len(rhs) || rhs[i+1+n] != ']' {
					return nil, fmt.Errorf("unclosed '[' in %q", rhs)
				}
				flush()
				out = append(out, symbol{kind: sList, inner: &c})
				i += n + 2
				continue
			}
		}
		lit.WriteByte(rhs[i])
		i++
	}
	flush()
	return out, nil
}

// parseConditional reads "{expr}" or "{expr | given}" at the start of s and
// returns it with the number of bytes read.
func parseConditional(s string) (symbol, int, error) {
	end := strings.IndexByte(s, '}')
	if end < 0 {
		return symbol{}, 0, fmt.Errorf("unclosed '{' in %q", s)
	}
	body := s[1:end]
	expr, given, _ := strings.Cut(body, "|")
	expr = strings.TrimRight(expr, " \t")
	given = strings.TrimSpace(given)
	var inner symbol
	if t := strings.TrimSpace(expr); strings.HasPrefix(t, "#") && strings.HasSuffix(t, "#") && len(t) > 1 {
		inner = symbol{kind: sNonterm, text: t[1 : len(t)-1]}
	} else {
		inner = symbol{kind: sEval, text: expr}
	}
	return symbol{kind: sCond, inner: &inner, given: given}, end + 1, nil
}

// binding maps grammar variables (action parameters and query variables,
// lower-cased) to entities.
type binding map[string]int32

func (b binding) with(k string, v int32) binding {
	c := make(binding, len(b)+1)
	for x, y := range b {
		c[x] = y
	}
	c[k] = v
	return c
}

// speaker expands grammar symbols against a state.
type speaker struct {
	g  *grammar
	w  *world
	st *state
	qs map[string]*query // compiled queries, shared by the game
}

// maxExpansions bounds derivations so a recursive grammar cannot loop.
const maxExpansions = 10000

func (sp *speaker) derive(syms []symbol, b binding) (string, error) {
	var out strings.Builder
	budget := maxExpansions
	if err := sp.expand(syms, b, &out, &budget); err != nil {
		return "", err
	}
	return out.String(), nil
}

func (sp *speaker) expand(syms []symbol, b binding, out *strings.Builder, budget *int) error {
	for i := range syms {
		if err := sp.expandOne(&syms[i], b, out, budget); err != nil {
			return err
		}
	}
	return nil
}

func (sp *speaker) expandOne(s *symbol, b binding, out *strings.Builder, budget *int) error {
	*budget--
	if *budget < 0 {
		return fmt.Errorf("grammar expansion too deep")
	}
	switch s.kind {
	case sTerm:
		out.WriteString(s.text)
	case sNonterm:
		rule, err := sp.pick(s.text, b)
		if err != nil {
			return err
		}
		return sp.expand(rule, b, out, budget)
	case sEval:
		v, err := sp.eval(s.text, b)
		if err != nil {
			return err
		}
		out.WriteString(v)
	case sCond:
		items, err := sp.items(s, b, budget)
		if err != nil {
			return err
		}
		for _, it := range items {
			out.WriteString(it)
		}
	case sList:
		items, err := sp.items(s.inner, b, budget)
		if err != nil {
			return err
		}
		return sp.list(items, b, out, budget)
	}
	return nil
}

// items derives a conditional once per assignment of its query.
func (sp *speaker) items(c *symbol, b binding, budget *int) ([]string, error) {
	ctxs := []binding{b}
	if c.given != "" {
		var err error
		if ctxs, err = sp.query(c.given, b); err != nil {
			return nil, err
		}
	}
	out := make([]string, 0, len(ctxs))
	for _, cb := range ctxs {
		var sb strings.Builder
		if err := sp.expandOne(c.inner, cb, &sb, budget); err != nil {
			return nil, err
		}
		out = append(out, sb.String())
	}
	return out, nil
}

// list writes items the way TextWorld's display_list does: "nothing"
// (list_empty) for none, "a, b, and c" (list_separator,
// list_last_separator) for several.
func (sp *speaker) list(items []string, b binding, out *strings.Builder, budget *int) error {
	sep := func(name string) error {
		return sp.expandOne(&symbol{kind: sNonterm, text: name}, b, out, budget)
	}
	switch len(items) {
	case 0:
		return sep("list_empty")
	case 1:
		out.WriteString(items[0])
		return nil
	}
	for i, it := range items {
		switch {
		case i == len(items)-1:
			if err := sep("list_last_separator"); err != nil {
				return err
			}
		case i > 0:
			if err := sep("list_separator"); err != nil {
				return err
			}
		}
		out.WriteString(it)
	}
	return nil
}

// pick returns the first alternative of a rule whose condition holds.
func (sp *speaker) pick(name string, b binding) ([]symbol, error) {
	alts, ok := sp.g.rules[name]
	if !ok {
		return nil, fmt.Errorf("grammar has no symbol #%s#", name)
	}
	for _, r := range alts {
		if r.condition == "" {
			return r.rhs, nil
		}
		ctxs, err := sp.query(r.condition, b)
		if err != nil {
			return nil, err
		}
		if len(ctxs) > 0 {
			return r.rhs, nil
		}
	}
	return nil, fmt.Errorf("no alternative of #%s# applies", name)
}

// eval evaluates the small expression language ALFWorld's grammar uses:
// "o.name", "r.name or r.id", "o.indefinite + ' ' + o.name", or a bare
// variable (its name, as in command templates "take {o} from {r}").
func (sp *speaker) eval(expr string, b binding) (string, error) {
	var out strings.Builder
	for _, part := range splitPlus(expr) {
		part = strings.TrimSpace(part)
		if len(part) >= 2 && (part[0] == '\'' || part[0] == '"') && part[len(part)-1] == part[0] {
			out.WriteString(part[1 : len(part)-1])
			continue
		}
		val := ""
		for _, alt := range strings.Split(part, " or ") {
			v, err := sp.attr(strings.TrimSpace(alt), b)
			if err != nil {
				return "", err
			}
			if v != "" {
				val = v
				break
			}
		}
		out.WriteString(val)
	}
	return out.String(), nil
}

func splitPlus(s string) []string {
	var parts []string
	quote := byte(0)
	start := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '+':
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

func (sp *speaker) attr(ref string, b binding) (string, error) {
	v, field, hasField := strings.Cut(ref, ".")
	e, ok := b[strings.ToLower(v)]
	if !ok {
		return "", fmt.Errorf("expression %q: unbound variable %q", ref, v)
	}
	ent := sp.w.ents[e]
	if !hasField {
		return ent.name, nil
	}
	switch field {
	case "name":
		return ent.name, nil
	case "id":
		return ent.id, nil
	case "indefinite":
		return "a", nil // TextWorld's PDDL games use "a" for every entity
	case "definite":
		return "the", nil
	}
	return "", fmt.Errorf("expression %q: unknown attribute %q", ref, field)
}

// query is a compiled conjunctive query "p(x:t) & not_q(x:t, y:u)".
type query struct {
	vars  []string // variable names by slot
	types []int
	conj  []*formula
}

func (sp *speaker) compileQuery(text string) (*query, error) {
	if q, ok := sp.qs[text]; ok {
		return q, nil
	}
	q := &query{}
	slot := func(name, typ string) (int, error) {
		for i, v := range q.vars {
			if v == name {
				return i, nil
			}
		}
		t, ok := sp.w.dom.typeIdx[orRoot(typ)]
		if !ok {
			return 0, fmt.Errorf("query %q: unknown type %q", text, typ)
		}
		q.vars = append(q.vars, name)
		q.types = append(q.types, t)
		return len(q.vars) - 1, nil
	}
	for _, part := range strings.Split(text, "&") {
		part = strings.TrimSpace(part)
		open, close := strings.IndexByte(part, '('), strings.LastIndexByte(part, ')')
		if open <= 0 || close < open {
			return nil, fmt.Errorf("query %q: bad atom %q", text, part)
		}
		name := strings.ToLower(strings.TrimSpace(part[:open]))
		neg := strings.HasPrefix(name, "not_")
		name = strings.TrimPrefix(name, "not_")
		var args []term
		if inner := strings.TrimSpace(part[open+1 : close]); inner != "" {
			for _, a := range strings.Split(inner, ",") {
				v, t, _ := strings.Cut(strings.TrimSpace(a), ":")
				s, err := slot(strings.ToLower(strings.TrimSpace(v)), strings.ToLower(strings.TrimSpace(t)))
				if err != nil {
					return nil, err
				}
				args = append(args, term(s))
			}
		}
		var f *formula
		p, ok := sp.w.dom.predIdx[name]
		switch {
		case !ok || sp.w.dom.preds[p].arity != len(args):
			f = &formula{kind: fOr} // a predicate the domain lacks is never true
		default:
			f = &formula{kind: fAtom, pred: p, args: args}
		}
		if neg {
			f = &formula{kind: fNot, subs: []*formula{f}}
		}
		f.finish()
		q.conj = append(q.conj, f)
	}
	sp.qs[text] = q
	return q, nil
}

// query returns b extended by every assignment of the query's new
// variables, ordered by the entities' PDDL names (TextWorld lists things in
// that order: "a cabinet 3, a cabinet 2, a cabinet 1").
func (sp *speaker) query(text string, b binding) ([]binding, error) {
	q, err := sp.compileQuery(text)
	if err != nil {
		return nil, err
	}
	c := newCtx(sp.st, q.types)
	var free []int
	for i, v := range q.vars {
		if e, ok := b[v]; ok {
			c.b[i] = e
		} else {
			free = append(free, i)
		}
	}
	var rows [][]int32
	c.each(q.conj, free, func() bool {
		row := make([]int32, len(free))
		for i, s := range free {
			row[i] = c.b[s]
		}
		rows = append(rows, row)
		return true
	})
	sort.Slice(rows, func(i, j int) bool {
		for k := range rows[i] {
			a, b := sp.w.ents[rows[i][k]].id, sp.w.ents[rows[j][k]].id
			if a != b {
				return a < b
			}
		}
		return false
	})
	out := make([]binding, len(rows))
	for i, row := range rows {
		nb := make(binding, len(b)+len(row))
		for k, v := range b {
			nb[k] = v
		}
		for k, s := range free {
			nb[q.vars[s]] = row[k]
		}
		out[i] = nb
	}
	return out, nil
}
