package apibank

import (
	"errors"
	"fmt"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
)

// Agents act with "[ApiName(key=value, ...)]" anywhere in their output. The
// patterns are the reference evaluator's (LifeMem api-bank), with Python's
// Unicode \w spelled out because Go's \w is ASCII-only: the first bracketed
// call on a line is taken, then parameters are picked out one by one, each
// either quoted (up to the next quote of either kind), a [list] (greedy up to
// the last ']'), or a bare word. Every value is a string at this point; types
// are applied per API (coerce.go).
var (
	callRE  = lazyre.New(`\[([\p{L}\p{N}_]+)\((.*)\)\]`)
	paramRE = lazyre.New(`([\p{L}\p{N}_]+)\s*=\s*['"](.+?)['"]|([\p{L}\p{N}_]+)\s*=\s*(\[.*\])|([\p{L}\p{N}_]+)\s*=\s*([\p{L}\p{N}_]+)`)
	wordRE  = lazyre.New(`^[\p{L}\p{N}_]+$`)
)

// ErrNoCall means the text holds no "[Name(...)]" call.
var ErrNoCall = errors.New("no valid tool call found; use the format [ToolName(key=value, ...)]")

// Param is one key=value pair of a call, value still a string.
type Param struct {
	Key   string
	Value string
}

// Call is a parsed action.
type Call struct {
	// Raw is the matched "[Name(...)]" text.
	Raw  string
	Name string
	// Params in order of first appearance; a repeated key keeps its first
	// position and its last value, as a Python dict would.
	Params []Param
	// Finish is set when the call text mentions "Finish" anywhere, which is
	// how the reference loop decides the episode is over.
	Finish bool
}

// Get returns the value of key.
func (c Call) Get(key string) (string, bool) {
	for _, p := range c.Params {
		if p.Key == key {
			return p.Value, true
		}
	}
	return "", false
}

// ParseAction extracts the call from an agent's output.
func ParseAction(text string) (Call, error) {
	m := callRE.FindStringSubmatch(text)
	if m == nil {
		return Call{}, ErrNoCall
	}
	c := Call{Raw: m[0], Name: m[1], Finish: strings.Contains(m[0], "Finish")}
	for _, pm := range paramRE.FindAllStringSubmatch(m[2], -1) {
		var k, v string
		switch {
		case pm[1] != "":
			k, v = pm[1], pm[2]
		case pm[3] != "":
			k, v = pm[3], pm[4]
		default:
			k, v = pm[5], pm[6]
		}
		c.set(k, v)
	}
	return c, nil
}

func (c *Call) set(k, v string) {
	for i := range c.Params {
		if c.Params[i].Key == k {
			c.Params[i].Value = v
			return
		}
	}
	c.Params = append(c.Params, Param{Key: k, Value: v})
}

// FormatCall writes a call in the action syntax so that ParseAction gives the
// same name and values back. List values ("[...]") go last and bare, since the
// list pattern is greedy. Values that the syntax cannot carry (empty, or with
// a quote outside a list) are an error.
func FormatCall(name string, params []Param) (string, error) {
	var scalars, lists []string
	for _, p := range params {
		switch {
		case strings.HasPrefix(p.Value, "[") && strings.HasSuffix(p.Value, "]"):
			if len(lists) > 0 {
				return "", fmt.Errorf("%s: more than one list parameter cannot be written unambiguously", name)
			}
			lists = append(lists, p.Key+"="+p.Value)
		case wordRE.MatchString(p.Value):
			scalars = append(scalars, p.Key+"='"+p.Value+"'")
		case p.Value == "" || strings.ContainsAny(p.Value, `'"`) || strings.Contains(p.Value, "\n"):
			return "", fmt.Errorf("%s: value of %s (%q) cannot be written in the [Name(key='value')] syntax", name, p.Key, p.Value)
		default:
			scalars = append(scalars, p.Key+"='"+p.Value+"'")
		}
	}
	return "[" + name + "(" + strings.Join(append(scalars, lists...), ", ") + ")]", nil
}
