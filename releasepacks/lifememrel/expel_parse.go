package lifememrel

import (
	"strconv"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/internal/pystr"
)

// Python's re classes for str patterns, spelled for Go's regexp: \s is
// str.isspace() (Go's \s is ASCII), \d any decimal digit, \w letters,
// numbers and "_".
const (
	pyS = `[\t\n\v\f\r\x1c-\x1f \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]`
	pyD = `\p{Nd}`
	pyW = `[\p{L}\p{N}_]`
)

// The patterns of ExpeL's LLM_PARSER functions (prompts/hotpotQA.py, which
// FEVER imports, prompts/alfworld.py, prompts/webshop.py), as regexp.
var (
	hqActionLabel = lazyre.New(`^(?i)action` + pyS + `*(?:` + pyD + `+|)` + pyS + `*(?::|)` + pyS + `*`)
	hqAction      = lazyre.New(`(?i)` + pyW + `+\[[^\]]+(?:\]|)`)
	hqLabelAll    = lazyre.New(`(?i)action` + pyS + `*(?:` + pyD + `*|)` + pyS + `*(?::|)`)
	hqThought     = lazyre.New(`^(?i)thought` + pyS + `*(?:` + pyD + `+|)` + pyS + `*(?::|)` + pyS + `*(.*)`)
	alfThinkAt    = lazyre.New(`^(?i)(?:>|)` + pyS + `*think(?::|)`)
	alfThinkAll   = lazyre.New(`(?i)(?:>|)` + pyS + `*think(?::|)` + pyS + `*`)
	alfPromptAt   = lazyre.New(`^(?i)>` + pyS + `*`)
	alfPromptAll  = lazyre.New(`(?i)>` + pyS + `*`)
	alfVerbAt     = lazyre.New(`^(?i)(?:go to|open|take|put|use|heat|cool|look|clean|inventory)`)
	shopLabelAll  = lazyre.New(`(?i)action` + pyS + `*` + pyD + `*` + pyS + `*:` + pyS + `*`)
)

// expelClean is GPTWrapper.__call__'s post-processing (models/llm.py):
// output.strip('\n').strip(), then with replace_newline (ReactAgent's
// calls) every "\n" removed.
func expelClean(reply string) string {
	return strings.ReplaceAll(pystr.Strip(strings.Trim(reply, "\n")), "\n", "")
}

// ExpeLParse is ExpeL's llm_parser for bench on one cleaned model reply at
// step: the message content appended to the prompt history, whether it is
// an action, and the action handed to env.step ("" where the source hands
// an empty, invalid one).
func ExpeLParse(bench, out string, step int) (content string, isAction bool, action string) {
	k := strconv.Itoa(step)
	switch bench {
	case expelALFWorld:
		if alfThinkAt.MatchString(out) {
			return "> think: " + alfThinkAll.ReplaceAllString(out, ""), false, ""
		}
		if alfPromptAt.MatchString(out) || alfVerbAt.MatchString(out) {
			a := pystr.Strip(alfPromptAll.ReplaceAllString(pystr.Lower(out), ""))
			return "> " + a, true, a
		}
		return "> think: " + out, false, ""
	case expelWebShop:
		f := shopLabelAll.ReplaceAllString(out, "")
		switch {
		case !strings.Contains(f, "["):
			f = "think[" + pystr.Strip(strings.TrimLeft(f, "Observation:")) + "]"
		case !strings.HasSuffix(f, "]"):
			f += "]"
		}
		return "Action: " + f, true, f
	}
	// hotpotqa, fever
	if loc := hqActionLabel.FindStringIndex(out); loc != nil {
		a := out[loc[1]:]
		content = "Action " + k + ": " + a
		if len(hqAction.FindAllString(a, -1)) > 1 {
			return content, true, ""
		}
		return content, true, a
	}
	acts := hqAction.FindAllString(out, -1)
	switch {
	case len(acts) == 1:
		a := acts[0]
		if !strings.HasSuffix(a, "]") {
			a += "]"
		}
		return "Action " + k + ": " + a, true, a
	case len(acts) > 1:
		return "Action " + k + ": " + hqLabelAll.ReplaceAllString(out, ""), true, ""
	}
	if m := hqThought.FindStringSubmatch(out); m != nil {
		return "Thought " + k + ": " + strings.TrimRight(m[1], ":"), false, ""
	}
	return "Thought " + k + ": " + strings.TrimRight(out, ":"), false, ""
}
