// Package prefixcache models a serving engine's prefix cache (vLLM's
// automatic prefix caching, SGLang's radix cache, hosted prompt caching) at
// the level of full token blocks, so a plan can say how many prompt tokens a
// server could reuse in a given request order.
//
// A prompt is cut into full blocks of Block tokens; block i is identified by
// a hash chained over blocks 0..i, so two prompts share block i only when
// they agree on every token up to its end. A request reuses its longest run
// of leading blocks that are in the cache; then all its blocks are inserted
// (least recently used blocks are evicted beyond Capacity tokens).
// Concurrency is modelled as a lag: the request at position p sees what the
// requests at positions < p-Concurrency+1 have inserted, since the ones
// after are still being computed when it starts.
package prefixcache

import "container/list"

// Defaults of the model (the and most engines' block size).
const (
	DefaultBlock    = 16
	DefaultCapacity = 1 << 20
)

// Seq is one prompt as token IDs (any stable integers: the model compares
// them only for equality).
type Seq []uint64

// Options size the cache.
type Options struct {
	// Block is the block size in tokens; <= 0 means DefaultBlock.
	Block int
	// Capacity is the cache size in tokens; <= 0 means DefaultCapacity.
	Capacity int
	// Concurrency is how many requests are in flight at once; <= 1 means
	// each request sees every earlier one.
	Concurrency int
}

func (o Options) block() int {
	if o.Block <= 0 {
		return DefaultBlock
	}
	return o.Block
}

func (o Options) capacityBlocks() int {
	c := o.Capacity
	if c <= 0 {
		c = DefaultCapacity
	}
	return max(1, c/o.block())
}

// Chain is the chained hashes of a prompt's full blocks: element i
// identifies tokens 0..(i+1)*block-1, so equal elements mean equal prefixes.
type Chain []uint64

// ChainOf cuts s into full blocks and chains their hashes (deterministic,
// so plans are the same on every machine).
func ChainOf(s Seq, block int) Chain {
	if block <= 0 {
		block = DefaultBlock
	}
	var c Chainer
	c.Block = block
	for _, t := range s {
		c.Add(t)
	}
	return c.Chain
}

// Chainer builds a Chain one token at a time, so a caller never holds a
// long prompt's tokens.
type Chainer struct {
	Block int
	Chain Chain
	// Tokens is how many tokens were added.
	Tokens int
	h      uint64
}

// Add appends one token.
func (c *Chainer) Add(t uint64) {
	c.h = mix(c.h ^ mix(t+0x9e3779b97f4a7c15))
	c.Tokens++
	if c.Tokens%c.Block == 0 {
		c.Chain = append(c.Chain, c.h)
	}
}

// mix is splitmix64's finalizer.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// lru is a set of block hashes with least-recently-used eviction.
type lru struct {
	cap   int
	order *list.List // front: most recent
	at    map[uint64]*list.Element
}

func newLRU(capBlocks int) *lru {
	return &lru{cap: capBlocks, order: list.New(), at: map[uint64]*list.Element{}}
}

func (c *lru) has(h uint64) bool { _, ok := c.at[h]; return ok }

func (c *lru) touch(h uint64) {
	if e, ok := c.at[h]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.at[h] = c.order.PushFront(h)
	for c.order.Len() > c.cap {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.at, last.Value.(uint64))
	}
}

// Reuse is the number of prompt tokens the cache serves when the prompts
// are issued in the given order.
func Reuse(prompts []Chain, o Options) int {
	m := NewModel(o)
	for _, p := range prompts {
		m.Add(p)
	}
	return m.Reused()
}

// Model is the cache fed one request at a time, in issue order.
type Model struct {
	o       Options
	block   int
	cache   *lru
	pending []request // requests still in flight, oldest first
	added   int       // requests added so far
	reused  int
}

// request is one request in flight; done when a later one was sent after
// it finished (AddAfter), which put its blocks in the cache then.
type request struct {
	n     int
	chain Chain
	done  bool
}

// NewModel starts an empty cache.
func NewModel(o Options) *Model {
	return &Model{o: o, block: o.block(), cache: newLRU(o.capacityBlocks())}
}

// Add issues one request (its chain, cut at the model's block size) and
// returns the tokens of it the cache served.
func (m *Model) Add(chain Chain) int { return m.AddAfter(chain, -1) }

// AddAfter issues one request that is sent only once the request added
// as number after (counted from 0 in Add order; < 0: none) has finished,
// so that request's blocks are in the cache first (a sender that holds a
// request back until the one it extends is answered).
func (m *Model) AddAfter(chain Chain, after int) int { return m.AddHeld(chain, after, false) }

// AddHeld is AddAfter for a sender that, with hold, also holds the
// request back while one still in flight shares a longer prefix with it
// than the cache holds, until that one is answered (llm's prefix hold):
// the request is added after it, and again after any other that then
// shares more than the cache.
func (m *Model) AddHeld(chain Chain, after int, hold bool) int {
	lag := max(1, m.o.Concurrency) - 1
	for i := range m.pending {
		if r := &m.pending[i]; r.n == after && !r.done {
			m.insert(r.chain)
			r.done = true
		}
	}
	for len(m.pending) > lag {
		if !m.pending[0].done {
			m.insert(m.pending[0].chain)
		}
		m.pending = m.pending[1:]
	}
	hit := m.Cached(chain)
	for hold {
		lead, best := -1, hit
		for i, r := range m.pending {
			if n := Shared(r.chain, chain); !r.done && n > best {
				lead, best = i, n
			}
		}
		if lead < 0 {
			break
		}
		m.insert(m.pending[lead].chain)
		m.pending[lead].done = true
		hit = m.Cached(chain)
	}
	// The hits are used now: refresh them so a long request's own prefix
	// is not evicted while it runs.
	for _, h := range chain[:hit] {
		m.cache.touch(h)
	}
	m.pending = append(m.pending, request{n: m.added, chain: chain})
	m.added++
	m.reused += hit * m.block
	return hit * m.block
}

func (m *Model) insert(chain Chain) {
	for _, h := range chain {
		m.cache.touch(h)
	}
}

// Reused is the tokens served from the cache so far.
func (m *Model) Reused() int { return m.reused }

// Ideal is the reuse when every shared prefix is computed once: every full
// block whose chain was seen before, in any earlier prompt, is reused
// (an unbounded cache and no concurrency).
func Ideal(prompts []Chain, block int) int {
	if block <= 0 {
		block = DefaultBlock
	}
	seen := map[uint64]struct{}{}
	reused := 0
	for _, p := range prompts {
		for _, h := range p {
			if _, ok := seen[h]; ok {
				reused += block
				continue
			}
			seen[h] = struct{}{}
		}
	}
	return reused
}

// Has reports whether a block is in the cache now.
func (m *Model) Has(h uint64) bool { return m.cache.has(h) }

// Insert puts a finished request's blocks in the cache (a replay that
// knows when each request was answered).
func (m *Model) Insert(chain Chain) { m.insert(chain) }
