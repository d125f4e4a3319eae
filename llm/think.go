package llm

import "strings"

// thinkTags are the reasoning delimiters reasoning models emit inline.
var thinkTags = [...]struct{ open, close string }{
	{"<think>", "</think>"},
	{"<thinking>", "</thinking>"},
}

// SplitThink separates inline reasoning from the answer. It removes every
// <think>…</think> (or <thinking>…</thinking>) block and returns the blocks'
// contents as reasoning. Two truncated forms are also handled:
//   - an opening tag that is never closed: everything after it is reasoning
//     (the model ran out of tokens while thinking);
//   - a closing tag with no opening tag: everything before it is reasoning
//     (chat templates such as Qwen3's put the opening tag in the prompt).
//
// Both results are trimmed of surrounding whitespace.
func SplitThink(s string) (text, reasoning string) {
	if !strings.Contains(s, "</think") && !strings.Contains(s, "<think") {
		return strings.TrimSpace(s), ""
	}
	var out, why []string
	rest := s
	// A leading close tag with no opener before it.
	for _, t := range thinkTags {
		c := strings.Index(rest, t.close)
		if c >= 0 && !strings.Contains(rest[:c], t.open) {
			why = append(why, rest[:c])
			rest = rest[c+len(t.close):]
			break
		}
	}
	for rest != "" {
		o, tag := firstOpen(rest)
		if o < 0 {
			out = append(out, rest)
			break
		}
		out = append(out, rest[:o])
		inner := rest[o+len(tag.open):]
		c := strings.Index(inner, tag.close)
		if c < 0 {
			why = append(why, inner)
			break
		}
		why = append(why, inner[:c])
		rest = inner[c+len(tag.close):]
	}
	return strings.TrimSpace(strings.Join(out, "")), joinNonEmpty(why, "\n")
}

// firstOpen finds the earliest opening tag of any kind.
func firstOpen(s string) (int, struct{ open, close string }) {
	best := -1
	var tag struct{ open, close string }
	for _, t := range thinkTags {
		if i := strings.Index(s, t.open); i >= 0 && (best < 0 || i < best) {
			best, tag = i, t
		}
	}
	return best, tag
}

// joinNonEmpty joins the trimmed, non-empty parts.
func joinNonEmpty(parts []string, sep string) string {
	kept := parts[:0:0]
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, sep)
}
