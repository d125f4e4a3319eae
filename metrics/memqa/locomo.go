package memqa

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/memharness/memharness/internal/pystr"
)

// NormalizeAnswer is LoCoMo's normalize_answer (task_eval/evaluation.py):
// commas deleted, Python lower-case, ASCII punctuation removed, the words
// "a", "an", "the" and "and" replaced by a space where they stand alone,
// white space collapsed. "and" is LoCoMo's addition to the SQuAD rule.
//
// The article rule runs on the third-party `regex` module, whose \w (and
// so \b) differs from Python's re: combining marks and the zero-width
// joiners are word characters there, superscript and other No digits are
// not; regexWord keeps that distinction.
func NormalizeAnswer(s string) string {
	s = strings.ReplaceAll(s, ",", "")
	s = pystr.RemovePunctuation(pystr.Lower(s))
	s = replaceArticles(s)
	return pystr.JoinFields(s)
}

// replaceArticles is regex.sub(r'\b(a|an|the|and)\b', ' ', s) under the
// regex module's word characters. The alternation backtracks: "an" is
// tried after "a" fails its closing \b.
func replaceArticles(s string) string {
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(rs); {
		if i == 0 || !regexWord(rs[i-1]) {
			if n := articleAt(rs[i:]); n > 0 {
				b.WriteByte(' ')
				i += n
				continue
			}
		}
		b.WriteRune(rs[i])
		i++
	}
	return b.String()
}

// articleAt is the rune length of the first of LoCoMo's words ("a",
// "an", "the", "and", in the order of its alternation) that starts rs and
// ends at a word boundary, or 0.
func articleAt(rs []rune) int {
	for _, w := range [...]string{"a", "an", "the", "and"} {
		if len(rs) < len(w) {
			continue
		}
		match := true
		for k := range len(w) {
			if rs[k] != rune(w[k]) {
				match = false
				break
			}
		}
		if match && (len(rs) == len(w) || !regexWord(rs[len(w)])) {
			return len(w)
		}
	}
	return 0
}

// regexWord is \w of the regex module for str patterns (its default V0
// behaviour): Alphabetic, Mark, Decimal_Number, Connector_Punctuation and
// Join_Control.
func regexWord(r rune) bool {
	if r < 0x80 {
		return r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_Alphabetic, r) ||
		unicode.IsMark(r) || unicode.Is(unicode.Nd, r) || unicode.Is(unicode.Pc, r) ||
		unicode.Is(unicode.Join_Control, r)
}

// stemmedTokens are the normalised answer's tokens, each Porter-stemmed.
func stemmedTokens(s string) []string {
	toks := pystr.Fields(NormalizeAnswer(s))
	for i, t := range toks {
		toks[i] = Stem(t)
	}
	return toks
}

// TokenF1 is LoCoMo's f1_score: F1 of the multiset overlap between the
// stemmed tokens of prediction and answer, 0 when nothing is shared
// (which includes an empty side).
func TokenF1(prediction, answer string) float64 {
	p, g := stemmedTokens(prediction), stemmedTokens(answer)
	counts := make(map[string]int, len(g))
	for _, t := range g {
		counts[t]++
	}
	same := 0
	for _, t := range p {
		if counts[t] > 0 {
			counts[t]--
			same++
		}
	}
	if same == 0 {
		return 0
	}
	precision := 1.0 * float64(same) / float64(len(p))
	recall := 1.0 * float64(same) / float64(len(g))
	return (2 * precision * recall) / (precision + recall)
}

// MultiAnswerF1 is LoCoMo's f1: prediction and answer are split on commas
// into stripped sub-answers; each gold sub-answer takes its best TokenF1
// over the predicted ones, and the score is their mean (numpy's).
func MultiAnswerF1(prediction, answer string) float64 {
	preds := strings.Split(prediction, ",")
	for i := range preds {
		preds[i] = pystr.Strip(preds[i])
	}
	golds := strings.Split(answer, ",")
	best := make([]float64, len(golds))
	for i, g := range golds {
		g = pystr.Strip(g)
		for j, p := range preds {
			if f := TokenF1(p, g); j == 0 || f > best[i] {
				best[i] = f
			}
		}
	}
	return NumpyMean(best)
}

// AdversarialHit is LoCoMo's check for category 5: the lower-cased output
// contains "no information available" or "not mentioned".
func AdversarialHit(output string) bool {
	l := pystr.Lower(output)
	return strings.Contains(l, "no information available") || strings.Contains(l, "not mentioned")
}

// Score is one question's score as LoCoMo's eval_question_answering
// computes it before rounding: category 1 by MultiAnswerF1; category 3
// against the part of the answer before its first ";" (stripped);
// categories 2, 3 and 4 by TokenF1; category 5 is 1 when AdversarialHit
// (the answer is not read). answer is the gold answer as Python's str()
// writes it (LoCoMo's answers include bare numbers). Any other category
// is an error, as the source raises ValueError.
func Score(category int, prediction, answer string) (float64, error) {
	switch category {
	case 3:
		answer = pystr.Strip(strings.SplitN(answer, ";", 2)[0])
		return TokenF1(prediction, answer), nil
	case 2, 4:
		return TokenF1(prediction, answer), nil
	case 1:
		return MultiAnswerF1(prediction, answer), nil
	case 5:
		if AdversarialHit(prediction) {
			return 1, nil
		}
		return 0, nil
	}
	return 0, fmt.Errorf("LoCoMo category %d: the official scoring knows 1 to 5", category)
}

// EvidenceRecall is the recall LoCoMo's eval_question_answering stores
// for a retrieval run: the share of the question's evidence dia_ids
// ("D3:12") found in the retrieved context. When the first context entry
// starts with "S" the context names sessions ("S3") and an evidence turn
// counts when its session is among them; otherwise the context is dia_ids
// and the match is exact. With no evidence, or no context recorded
// (hasContext false), the source records 1. A recorded but empty context
// with evidence is an error: the source indexes its first entry and fails.
func EvidenceRecall(evidence, context []string, hasContext bool) (float64, error) {
	if !hasContext || len(evidence) == 0 {
		return 1, nil
	}
	if len(context) == 0 {
		return 0, fmt.Errorf("evidence recall: the context is empty but %d evidence turns are listed (LoCoMo's code fails on this)", len(evidence))
	}
	hits := 0
	if strings.HasPrefix(context[0], "S") {
		sessions := make(map[string]bool, len(context))
		for _, c := range context {
			_, rest, _ := cutFirstRune(c)
			sessions[rest] = true
		}
		for _, ev := range evidence {
			// ev.split(':')[0][1:]
			head, _, _ := strings.Cut(ev, ":")
			_, sess, _ := cutFirstRune(head)
			if sessions[sess] {
				hits++
			}
		}
	} else {
		in := make(map[string]bool, len(context))
		for _, c := range context {
			in[c] = true
		}
		for _, ev := range evidence {
			if in[ev] {
				hits++
			}
		}
	}
	return float64(hits) / float64(len(evidence)), nil
}

// cutFirstRune is s[0], s[1:] on code points.
func cutFirstRune(s string) (string, string, bool) {
	for i := range s {
		if i > 0 {
			return s[:i], s[i:], true
		}
	}
	return s, "", s != ""
}

// NumpyMean is numpy.mean of float64 values: numpy's pairwise summation
// (a plain sum below eight values, eight partial sums up to 128, halves
// above), divided by the count. It differs from a plain left-to-right sum
// in the last bits from eight values on. Empty gives NaN, as numpy does.
func NumpyMean(xs []float64) float64 {
	if len(xs) == 0 {
		return nan()
	}
	return pairwiseSum(xs) / float64(len(xs))
}

func pairwiseSum(a []float64) float64 {
	n := len(a)
	switch {
	case n < 8:
		res := 0.0
		for _, x := range a {
			res += x
		}
		return res
	case n <= 128:
		var r [8]float64
		copy(r[:], a[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := 0; j < 8; j++ {
				r[j] += a[i+j]
			}
		}
		res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			res += a[i]
		}
		return res
	default:
		n2 := n / 2
		n2 -= n2 % 8
		return pairwiseSum(a[:n2]) + pairwiseSum(a[n2:])
	}
}

// Round3 is Python's round(x, 3), with which LoCoMo's evaluate_qa.py
// stores each question's score: the exact binary value rounded to three
// decimals, ties to even.
func Round3(x float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 3, 64), 64)
	if err != nil {
		return x
	}
	return r
}
