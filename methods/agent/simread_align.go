package agent

import (
	"strings"
	"unicode"
)

// Entity substitution for the agent reader. An exemplar action is copied
// into the current episode by aligning the exemplar's task (and the
// observation the exemplar acted on) with the current ones: token runs of
// the action that also occur in the exemplar's text are replaced by the
// aligned part of the current text. The alignment is a longest common
// subsequence of lower-cased tokens; what lies between two anchors is a
// hunk, mapped token by token when both sides have the same length (a
// different date, an order number, a value in the same table cell) and as
// a whole otherwise ("water" → "salt water"). Words inserted right before
// an anchored token of the run travel with it, since English puts
// modifiers before nouns.

// span is one token with its byte range in the source text.
type span struct {
	low        string
	start, end int
}

// maxAlignTokens caps each side of an alignment so long observations
// (policies, pages) cost at most a fixed quadratic table.
const maxAlignTokens = 700

// spans splits text into tokens: runs of letters and digits, joined across
// one of . - : / ' _ @ when letters or digits follow, so dates, prices,
// e-mail addresses and IDs stay whole.
func spans(text string) []span {
	var out []span
	rs := []rune(text)
	// byte offsets of runes
	off := make([]int, len(rs)+1)
	b := 0
	for i, r := range rs {
		off[i] = b
		b += len(string(r))
	}
	off[len(rs)] = b
	isAN := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	for i := 0; i < len(rs); {
		if !isAN(rs[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(rs) {
			if isAN(rs[j]) {
				j++
				continue
			}
			if strings.ContainsRune(".-:/'_@", rs[j]) && j+1 < len(rs) && isAN(rs[j+1]) && isAN(rs[j-1]) {
				j += 2
				continue
			}
			break
		}
		out = append(out, span{low: strings.ToLower(string(rs[i:j])), start: off[i], end: off[j]})
		i = j
	}
	return out
}

// alignment maps exemplar-side tokens to current-side tokens.
type alignment struct {
	e, c   []span
	ctext  string
	match  []int // match[i] = aligned c index of e[i], or -1
	hunkOf []int // for unmatched e[i]: index into hunks
	hunks  []hunk
}

type hunk struct{ ea, eb, ca, cb int } // half-open ranges

func align(etext, ctext string, tail bool) *alignment {
	e, c := spans(etext), spans(ctext)
	if tail {
		// Observations end with what matters (the customer's message,
		// the tool output); keep their ends.
		if len(e) > maxAlignTokens {
			e = e[len(e)-maxAlignTokens:]
		}
		if len(c) > maxAlignTokens {
			c = c[len(c)-maxAlignTokens:]
		}
	} else {
		e, c = e[:min(len(e), maxAlignTokens)], c[:min(len(c), maxAlignTokens)]
	}
	a := &alignment{e: e, c: c, ctext: ctext, match: make([]int, len(e)), hunkOf: make([]int, len(e))}
	n, m := len(e), len(c)
	// suffix LCS lengths, row-major (n+1)×(m+1)
	w := m + 1
	L := make([]int32, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if e[i].low == c[j].low {
				L[i*w+j] = L[(i+1)*w+j+1] + 1
			} else {
				L[i*w+j] = max(L[(i+1)*w+j], L[i*w+j+1])
			}
		}
	}
	for i := range a.match {
		a.match[i] = -1
		a.hunkOf[i] = -1
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case e[i].low == c[j].low:
			a.match[i] = j
			i++
			j++
		case L[(i+1)*w+j] >= L[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	// hunks between anchors
	prevE, prevC := -1, -1
	flush := func(nextE, nextC int) {
		if nextE-prevE > 1 {
			h := hunk{ea: prevE + 1, eb: nextE, ca: prevC + 1, cb: nextC}
			for k := h.ea; k < h.eb; k++ {
				a.hunkOf[k] = len(a.hunks)
			}
			a.hunks = append(a.hunks, h)
		}
	}
	for k := range e {
		if a.match[k] >= 0 {
			flush(k, a.match[k])
			prevE, prevC = k, a.match[k]
		}
	}
	flush(n, m)
	return a
}

// mapRun returns the current-side text the exemplar run e[p:q] stands
// for, or ok false when part of it has no sensible counterpart.
func (a *alignment) mapRun(p, q int) (string, bool) {
	var out []int
	seen := map[int]bool{}
	add := func(j int) {
		if !seen[j] {
			seen[j] = true
			out = append(out, j)
		}
	}
	for i := p; i < q; i++ {
		if j := a.match[i]; j >= 0 {
			if i == p && !isStop(a.e[i].low) && i > 0 && a.match[i-1] >= 0 {
				// words inserted right before the first anchored token
				if prev := a.match[i-1]; j-prev > 1 && j-prev <= 4 {
					for k := prev + 1; k < j; k++ {
						add(k)
					}
				}
			}
			add(j)
			continue
		}
		h := a.hunks[a.hunkOf[i]]
		ne, nc := h.eb-h.ea, h.cb-h.ca
		switch {
		case ne == nc:
			add(h.ca + i - h.ea)
		case q-p >= 4 && p <= h.ea && h.eb <= q:
			// The run copies the whole differing stretch (a search
			// query made of the task): copy the current one.
			for k := h.ca; k < h.cb; k++ {
				add(k)
			}
		case hasDigit(a.e[i].low):
			// An ID or a number stands for the same-shaped token at the
			// same rank among same-shaped tokens of the hunk.
			j, ok := a.sameShape(h, i)
			if !ok {
				return "", false
			}
			add(j)
		case ne <= 3 && nc <= ne+2:
			for k := h.ca; k < h.cb; k++ {
				add(k)
			}
		default:
			return "", false
		}
	}
	return a.text(out), true
}

func (a *alignment) sameShape(h hunk, i int) (int, bool) {
	sh := shape(a.e[i].low)
	rank := 0
	for k := h.ea; k < i; k++ {
		if shape(a.e[k].low) == sh {
			rank++
		}
	}
	for k := h.ca; k < h.cb; k++ {
		if shape(a.c[k].low) == sh {
			if rank == 0 {
				return k, true
			}
			rank--
		}
	}
	// The alignment may have put it elsewhere (word order differs): take
	// the same rank among the unanchored same-shaped tokens of the texts.
	anchored := map[int]bool{}
	for _, j := range a.match {
		if j >= 0 {
			anchored[j] = true
		}
	}
	rank = 0
	for k := 0; k < i; k++ {
		if a.match[k] < 0 && shape(a.e[k].low) == sh {
			rank++
		}
	}
	for k := range a.c {
		if !anchored[k] && shape(a.c[k].low) == sh {
			if rank == 0 {
				return k, true
			}
			rank--
		}
	}
	return 0, false
}

// shape abstracts a token to its character classes (letters a, digits 9,
// others kept), with runs collapsed: "e1000001" → "a9", "2023-03-02" →
// "9-9-9", "lena.ortiz@example.com" → "a.a@a.a".
func shape(w string) string {
	var b strings.Builder
	var last rune
	for _, r := range w {
		c := r
		switch {
		case unicode.IsLetter(r):
			c = 'a'
		case unicode.IsDigit(r):
			c = '9'
		}
		if c != last || (c != 'a' && c != '9') {
			b.WriteRune(c)
		}
		last = c
	}
	return b.String()
}

func hasDigit(w string) bool {
	return strings.IndexFunc(w, unicode.IsDigit) >= 0
}

// findRuns returns the start indices in a.e where toks[k:k+n] occurs.
func (a *alignment) occurrences(toks []span, k, n int) []int {
	var out []int
	for p := 0; p+n <= len(a.e); p++ {
		ok := true
		for d := 0; d < n; d++ {
			if a.e[p+d].low != toks[k+d].low {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, p)
		}
	}
	return out
}

// longestAt is the longest n such that toks[k:k+n] occurs in a.e.
func (a *alignment) longestAt(toks []span, k int) int {
	best := 0
	for n := 1; k+n <= len(toks); n++ {
		if len(a.occurrences(toks, k, n)) == 0 {
			break
		}
		best = n
	}
	return best
}

// substitute rewrites action through the alignments, tried in order (the
// task first, then the observation): at each token the longest run found in
// any exemplar text is replaced by what it is aligned to, preferring an
// occurrence that actually changes.
func substitute(action string, als ...*alignment) string {
	toks := spans(action)
	var b strings.Builder
	last := 0
	for k := 0; k < len(toks); {
		bestN, bestA := 0, -1
		for ai, al := range als {
			if al == nil {
				continue
			}
			if n := al.longestAt(toks, k); n > bestN {
				bestN, bestA = n, ai
			}
		}
		// A run stops at syntax in the action: "item = 'Eclair'" holds
		// two runs, since the text it matched ("the item Eclair") does not
		// carry the " = '" between them. Commas and spaces are prose.
		for d := 1; d < bestN; d++ {
			if strings.Trim(action[toks[k+d-1].end:toks[k+d].start], " ,") != "" {
				bestN = d
				break
			}
		}
		if bestN == 0 || stopRun(toks[k:k+bestN]) {
			k++
			continue
		}
		al := als[bestA]
		orig := action[toks[k].start:toks[k+bestN-1].end]
		repl := orig
		for _, p := range al.occurrences(toks, k, bestN) {
			r, ok := al.mapRun(p, p+bestN)
			if ok && !strings.EqualFold(r, orig) {
				repl = r
				break
			}
		}
		b.WriteString(action[last:toks[k].start])
		b.WriteString(repl)
		last = toks[k+bestN-1].end
		k += bestN
	}
	b.WriteString(action[last:])
	out := b.String()
	for strings.Contains(out, "  ") {
		out = strings.ReplaceAll(out, "  ", " ")
	}
	return out
}

func stopRun(ts []span) bool {
	for _, t := range ts {
		if !isStop(t.low) {
			return false
		}
	}
	return true
}

// isStop reports function words and one-letter tokens, which anchor
// alignments but are never substituted on their own.
func isStop(w string) bool {
	if len([]rune(w)) <= 1 {
		return true
	}
	switch w {
	case "the", "an", "of", "to", "in", "on", "at", "by", "for", "with", "and", "or", "is", "it",
		"from", "as", "be", "was", "are", "my", "me", "you", "your", "this", "that", "what", "which",
		"who", "how", "do", "does", "did", "not", "no", "yes", "into", "than", "then", "if", "so",
		"we", "our", "its", "can", "will", "please", "want", "need":
		return true
	}
	return false
}

// contentSet is the set of non-stop tokens of text.
func contentSet(text string) map[string]bool {
	out := map[string]bool{}
	for _, t := range spans(text) {
		if !isStop(t.low) {
			out[t.low] = true
		}
	}
	return out
}

// typeSet is contentSet without tokens that carry digits: the words that
// say what kind of task a text asks for.
func typeSet(text string) map[string]bool {
	out := contentSet(text)
	for w := range out {
		if hasDigit(w) {
			delete(out, w)
		}
	}
	return out
}

// jaccard is |a∩b| / |a∪b| (0 for two empty sets).
func jaccard(a, b map[string]bool) float64 {
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

// text renders current-side tokens: the original substring when they are
// contiguous, else the tokens joined by spaces.
func (a *alignment) text(idx []int) string {
	if len(idx) == 0 {
		return ""
	}
	contiguous := true
	for k := 1; k < len(idx); k++ {
		if idx[k] != idx[k-1]+1 {
			contiguous = false
			break
		}
	}
	if contiguous {
		return a.ctext[a.c[idx[0]].start:a.c[idx[len(idx)-1]].end]
	}
	parts := make([]string, len(idx))
	for k, j := range idx {
		parts[k] = a.ctext[a.c[j].start:a.c[j].end]
	}
	return strings.Join(parts, " ")
}
