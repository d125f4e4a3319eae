package miniwob

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
)

// ExecProgram reads the code of one turn the way Synapse's run_miniwob.py
// runs it, exec(actions) with `agent` its Agent, without executing
// anything: the code is first checked whole (a syntax or indentation
// error runs nothing: compileErr), then its statements run in order and
// the first that raises stops the rest (runErr), the calls before it
// having happened. The statements read are those Synapse's exemplars
// write: agent.<method>("...") calls (a keyword argument by its parameter
// name), for _ in range(n): loops, pass, comments and blank lines, and
// print(...) (a no-op here). Other Python it cannot check is treated as a
// syntax error; docs/REQUEST_FIDELITY.md counts where that differs.
//
// The methods are synapse/agents/miniwob.py's: type, click_xpath,
// click_option, movemouse, and press, which takes enter, space,
// arrowleft, arrowright, backspace, arrowup or arrowdown (a key press) and
// command+a, command+c or command+v, which the source hands to
// MiniWoBType as text and so types literally; any other key raises.
func ExecProgram(code string) (acts []Action, runErr, compileErr error) {
	if len(code) > maxTextBytes {
		return nil, nil, fmt.Errorf("action text is %d bytes (limit %d)", len(code), maxTextBytes)
	}
	code = strings.ReplaceAll(strings.ReplaceAll(code, "\r\n", "\n"), "\r", "\n")
	c := &pyCompiler{lines: strings.Split(code, "\n")}
	prog, err := c.suite(0, 0)
	if err == nil && c.pos < len(c.lines) {
		err = c.errf("unindent does not match any outer indentation level")
	}
	if err != nil {
		return nil, nil, err
	}
	r := &pyRunner{}
	err = r.run(prog)
	return r.acts, err, nil
}

// pyStmt is one statement of the subset.
type pyStmt struct {
	line   int
	callee string // a call: "agent.type", "print", ...
	args   []pyArg
	loops  int // a for loop: its count and body
	body   []pyStmt
	isFor  bool
	isPass bool
	// undefined is the name a loop's range() reads that no one defined.
	undefined string
}

var rangeNameRe = lazyre.New(`range\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)`)

type pyArg struct {
	name  string // keyword, or "" for a positional argument
	value string
}

type pyCompiler struct {
	lines []string
	pos   int
}

func (c *pyCompiler) errf(format string, args ...any) error {
	return fmt.Errorf("SyntaxError (line %d): %s", min(c.pos+1, len(c.lines)), fmt.Sprintf(format, args...))
}

// suite reads the statements indented exactly at the block's level (the
// first statement's indentation, which must exceed parent; 0 at top
// level), stopping at a line indented less.
func (c *pyCompiler) suite(depth, parent int) ([]pyStmt, error) {
	var out []pyStmt
	level := -1
	for c.pos < len(c.lines) {
		code := strings.TrimRight(stripComment(c.lines[c.pos]), " \t\f")
		if strings.TrimSpace(code) == "" {
			c.pos++
			continue
		}
		ind := indentOf(code)
		if level < 0 {
			if depth == 0 && ind != 0 {
				return nil, c.errf("unexpected indent")
			}
			if depth > 0 && ind <= parent {
				return nil, c.errf("expected an indented block")
			}
			level = ind
		}
		if ind < level {
			break
		}
		if ind > level {
			return nil, c.errf("unexpected indent")
		}
		st, err := c.statement(strings.TrimSpace(code), depth)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	if level < 0 && depth > 0 {
		return nil, c.errf("expected an indented block")
	}
	return out, nil
}

func (c *pyCompiler) statement(stmt string, depth int) (pyStmt, error) {
	line := c.pos + 1
	if strings.HasPrefix(stmt, "for ") {
		if depth >= maxLoopDepth {
			return pyStmt{}, c.errf("loops nested deeper than %d", maxLoopDepth)
		}
		// range(<name>): a NameError when the loop starts (no name but
		// agent is defined); the loop compiles as range(0).
		undefined := ""
		if m := rangeNameRe.FindStringSubmatch(stmt); m != nil && m[1] != "agent" {
			undefined = m[1]
			stmt = strings.Replace(stmt, m[0], "range(0)", 1)
		}
		n, inline, err := parseFor(stmt)
		if err != nil {
			return pyStmt{}, c.errf("%v", err)
		}
		c.pos++
		st := pyStmt{line: line, isFor: true, loops: n, undefined: undefined}
		if inline != "" {
			body, err := c.simple(inline, line)
			if err != nil {
				return pyStmt{}, err
			}
			st.body = []pyStmt{body}
			return st, nil
		}
		st.body, err = c.suite(depth+1, indentOf(c.lines[line-1]))
		return st, err
	}
	st, err := c.simple(stmt, line)
	c.pos++
	return st, err
}

// simple reads a call or pass (a trailing ";" allowed).
func (c *pyCompiler) simple(stmt string, line int) (pyStmt, error) {
	stmt = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(stmt), ";"))
	if stmt == "pass" || isPyLiteral(stmt) {
		// pass, or an expression statement of a lone literal (the "3" a
		// ```python3 fence leaves): nothing happens.
		return pyStmt{line: line, isPass: true}, nil
	}
	open := strings.IndexByte(stmt, '(')
	if open <= 0 || !strings.HasSuffix(stmt, ")") {
		return pyStmt{}, c.errf("unsupported statement %q", clip(stmt, 60))
	}
	callee := strings.TrimSpace(stmt[:open])
	for _, part := range strings.Split(callee, ".") {
		if !isIdent(strings.TrimSpace(part)) {
			return pyStmt{}, c.errf("unsupported statement %q", clip(stmt, 60))
		}
	}
	args, err := parseArgs(stmt[open+1 : len(stmt)-1])
	if err != nil {
		return pyStmt{}, c.errf("%s: %v", clip(callee, 30), err)
	}
	return pyStmt{line: line, callee: strings.ReplaceAll(callee, " ", ""), args: args}, nil
}

// parseArgs reads a comma-separated list of string literals, each
// optionally after name=.
func parseArgs(s string) ([]pyArg, error) {
	var out []pyArg
	rest := strings.TrimSpace(s)
	for rest != "" {
		var a pyArg
		if k, v, ok := strings.Cut(rest, "="); ok && isIdent(strings.TrimSpace(k)) {
			a.name, rest = strings.TrimSpace(k), strings.TrimSpace(v)
		}
		val, tail, err := readPyString(rest)
		if err != nil {
			// An integer argument: Synapse's MiniWoBType(5) takes it as
			// it is (it is typed as str(5)).
			digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
			if digits == 0 {
				return nil, err
			}
			n, perr := strconv.ParseInt(rest[:digits], 10, 64)
			if perr != nil || (digits > 1 && rest[0] == '0') {
				return nil, err
			}
			val, tail, err = strconv.FormatInt(n, 10), rest[digits:], nil
		}
		a.value = val
		out = append(out, a)
		tail = strings.TrimSpace(tail)
		if tail == "" {
			break
		}
		if tail[0] != ',' {
			return nil, errors.New("arguments must be string literals")
		}
		rest = strings.TrimSpace(tail[1:])
	}
	return out, nil
}

// synapseParams are the parameter names of Synapse's Agent methods.
var synapseParams = map[Kind]string{TypeText: "characters", ClickXPath: "xpath", Press: "key_type", ClickOption: "xpath", MoveMouse: "xpath"}

// synapseKeys are the keys Agent.press accepts; the commands are typed as
// text (MiniWoBType(key_type)).
var synapseKeys = map[string]bool{"enter": true, "space": true, "arrowleft": true, "arrowright": true, "backspace": true, "arrowup": true, "arrowdown": true}

type pyRunner struct{ acts []Action }

func (r *pyRunner) run(prog []pyStmt) error {
	for _, st := range prog {
		switch {
		case st.isPass:
		case st.isFor:
			if st.undefined != "" {
				return fmt.Errorf("line %d: NameError: name %q is not defined", st.line, st.undefined)
			}
			for range st.loops {
				if err := r.run(st.body); err != nil {
					return err
				}
			}
		default:
			if err := r.call(st); err != nil {
				return fmt.Errorf("line %d: %w", st.line, err)
			}
		}
	}
	return nil
}

func (r *pyRunner) call(st pyStmt) error {
	if st.callee == "print" {
		return nil
	}
	name, ok := strings.CutPrefix(st.callee, "agent.")
	if !ok {
		root, _, _ := strings.Cut(st.callee, ".")
		return fmt.Errorf("NameError: name %q is not defined", root)
	}
	kind := Kind(name)
	param, ok := synapseParams[kind]
	if !ok {
		return fmt.Errorf("AttributeError: 'Agent' object has no attribute %q", name)
	}
	if len(st.args) != 1 || (st.args[0].name != "" && st.args[0].name != param) {
		return fmt.Errorf("TypeError: Agent.%s() takes one argument, %s", name, param)
	}
	arg := st.args[0].value
	if kind == Press {
		switch {
		case synapseKeys[arg]:
		case arg == "command+a" || arg == "command+c" || arg == "command+v":
			kind = TypeText
		default:
			return fmt.Errorf("ValueError: Invalid instruction (agent.press(%s))", strconv.Quote(clip(arg, 40)))
		}
	}
	if len(r.acts) >= maxActions {
		return fmt.Errorf("more than %d actions in one turn", maxActions)
	}
	r.acts = append(r.acts, Action{Kind: kind, Arg: arg})
	return nil
}

// isPyLiteral reports whether stmt is one integer, float or string literal.
func isPyLiteral(stmt string) bool {
	for len(stmt) > 1 && stmt[0] == '(' && stmt[len(stmt)-1] == ')' {
		stmt = strings.TrimSpace(stmt[1 : len(stmt)-1])
	}
	if _, err := strconv.ParseFloat(stmt, 64); err == nil && strings.Trim(stmt, "0123456789.") == "" {
		return true
	}
	if _, tail, err := readPyString(stmt); err == nil && strings.TrimSpace(tail) == "" {
		return true
	}
	return false
}
