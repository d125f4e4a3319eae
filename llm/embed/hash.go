package embed

import (
	"context"
	"hash/fnv"
	"math"
	"strings"
	"unicode"

	"github.com/memharness/memharness/llm"
)

// DefaultDim is the dimension Hash uses when Dim is not positive.
const DefaultDim = 256

// Hash is a deterministic bag-of-features embedder (feature hashing).
//
// Text is lowercased and split into units: runs of Unicode letters and digits
// form words, and each CJK character (Han, kana, Hangul) is a unit of its own
// because those scripts do not separate words with spaces. Every unit and
// every pair of adjacent units (a word bigram, or a CJK character bigram) is
// hashed with 64-bit FNV-1a; the hash picks a bucket and a sign, and the
// feature adds sign*(1+ln tf) to its bucket. The vector is L2-normalised.
// The result depends only on the text and Dim, so it is identical on every
// machine. Text without letters or digits maps to the zero vector.
type Hash struct {
	Dim int
}

var _ llm.Embedder = Hash{}

// Embed implements llm.Embedder.
func (h Hash) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = h.Vector(t)
	}
	return out, nil
}

// Vector embeds one text.
func (h Hash) Vector(text string) []float32 {
	dim := h.Dim
	if dim <= 0 {
		dim = DefaultDim
	}
	units := Units(text)
	tf := make(map[string]int, 2*len(units))
	for i, u := range units {
		tf[u]++
		if i > 0 {
			// NUL cannot occur inside a unit, so bigrams never collide
			// with unigrams before hashing.
			tf[units[i-1]+"\x00"+u]++
		}
	}
	acc := make([]float64, dim)
	for f, n := range tf {
		hs := fnv.New64a()
		hs.Write([]byte(f))
		v := hs.Sum64()
		w := 1 + math.Log(float64(n))
		if v>>63 == 1 {
			w = -w
		}
		acc[v%uint64(dim)] += w
	}
	var norm float64
	for _, x := range acc {
		norm += x * x
	}
	vec := make([]float32, dim)
	if norm == 0 {
		return vec
	}
	norm = math.Sqrt(norm)
	for i, x := range acc {
		vec[i] = float32(x / norm)
	}
	return vec
}

// Units splits text into the lowercase units Hash embeds: words of letters
// and digits, and single CJK characters.
func Units(text string) []string {
	var units []string
	var word strings.Builder
	flush := func() {
		if word.Len() > 0 {
			units = append(units, word.String())
			word.Reset()
		}
	}
	for _, r := range strings.ToLower(text) {
		switch {
		case isCJK(r):
			flush()
			units = append(units, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			word.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
	return units
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}
