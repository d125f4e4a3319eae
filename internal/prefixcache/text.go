package prefixcache

// Text chains are prompts seen as bytes rather than tokens: what a harness
// that has no tokenizer of the server's model can know of a prompt's
// prefixes. A server's blocks are token blocks, so a text block boundary
// falls elsewhere; equal text prefixes still mean equal token prefixes up
// to about the last block, which is all a send order needs.
const (
	// TextBlock is the block size of a text chain, in bytes (about 16
	// tokens, the token model's DefaultBlock).
	TextBlock = 64
	// BytesPerToken sizes a text cache from a cache size in tokens.
	BytesPerToken = 4
)

// TextChainer builds the chain of a text in TextBlock-byte blocks, fed
// piece by piece. Each block is hashed eight bytes at a time, chained over
// the blocks before it, so a long prompt costs a few multiplications per
// word, not per byte.
type TextChainer struct {
	Chain Chain
	h     uint64
	buf   [TextBlock]byte
	n     int // bytes in buf
}

// WriteString appends s.
func (c *TextChainer) WriteString(s string) {
	for len(s) > 0 {
		if c.n == 0 && len(s) >= TextBlock {
			c.add(blockHash(c.h, s[:TextBlock]))
			s = s[TextBlock:]
			continue
		}
		k := copy(c.buf[c.n:], s)
		c.n += k
		s = s[k:]
		if c.n == TextBlock {
			c.add(blockHash(c.h, c.buf[:]))
			c.n = 0
		}
	}
}

// WriteByte appends b.
func (c *TextChainer) WriteByte(b byte) error {
	c.buf[c.n] = b
	c.n++
	if c.n == TextBlock {
		c.add(blockHash(c.h, c.buf[:]))
		c.n = 0
	}
	return nil
}

func (c *TextChainer) add(h uint64) {
	c.h = h
	c.Chain = append(c.Chain, h)
}

// blockHash chains one TextBlock-byte block onto h.
func blockHash[T string | []byte](h uint64, b T) uint64 {
	for i := 0; i < TextBlock; i += 8 {
		w := uint64(b[i]) | uint64(b[i+1])<<8 | uint64(b[i+2])<<16 | uint64(b[i+3])<<24 |
			uint64(b[i+4])<<32 | uint64(b[i+5])<<40 | uint64(b[i+6])<<48 | uint64(b[i+7])<<56
		h = mix(h ^ mix(w+0x9e3779b97f4a7c15))
	}
	return h
}

// Shared is how many leading blocks a and b have in common. Block i's hash
// covers blocks 0..i, so equal hashes at i mean equal blocks before it: the
// answer is found by bisection.
func Shared(a, b Chain) int {
	lo, hi := 0, min(len(a), len(b)) // a[:lo] equals b[:lo]; beyond hi they differ
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if a[mid-1] == b[mid-1] {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// Cached is how many leading blocks of c the model's cache holds now.
func (m *Model) Cached(c Chain) int {
	n := 0
	for _, h := range c {
		if !m.cache.has(h) {
			break
		}
		n++
	}
	return n
}
