package sim

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/memharness/memharness/internal/bm25"
	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/llm"
)

// readPrompt answers a request the sim has no handler for — a method it has
// never seen, whose requests carry no hint or a hint type of its own — by
// reading the prompt text alone. It recognises the answer format the prompt
// asks for, in this order: JSON, one action of a listed set, a rating on a
// numeric scale, yes/no; anything else gets a short extract of the prompt.
// The answers are weak by design (no structured view to read), but always
// well-formed and never empty, so a new method runs end to end unchanged.
func readPrompt(req llm.Request) string {
	var all strings.Builder
	for _, m := range req.Messages {
		all.WriteString(m.Content)
		all.WriteString("\n")
	}
	text := all.String()
	if jsonAsked.MatchString(text) {
		return jsonAnswer(text)
	}
	if acts, rest := listedActions(text); len(acts) > 0 {
		return bestChoice(acts, rest)
	}
	if lo, hi, scale, ok := ratingScale(text); ok {
		return strconv.Itoa(ratingAnswer(strings.Replace(text, scale, "", 1), lo, hi))
	}
	if m := yesNoAsked.Re().FindString(text); m != "" {
		return yesNoAnswer(text, m)
	}
	return extract(req.Messages)
}

var (
	jsonAsked = lazyre.New(`(?i)\bjson\b`)
	// actionsLine finds a listed action set: "Available actions: a, b",
	// "Valid actions are: [...]", "Choose one of: ...". The list is the
	// rest of the line, or the bulleted lines that follow when it is empty.
	actionsLine = lazyre.New(`(?im)^.*?\b(?:(?:available|admissible|valid|allowed|possible|candidate)\s+(?:actions?|commands?|options?|choices?)|choose\s+(?:one\s+)?(?:of|from)|pick\s+(?:one\s+)?(?:of|from)|select\s+(?:one\s+)?(?:of|from))\b[^:\n]*:[ \t]*(.*)$`)
	bullet      = lazyre.New(`^\s*(?:[-*•]|\d+[.)])\s+(.+?)\s*$`)
	// ratingRange finds "1-5", "1 to 5", "from 1 to 10", "1~5" near a word
	// that says it is a score, in English or Chinese.
	ratingRange = lazyre.New(`(?i)(?:rat(?:e|ing)|score|scale|stars?|grade|评分|打分|分数)[^\n]{0,60}?\b(\d{1,2})\s*(?:-|–|—|~|to|到|至)\s*(\d{1,2})\b`)
	// pointRange finds a range of points written as such ("（1-5分）").
	pointRange = lazyre.New(`\b(\d{1,2})\s*(?:-|–|—|~|到|至)\s*(\d{1,2})\s*分`)
	ratedValue = lazyre.New(`(?i)(?:rated|rating|score|stars?|评分|打分)[^\d\n.]{0,30}?(\d{1,2}(?:\.\d+)?)`)
	// gavePoints finds a rating stated as points given ("打了4分").
	gavePoints = lazyre.New(`(?:打了|给了|评了)\s*(\d{1,2}(?:\.\d+)?)\s*分`)
	yesNoAsked = lazyre.New(`(?i)\byes\b[^\n]{0,20}?\bno\b|\bno\b[^\n]{0,20}?\byes\b|是或否|是否|“是”或“否”`)
	yesWord    = lazyre.New(`(?im)\byes\b|^\s*是\s*$`)
	noWord     = lazyre.New(`(?im)\bno\b|^\s*否\s*$`)
)

// listedActions returns the actions of the last action list in text and
// the text without that list (what the choice is judged against).
func listedActions(text string) (acts []string, rest string) {
	locs := actionsLine.Re().FindAllStringSubmatchIndex(text, -1)
	if len(locs) == 0 {
		return nil, text
	}
	loc := locs[len(locs)-1] // the latest list is the one to answer
	start, end := loc[0], loc[1]
	line := strings.TrimSpace(text[loc[2]:loc[3]])
	if line != "" {
		acts = splitList(line)
	} else {
		for _, l := range strings.Split(text[end:], "\n")[1:] {
			m := bullet.FindStringSubmatch(l)
			if m == nil {
				if strings.TrimSpace(l) == "" && len(acts) == 0 {
					continue
				}
				break
			}
			acts = append(acts, strings.Trim(m[1], "'\"`"))
			end += len(l) + 1
		}
	}
	return acts, text[:start] + text[min(end, len(text)):]
}

// splitList splits a one-line list: a JSON or Python list of strings, or
// items separated by commas, semicolons or " | ".
func splitList(s string) []string {
	var js []string
	if json.Unmarshal([]byte(strings.ReplaceAll(s, "'", `"`)), &js) == nil && len(js) > 0 {
		return js
	}
	s = strings.Trim(s, "[]. ")
	sep := ","
	for _, c := range []string{" | ", ";"} {
		if strings.Contains(s, c) {
			sep = c
			break
		}
	}
	var out []string
	for _, a := range strings.Split(s, sep) {
		if a = strings.Trim(strings.TrimSpace(a), "'\"`"); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// bestChoice is the action sharing the most with the rest of the prompt
// (BM25 with the prompt as query), the first listed on ties or no overlap.
func bestChoice(acts []string, rest string) string {
	docs := make([][]string, len(acts))
	for i, a := range acts {
		docs[i] = bm25.Tokenize(a)
	}
	var query []string
	for _, w := range bm25.Tokenize(rest) {
		if !stopWords[w] {
			query = append(query, w)
		}
	}
	top := bm25.New(docs, bm25.PlusOne()).Matches(query, 1)
	if len(top) == 0 {
		return acts[0]
	}
	return acts[top[0]]
}

// stopWords are function words that say nothing about which action fits
// ("go to drawer 1" must not win a goal by its "to").
var stopWords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "by": true,
	"for": true, "from": true, "in": true, "is": true, "it": true, "of": true, "on": true, "or": true,
	"that": true, "the": true, "this": true, "to": true, "with": true, "you": true, "your": true,
}

// ratingScale finds the scale a rating must be given on and the text
// that states it.
func ratingScale(text string) (lo, hi int, scale string, ok bool) {
	m := ratingRange.FindStringSubmatch(text)
	if m == nil {
		if m = pointRange.FindStringSubmatch(text); m == nil {
			return 0, 0, "", false
		}
	}
	lo, _ = strconv.Atoi(m[1])
	hi, _ = strconv.Atoi(m[2])
	return lo, hi, m[0], lo < hi
}

// ratingAnswer is the rounded mean of the ratings the prompt shows on the
// scale (text without the scale's statement), else the scale's middle
// (rounded down).
func ratingAnswer(text string, lo, hi int) int {
	var sum float64
	n := 0
	for _, m := range append(ratedValue.FindAllStringSubmatch(text, -1), gavePoints.FindAllStringSubmatch(text, -1)...) {
		v, err := strconv.ParseFloat(m[1], 64)
		if err == nil && v >= float64(lo) && v <= float64(hi) {
			sum += v
			n++
		}
	}
	if n == 0 {
		return (lo + hi) / 2
	}
	return min(hi, max(lo, int(math.Round(sum/float64(n)))))
}

// yesNoAnswer follows the majority of yes and no answers in the prompt
// beyond the instruction itself (a history of answers, few-shot examples),
// "No" on a tie; in Chinese when only the Chinese form is asked.
func yesNoAnswer(text, asked string) string {
	rest := strings.Replace(text, asked, "", 1)
	yes := len(yesWord.Re().FindAllStringIndex(rest, -1))
	no := len(noWord.Re().FindAllStringIndex(rest, -1))
	chinese := !strings.Contains(strings.ToLower(asked), "yes")
	switch {
	case yes > no && chinese:
		return "是"
	case yes > no:
		return "Yes"
	case chinese:
		return "否"
	}
	return "No"
}

// jsonAnswer echoes the shape of the first JSON example in the prompt with
// its strings replaced by a short extract, or {"answer": extract} when the
// prompt shows no parsable example.
func jsonAnswer(text string) string {
	fill := firstLine(text)
	for i := 0; i < len(text); i++ {
		if text[i] != '{' && text[i] != '[' {
			continue
		}
		var v any
		dec := json.NewDecoder(strings.NewReader(text[i:]))
		if dec.Decode(&v) != nil {
			continue
		}
		switch v.(type) {
		case map[string]any, []any:
			b, err := json.Marshal(fillStrings(v, fill))
			if err == nil {
				return string(b)
			}
		}
	}
	b, _ := json.Marshal(map[string]string{"answer": fill})
	return string(b)
}

// fillStrings replaces every string of v with s, keeping numbers, booleans
// and the structure (json.Marshal then sorts an object's keys).
func fillStrings(v any, s string) any {
	switch x := v.(type) {
	case string:
		return s
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = fillStrings(e, s)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = fillStrings(e, s)
		}
		return out
	}
	return v
}

// extract is a free-text answer: the first lines of the last user message,
// at most extractWords words; "OK" for an empty prompt.
func extract(msgs []llm.Message) string {
	last := -1
	for i, m := range msgs {
		if m.Role == "user" || last < 0 {
			last = i
		}
	}
	if last >= 0 {
		if w := strings.Fields(msgs[last].Content); len(w) > 0 {
			return strings.Join(w[:min(extractWords, len(w))], " ")
		}
	}
	return "OK"
}

// extractWords bounds a free-text answer, so a generic reply stays the
// size of a short summary whatever the prompt.
const extractWords = 60

// firstLine is the first non-empty line of text, at most 80 runes.
func firstLine(text string) string {
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			r := []rune(l)
			return string(r[:min(80, len(r))])
		}
	}
	return "OK"
}
