package predict

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/internal/bm25"
)

// maxDocRunes caps a document's text, as the reference's RAG setup does.
const maxDocRunes = 6000

// embedBatch bounds the texts sent in one Embed call.
const embedBatch = 64

// doc is one indexed document.
type doc struct {
	vector []float32 // embedding retriever
	terms  bm25.Doc  // BM25 retriever
}

// docIndex caches documents per user, keyed by a hash of their records, so
// each document is embedded once per user however many instances use it.
// It keeps the most recently used users only.
type docIndex struct {
	mu    sync.Mutex
	max   int
	users map[string]*userDocs
	order []string // least recently used first
}

type userDocs struct {
	mu   sync.Mutex // held while filling, so concurrent instances embed once
	docs map[[32]byte]doc
}

func newDocIndex(max int) *docIndex {
	return &docIndex{max: max, users: map[string]*userDocs{}}
}

func (x *docIndex) user(id string) *userDocs {
	x.mu.Lock()
	defer x.mu.Unlock()
	if i := slices.Index(x.order, id); i >= 0 {
		x.order = append(x.order[:i], x.order[i+1:]...)
	}
	x.order = append(x.order, id)
	u, ok := x.users[id]
	if !ok {
		u = &userDocs{docs: map[[32]byte]doc{}}
		x.users[id] = u
	}
	for len(x.order) > x.max {
		delete(x.users, x.order[0])
		x.order = x.order[1:]
	}
	return u
}

// spanKey hashes the records of one document.
func spanKey(events []behavior.Event) [32]byte {
	h := sha256.New()
	var n [8]byte
	for _, e := range events {
		for _, f := range [...]string{e.Time, e.Scene, e.RawScene, e.Context, e.Result} {
			binary.LittleEndian.PutUint64(n[:], uint64(len(f))) // length prefix: fields cannot run together
			h.Write(n[:])
			io.WriteString(h, f)
		}
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// documents returns the indexed form of each span of history, computing
// (and, for embeddings, embedding in batches) the ones not cached yet.
func (m *rag) documents(ctx context.Context, env Env, user string, history []behavior.Event, spans []docSpan) ([]doc, error) {
	if m.retriever == RetrieverEmbedding && env.Embedder == nil {
		return nil, fmt.Errorf("method %s: the embedding retriever needs an embedder", m.name)
	}
	p := m.prompts(env)
	u := m.index.user(user)
	u.mu.Lock()
	defer u.mu.Unlock()

	keys := make([][32]byte, len(spans))
	var missing []int
	queued := map[[32]byte]bool{}
	for i, s := range spans {
		keys[i] = spanKey(history[s.Start:s.End])
		if _, ok := u.docs[keys[i]]; !ok && !queued[keys[i]] {
			queued[keys[i]] = true
			missing = append(missing, i)
		}
	}
	texts := make([]string, len(missing))
	for j, i := range missing {
		t, err := docText(p, history[spans[i].Start:spans[i].End])
		if err != nil {
			return nil, err
		}
		texts[j] = t
	}
	if m.retriever == RetrieverBM25 {
		for j, i := range missing {
			u.docs[keys[i]] = doc{terms: bm25.NewDoc(bm25.Tokenize(texts[j]))}
		}
	} else {
		for lo := 0; lo < len(missing); lo += embedBatch {
			hi := min(lo+embedBatch, len(missing))
			vecs, err := env.Embedder.Embed(ctx, texts[lo:hi])
			if err != nil {
				return nil, fmt.Errorf("method %s: user %s: embed documents: %w", m.name, user, err)
			}
			if len(vecs) != hi-lo {
				return nil, fmt.Errorf("method %s: user %s: embedder returned %d vectors for %d documents", m.name, user, len(vecs), hi-lo)
			}
			for j, v := range vecs {
				u.docs[keys[missing[lo+j]]] = doc{vector: v}
			}
		}
	}
	out := make([]doc, len(spans))
	for i, k := range keys {
		out[i] = u.docs[k]
	}
	return out, nil
}

// docText renders a document's records (unnumbered) as the retriever reads it.
func docText(p *Prompts, events []behavior.Event) (string, error) {
	parts := make([]string, len(events))
	for i, e := range events {
		s, err := p.exec("record", newRecord(0, e))
		if err != nil {
			return "", err
		}
		parts[i] = s
	}
	return firstRunes(strings.Join(parts, "\n"), maxDocRunes), nil
}
