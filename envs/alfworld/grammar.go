package alfworld

import (
	"encoding/json"
	"fmt"
	"strings"
)

// grammarRule is one alternative of a TextWorld production: the first
// alternative whose condition holds is used.
type grammarRule struct {
	condition string
	rhs       []symbol
}

// grammar is a game's TextWorld grammar: production rules plus, per
// action, the command template and the feedback rule.
type grammar struct {
	rules    map[string][]grammarRule
	actions  map[string]actionText // by lower-cased action name
	template map[string][]symbol   // parsed command templates
	feedback map[string][]symbol   // parsed feedback rules
}

type actionText struct {
	template string
	feedback string
}

// parseGrammar reads the TextWorld ".twl2" format ALFWorld ships inside
// game.tw-pddl: a top-level `grammar :: """{json}""";` block and
// `action NAME { template :: "..."; feedback :: "..."; grammar :: """{json}"""; }`
// blocks whose JSON grammars are merged into one.
func parseGrammar(text string) (*grammar, error) {
	g := &grammar{rules: map[string][]grammarRule{}, actions: map[string]actionText{}, template: map[string][]symbol{}, feedback: map[string][]symbol{}}
	sc := &twlScanner{src: text, line: 1}
	for {
		tok, err := sc.next()
		if err != nil {
			return nil, err
		}
		switch tok.kind {
		case tEOF:
			return g, nil
		case tIdent:
			switch tok.text {
			case "grammar":
				block, err := sc.keyValue()
				if err != nil {
					return nil, err
				}
				if err := g.addJSON(block, tok.line); err != nil {
					return nil, err
				}
			case "action":
				if err := g.parseAction(sc); err != nil {
					return nil, err
				}
			default:
				return nil, fmt.Errorf("line %d: unexpected %q", tok.line, tok.text)
			}
		default:
			return nil, fmt.Errorf("line %d: unexpected %q", tok.line, tok.text)
		}
	}
}

func (g *grammar) parseAction(sc *twlScanner) error {
	name, err := sc.next()
	if err != nil {
		return err
	}
	if name.kind != tIdent {
		return fmt.Errorf("line %d: action without a name", name.line)
	}
	if open, err := sc.next(); err != nil || open.text != "{" {
		return fmt.Errorf("line %d: action %s: want '{'", name.line, name.text)
	}
	var at actionText
	for {
		key, err := sc.next()
		if err != nil {
			return err
		}
		if key.text == "}" && key.kind == tPunct {
			break
		}
		if key.kind != tIdent {
			return fmt.Errorf("line %d: action %s: unexpected %q", key.line, name.text, key.text)
		}
		val, err := sc.keyValue()
		if err != nil {
			return fmt.Errorf("action %s: %w", name.text, err)
		}
		switch key.text {
		case "template":
			at.template = val
		case "feedback":
			at.feedback = val
		case "grammar":
			if err := g.addJSON(val, key.line); err != nil {
				return fmt.Errorf("action %s: %w", name.text, err)
			}
		case "pddl":
		default:
			return fmt.Errorf("line %d: action %s: unknown key %q", key.line, name.text, key.text)
		}
	}
	lname := strings.ToLower(name.text)
	g.actions[lname] = at
	syms, err := parseSymbols(at.template)
	if err != nil {
		return fmt.Errorf("action %s: template: %w", name.text, err)
	}
	g.template[lname] = syms
	if syms, err = parseSymbols(at.feedback); err != nil {
		return fmt.Errorf("action %s: feedback: %w", name.text, err)
	}
	g.feedback[lname] = syms
	return nil
}

// addJSON merges one JSON block of rules; later blocks override earlier
// names, as TextWorld's dict.update does.
func (g *grammar) addJSON(block string, line int) error {
	var kept []string
	for _, l := range strings.Split(block, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			kept = append(kept, l)
		}
	}
	var data map[string][]struct {
		RHS       string `json:"rhs"`
		Condition string `json:"condition"`
	}
	if err := json.Unmarshal([]byte(strings.Join(kept, "\n")), &data); err != nil {
		return fmt.Errorf("grammar block at line %d: %w", line, err)
	}
	for name, alts := range data {
		rules := make([]grammarRule, 0, len(alts))
		for _, a := range alts {
			syms, err := parseSymbols(a.RHS)
			if err != nil {
				return fmt.Errorf("grammar block at line %d: rule %q: %w", line, name, err)
			}
			rules = append(rules, grammarRule{condition: a.Condition, rhs: syms})
		}
		g.rules[name] = rules
	}
	return nil
}

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tString
	tPunct
)

type twlToken struct {
	kind tokKind
	text string
	line int
}

type twlScanner struct {
	src  string
	pos  int
	line int
}

// keyValue reads `:: VALUE ;` after a key.
func (s *twlScanner) keyValue() (string, error) {
	sep, err := s.next()
	if err != nil {
		return "", err
	}
	if sep.text != "::" {
		return "", fmt.Errorf("line %d: want '::', got %q", sep.line, sep.text)
	}
	val, err := s.next()
	if err != nil {
		return "", err
	}
	if val.kind != tString {
		return "", fmt.Errorf("line %d: want a string, got %q", val.line, val.text)
	}
	semi, err := s.next()
	if err != nil {
		return "", err
	}
	if semi.text != ";" {
		return "", fmt.Errorf("line %d: want ';', got %q", semi.line, semi.text)
	}
	return val.text, nil
}

func (s *twlScanner) next() (twlToken, error) {
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		if c == '\n' {
			s.line++
		}
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			break
		}
		s.pos++
	}
	if s.pos >= len(s.src) {
		return twlToken{kind: tEOF, line: s.line}, nil
	}
	line := s.line
	rest := s.src[s.pos:]
	switch {
	case strings.HasPrefix(rest, `"""`):
		end := strings.Index(rest[3:], `"""`)
		if end < 0 {
			return twlToken{}, fmt.Errorf("line %d: unclosed \"\"\"", line)
		}
		body := rest[3 : 3+end]
		s.pos += 6 + end
		s.line += strings.Count(body, "\n")
		return twlToken{kind: tString, text: body, line: line}, nil
	case rest[0] == '"':
		var b strings.Builder
		for i := 1; i < len(rest); i++ {
			switch rest[i] {
			case '\\':
				if i+1 < len(rest) {
					i++
					b.WriteByte(rest[i])
				}
			case '"':
				s.pos += i + 1
				return twlToken{kind: tString, text: b.String(), line: line}, nil
			case '\n':
				return twlToken{}, fmt.Errorf("line %d: unclosed string", line)
			default:
				b.WriteByte(rest[i])
			}
		}
		return twlToken{}, fmt.Errorf("line %d: unclosed string", line)
	case strings.HasPrefix(rest, "::"):
		s.pos += 2
		return twlToken{kind: tPunct, text: "::", line: line}, nil
	case rest[0] == '{' || rest[0] == '}' || rest[0] == ';':
		s.pos++
		return twlToken{kind: tPunct, text: rest[:1], line: line}, nil
	}
	i := 0
	for i < len(rest) && (isWordByte(rest[i]) || rest[i] == '.' || rest[i] == '-') {
		i++
	}
	if i == 0 {
		return twlToken{}, fmt.Errorf("line %d: unexpected character %q", line, rest[0])
	}
	s.pos += i
	return twlToken{kind: tIdent, text: rest[:i], line: line}, nil
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
