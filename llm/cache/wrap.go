package cache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/memharness/memharness/llm"
)

// Wrap returns a Model that answers from the cache when it can and otherwise
// calls m, storing every successful response (marked invalid when req.Accept
// rejects it, see the package doc).
func (c *Cache) Wrap(m llm.Model) llm.Model { return &cached{c: c, inner: m} }

type cached struct {
	c     *Cache
	inner llm.Model
}

func (w *cached) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	kp, err := Parts(w.c.identity, req)
	if err != nil {
		return llm.Response{}, err
	}
	sum, err := kp.Sum()
	if err != nil {
		return llm.Response{}, err
	}
	e, ok, err := w.c.lookup(ctx, sum[:])
	if err != nil {
		return llm.Response{}, err
	}
	if ok {
		return llm.Response{
			Text: e.Text, Content: e.Content, Reasoning: e.Reasoning, Usage: e.Usage,
			Cached: true, Model: e.Model, Endpoint: e.Endpoint,
		}, nil
	}
	resp, err := w.inner.Generate(ctx, req)
	if err != nil {
		return resp, err // never cache errors
	}
	e = entry{
		Text: resp.Text, Content: resp.Reply(), HasContent: true, Reasoning: resp.Reasoning, Usage: resp.Usage,
		Model: resp.Model, Endpoint: resp.Endpoint, Created: time.Now().UnixNano(),
		Invalid: req.Accept != nil && !req.Accept(resp),
	}
	if err := w.c.store(sum[:], e); err != nil {
		// The answer was not persisted; report it so a run does
		// not record a sample the cache cannot replay.
		return resp, err
	}
	return resp, nil
}

// Explanation says how a request maps to the cache, for "why did this miss"
// debugging: diff the Canonical text of two requests that should have matched.
type Explanation struct {
	Key       string   // hex SHA-256
	Parts     KeyParts // the components hashed
	Canonical string   // the exact bytes hashed
	Hit       bool
	Stored    time.Time // when the entry was stored (zero on a miss)
}

// Explain reports the key components of req and whether the cache holds it.
func (c *Cache) Explain(ctx context.Context, req llm.Request) (Explanation, error) {
	kp, err := Parts(c.identity, req)
	if err != nil {
		return Explanation{}, err
	}
	b, err := kp.Canonical()
	if err != nil {
		return Explanation{}, err
	}
	sum := sha256.Sum256(b)
	e, ok, err := c.lookup(ctx, sum[:])
	if err != nil {
		return Explanation{}, fmt.Errorf("cache: explain: %w", err)
	}
	x := Explanation{Key: hex.EncodeToString(sum[:]), Parts: kp, Canonical: string(b), Hit: ok}
	if ok {
		x.Stored = time.Unix(0, e.Created)
	}
	return x, nil
}
