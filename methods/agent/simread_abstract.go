package agent

import (
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
)

var (
	htmlComment  = lazyre.New(`(?s)<!--.*?-->`)
	scriptOrCSS  = lazyre.New(`(?is)<(script|style)\b[^>]*>.*?</(script|style)\s*>`)
	spaceBetween = lazyre.New(`>\s+<`)
)

// abstractState answers a state-abstraction request the way a careful
// reader would without judging relevance: it drops what no action can use
// (comments, scripts, style sheets, whitespace between tags) and keeps
// every element, so the acting reader still finds each element an
// exemplar's xpath names. What the abstraction leaves out on a real model
// is the model's judgement; the sim keeps the page whole.
func abstractState(h StateAbstract) string {
	s := htmlComment.ReplaceAllString(h.State, "")
	s = scriptOrCSS.ReplaceAllString(s, "")
	s = spaceBetween.ReplaceAllString(s, "><")
	return strings.TrimSpace(s)
}
