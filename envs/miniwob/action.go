package miniwob

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind names one agent call of the Synapse action vocabulary.
type Kind string

// The calls an agent may make, as `agent.<kind>("...")`.
const (
	ClickXPath  Kind = "click_xpath"
	TypeText    Kind = "type"
	Press       Kind = "press"
	ClickOption Kind = "click_option"
	MoveMouse   Kind = "movemouse"
)

// Action is one parsed agent call.
type Action struct {
	Kind Kind
	Arg  string
}

// String renders a in the agent syntax (Python string quoting).
func (a Action) String() string {
	return "agent." + string(a.Kind) + "(" + strconv.Quote(a.Arg) + ")"
}

// Limits on what one turn may expand to; model text is untrusted.
const (
	maxLoopCount = 100
	maxLoopDepth = 3
	maxActions   = 500
	maxTextBytes = 64 << 10
)

// ParseActions reads the agent calls out of one model turn. Fenced code
// blocks (```) are parsed strictly when present; otherwise every line that
// starts like code is parsed and prose lines are skipped. Supported
// statements: `agent.<fn>("str")` for the five calls, `# comments`, and
// `for _ in range(n):` with an indented body (or one call on the same
// line). Nothing is ever executed as code.
func ParseActions(text string) ([]Action, error) {
	if len(text) > maxTextBytes {
		return nil, fmt.Errorf("action text is %d bytes (limit %d)", len(text), maxTextBytes)
	}
	lines, strict := codeLines(text)
	p := &parser{lines: lines, strict: strict}
	acts, err := p.block(0, -1)
	if err != nil {
		return nil, err
	}
	if len(acts) == 0 {
		return nil, fmt.Errorf("no agent call found (expected e.g. agent.click_xpath(\"//button\"))")
	}
	return acts, nil
}

// codeLines returns the lines to parse and whether they came from fences.
func codeLines(text string) ([]string, bool) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if !strings.Contains(text, "```") {
		return strings.Split(text, "\n"), false
	}
	var out []string
	parts := strings.Split(text, "```")
	for i := 1; i < len(parts); i += 2 { // odd parts sit inside fences
		body := parts[i]
		first, rest, found := strings.Cut(body, "\n")
		switch lang := strings.TrimSpace(first); {
		case found && (lang == "" || lang == "python" || lang == "py" || lang == "python3"):
			body = rest
		case !found:
			body = first
		}
		out = append(out, strings.Split(body, "\n")...)
	}
	return out, true
}

type parser struct {
	lines  []string
	strict bool
	pos    int
}

// block parses lines indented deeper than parentIndent, starting at p.pos,
// and returns their actions (one pass; loops repeat them).
func (p *parser) block(depth, parentIndent int) ([]Action, error) {
	var out []Action
	indent := -1
	for p.pos < len(p.lines) {
		raw := p.lines[p.pos]
		code := stripComment(raw)
		if strings.TrimSpace(code) == "" {
			p.pos++
			continue
		}
		ind := indentOf(code)
		if ind <= parentIndent {
			break
		}
		if indent < 0 {
			indent = ind
		} else if ind != indent {
			if ind < indent {
				break
			}
			return nil, p.errf("unexpected indentation")
		}
		stmt := strings.TrimSpace(code)
		stmt = strings.TrimSuffix(stmt, ";")
		switch {
		case strings.HasPrefix(stmt, "for "):
			acts, err := p.loop(stmt, depth, ind)
			if err != nil {
				return nil, err
			}
			out = append(out, acts...)
		case strings.HasPrefix(stmt, "agent."):
			a, err := parseCall(stmt)
			if err != nil {
				return nil, p.errf("%v", err)
			}
			p.pos++
			out = append(out, a)
		default:
			if p.strict {
				return nil, p.errf("unsupported statement %q (only agent.<fn>(\"...\") calls and for _ in range(n): loops)", clip(stmt, 60))
			}
			p.pos++ // prose around unfenced code
			continue
		}
		if len(out) > maxActions {
			return nil, p.errf("more than %d actions in one turn", maxActions)
		}
	}
	return out, nil
}

// loop parses `for _ in range(n):` and its body, returning n copies.
func (p *parser) loop(stmt string, depth, ind int) ([]Action, error) {
	if depth >= maxLoopDepth {
		return nil, p.errf("loops nested deeper than %d", maxLoopDepth)
	}
	n, inline, err := parseFor(stmt)
	if err != nil {
		return nil, p.errf("%v", err)
	}
	var body []Action
	if inline != "" {
		a, err := parseCall(inline)
		if err != nil {
			return nil, p.errf("%v", err)
		}
		p.pos++
		body = []Action{a}
	} else {
		p.pos++
		body, err = p.block(depth+1, ind)
		if err != nil {
			return nil, err
		}
		if len(body) == 0 {
			return nil, p.errf("for loop has no body")
		}
	}
	if n*len(body) > maxActions {
		return nil, p.errf("loop expands to %d actions (limit %d)", n*len(body), maxActions)
	}
	out := make([]Action, 0, n*len(body))
	for range n {
		out = append(out, body...)
	}
	return out, nil
}

func (p *parser) errf(format string, args ...any) error {
	line := p.pos + 1
	if p.pos >= len(p.lines) {
		line = len(p.lines)
	}
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
}

// parseFor reads `for <name> in range(<n>):[ <call>]`.
func parseFor(stmt string) (n int, inline string, err error) {
	rest := strings.TrimSpace(strings.TrimPrefix(stmt, "for "))
	name, rest, ok := strings.Cut(rest, " in ")
	if !ok || !isIdent(strings.TrimSpace(name)) {
		return 0, "", fmt.Errorf("bad for statement %q (want for _ in range(n):)", clip(stmt, 60))
	}
	rest = strings.TrimSpace(rest)
	if !strings.HasPrefix(rest, "range(") {
		return 0, "", fmt.Errorf("for loops may only iterate over range(n)")
	}
	num, after, ok := strings.Cut(rest[len("range("):], ")")
	if !ok {
		return 0, "", fmt.Errorf("unclosed range(")
	}
	n, err = strconv.Atoi(strings.TrimSpace(num))
	if err != nil || n < 0 || n > maxLoopCount {
		return 0, "", fmt.Errorf("range count %q must be an integer in [0, %d]", clip(num, 20), maxLoopCount)
	}
	after = strings.TrimSpace(after)
	if !strings.HasPrefix(after, ":") {
		return 0, "", fmt.Errorf("for statement must end with ':'")
	}
	return n, strings.TrimSuffix(strings.TrimSpace(after[1:]), ";"), nil
}

// parseCall reads `agent.<fn>(<string literal>)`, allowing one keyword
// name before the literal (xpath=, text=, key=).
func parseCall(stmt string) (Action, error) {
	rest := strings.TrimPrefix(stmt, "agent.")
	open := strings.IndexByte(rest, '(')
	if open < 0 {
		return Action{}, fmt.Errorf("call %q has no argument list", clip(stmt, 60))
	}
	kind := Kind(strings.TrimSpace(rest[:open]))
	switch kind {
	case ClickXPath, TypeText, Press, ClickOption, MoveMouse:
	default:
		return Action{}, fmt.Errorf("unknown call agent.%s (known: click_xpath, type, press, click_option, movemouse)", clip(string(kind), 30))
	}
	args := strings.TrimSpace(rest[open+1:])
	if k, v, ok := strings.Cut(args, "="); ok && isIdent(strings.TrimSpace(k)) {
		args = strings.TrimSpace(v)
	}
	arg, tail, err := readPyString(args)
	if err != nil {
		return Action{}, fmt.Errorf("agent.%s: %w", kind, err)
	}
	if strings.TrimSpace(tail) != ")" {
		return Action{}, fmt.Errorf("agent.%s takes exactly one string argument", kind)
	}
	if kind == Press {
		if _, err := parseKey(arg); err != nil {
			return Action{}, err
		}
	}
	return Action{Kind: kind, Arg: arg}, nil
}

// readPyString decodes a leading Python string literal ('...' or "...",
// optional r prefix) and returns it with the rest of s.
func readPyString(s string) (string, string, error) {
	raw := false
	if strings.HasPrefix(s, "r") || strings.HasPrefix(s, "R") {
		raw, s = true, s[1:]
	}
	if s == "" || (s[0] != '"' && s[0] != '\'') {
		return "", "", fmt.Errorf("argument must be a string literal")
	}
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q:
			return b.String(), s[i+1:], nil
		case c == '\\' && i+1 < len(s):
			if raw {
				b.WriteByte(c)
				b.WriteByte(s[i+1])
				i++
				continue
			}
			n, err := writeEscape(&b, s[i+1:])
			if err != nil {
				return "", "", err
			}
			i += n
		default:
			b.WriteByte(c)
		}
	}
	return "", "", fmt.Errorf("unterminated string literal")
}

// writeEscape decodes the escape whose body starts s and returns how many
// bytes of s it used.
func writeEscape(b *strings.Builder, s string) (int, error) {
	switch s[0] {
	case '\\', '\'', '"':
		b.WriteByte(s[0])
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case '0':
		b.WriteByte(0)
	case 'a':
		b.WriteByte('\a')
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'v':
		b.WriteByte('\v')
	case 'x', 'u', 'U':
		width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[0]]
		if len(s) < 1+width {
			return 0, fmt.Errorf("short \\%c escape", s[0])
		}
		v, err := strconv.ParseUint(s[1:1+width], 16, 32)
		if err != nil {
			return 0, fmt.Errorf("bad \\%c escape", s[0])
		}
		b.WriteRune(rune(v))
		return 1 + width, nil
	default: // Python keeps unknown escapes verbatim
		b.WriteByte('\\')
		b.WriteByte(s[0])
	}
	return 1, nil
}

// stripComment cuts a trailing # comment that sits outside string literals.
func stripComment(line string) string {
	var q byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case q != 0 && c == '\\':
			i++
		case q != 0 && c == q:
			q = 0
		case q != 0:
		case c == '"' || c == '\'':
			q = c
		case c == '#':
			return line[:i]
		}
	}
	return line
}

func indentOf(s string) int {
	n := 0
	for _, c := range s {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		ok := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9')
		if !ok {
			return false
		}
	}
	return true
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
