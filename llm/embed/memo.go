package embed

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync"

	"github.com/memharness/memharness/llm"
)

// Memo returns an Embedder that remembers every vector e produced, keyed by
// the SHA-256 of the text, so a text is sent to e at most once per batch and
// never again after its first success. It is safe for concurrent use; two
// goroutines missing the same text at the same moment may both embed it.
// Returned vectors are copies the caller may modify.
func Memo(e llm.Embedder) llm.Embedder {
	return &memo{inner: e, seen: make(map[[sha256.Size]byte][]float32)}
}

type memo struct {
	inner llm.Embedder
	mu    sync.RWMutex
	seen  map[[sha256.Size]byte][]float32
}

func (m *memo) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	keys := make([][sha256.Size]byte, len(texts))
	out := make([][]float32, len(texts))
	var missing []string
	pending := make(map[[sha256.Size]byte]bool)
	m.mu.RLock()
	for i, t := range texts {
		keys[i] = sha256.Sum256([]byte(t))
		if v, ok := m.seen[keys[i]]; ok {
			out[i] = v
		} else if !pending[keys[i]] {
			pending[keys[i]] = true
			missing = append(missing, t)
		}
	}
	m.mu.RUnlock()
	if len(missing) > 0 {
		vecs, err := m.inner.Embed(ctx, missing)
		if err != nil {
			return nil, err
		}
		if len(vecs) != len(missing) {
			return nil, fmt.Errorf("embed: memo: inner embedder returned %d vectors for %d texts", len(vecs), len(missing))
		}
		fresh := make(map[[sha256.Size]byte][]float32, len(missing))
		m.mu.Lock()
		for j, t := range missing {
			k := sha256.Sum256([]byte(t))
			fresh[k] = vecs[j]
			m.seen[k] = vecs[j]
		}
		m.mu.Unlock()
		for i := range out {
			if out[i] == nil {
				out[i] = fresh[keys[i]]
			}
		}
	}
	for i, v := range out {
		out[i] = append([]float32(nil), v...)
	}
	return out, nil
}
