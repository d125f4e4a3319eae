package apibank

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// bm25 is Okapi BM25 with rank_bm25's defaults (k1 1.5, b 0.75, negative idf
// floored at 0.25 × mean idf), which the SearchEngine API ranks with.
type bm25 struct {
	docFreqs []map[string]int
	docLen   []float64
	avgdl    float64
	idf      map[string]float64
}

func newBM25(docs [][]string) *bm25 {
	b := &bm25{idf: map[string]float64{}}
	nd := map[string]int{}
	total := 0
	for _, d := range docs {
		f := map[string]int{}
		for _, w := range d {
			f[w]++
		}
		for w := range f {
			nd[w]++
		}
		b.docFreqs = append(b.docFreqs, f)
		b.docLen = append(b.docLen, float64(len(d)))
		total += len(d)
	}
	if len(docs) > 0 {
		b.avgdl = float64(total) / float64(len(docs))
	}
	n := float64(len(docs))
	sum := 0.0
	var negative []string
	// Sorted iteration keeps the float sum deterministic.
	words := make([]string, 0, len(nd))
	for w := range nd {
		words = append(words, w)
	}
	sort.Strings(words)
	for _, w := range words {
		v := math.Log(n-float64(nd[w])+0.5) - math.Log(float64(nd[w])+0.5)
		b.idf[w] = v
		sum += v
		if v < 0 {
			negative = append(negative, w)
		}
	}
	if len(words) > 0 {
		eps := 0.25 * sum / float64(len(words))
		for _, w := range negative {
			b.idf[w] = eps
		}
	}
	return b
}

func (b *bm25) scores(query []string) []float64 {
	const k1, bb = 1.5, 0.75
	out := make([]float64, len(b.docFreqs))
	for _, q := range query {
		idf := b.idf[q]
		for i, f := range b.docFreqs {
			tf := float64(f[q])
			out[i] += idf * (tf * (k1 + 1) / (tf + k1*(1-bb+bb*b.docLen[i]/b.avgdl)))
		}
	}
	return out
}

// rank returns document indexes by descending score (stable on ties).
func rank(scores []float64) []int {
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return scores[idx[i]] > scores[idx[j]] })
	return idx
}

// wordTokens approximates NLTK's word_tokenize closely enough for the
// pre-tokenised SearchEngine corpus: words, with punctuation split off as
// tokens of its own (keeping intra-word hyphens, dots and apostrophes).
func wordTokens(s string) []string {
	var out []string
	for _, f := range strings.Fields(s) {
		for len(f) > 0 && strings.ContainsRune(`"'([{`+"`", rune(f[0])) {
			out = append(out, f[:1])
			f = f[1:]
		}
		var tail []string
		for len(f) > 0 && strings.ContainsRune(`"')]}.,;:!?`, rune(f[len(f)-1])) {
			tail = append([]string{f[len(f)-1:]}, tail...)
			f = f[:len(f)-1]
		}
		if f != "" {
			out = append(out, f)
		}
		out = append(out, tail...)
	}
	return out
}

// searchTokens is the ToolSearcher fallback's tokeniser: lower-case letter
// and digit runs with a light plural/verb-suffix strip.
func searchTokens(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		out = append(out, stem(w))
	}
	return out
}

func stem(w string) string {
	for _, suf := range []string{"ing", "es", "ed", "s"} {
		if len(w) > len(suf)+2 && strings.HasSuffix(w, suf) {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}
