// Package sampling picks the test actions of a user the way the PraMem and
// OmniBehavior reference code does (its _balanced_sample), so that our test
// sets match the authors' when seeded alike, and derives per-user seeds.
package sampling

import (
	"sort"

	"github.com/memharness/memharness/datasets/pyrandom"
)

// DefaultBuckets is the number of time buckets the reference uses.
const DefaultBuckets = 10

// Candidate describes one test-window record to the sampler.
type Candidate struct {
	// Scene is the record's domain (canonical scene name); the sampler
	// round-robins over scenes.
	Scene string
	// High reports a high-value record (see HighValue).
	High bool
	// TestTimeIndex is the record's position in the user's test window; the
	// result is ordered by it.
	TestTimeIndex int
}

// BalancedSample picks k of the candidates with DefaultBuckets time buckets,
// seeding CPython's generator with seed. It returns positions into cands,
// ordered by TestTimeIndex.
func BalancedSample(cands []Candidate, k int, seed int64) []int {
	return BalancedSampleBuckets(cands, k, DefaultBuckets, seed)
}

// Balanced applies BalancedSample to any item type: describe maps an item
// to its Candidate view, and the picked items come back in time order.
func Balanced[T any](items []T, describe func(T) Candidate, k int, seed int64) []T {
	cands := make([]Candidate, len(items))
	for i, it := range items {
		cands[i] = describe(it)
	}
	pos := BalancedSample(cands, k, seed)
	out := make([]T, len(pos))
	for i, p := range pos {
		out[i] = items[p]
	}
	return out
}

// BalancedSampleBuckets is BalancedSample with an explicit bucket count. The
// candidates must be in time order (contiguous slices are the buckets).
//
// Per bucket, scenes are visited round-robin in a shuffled order; within a
// scene a coin picks the high- or low-value list when both are non-empty,
// and an item is popped at a random position. Every RNG draw happens in the
// reference's order so that the result is identical.
func BalancedSampleBuckets(cands []Candidate, k, buckets int, seed int64) []int {
	rng := pyrandom.New(seed)
	n := len(cands)
	if n == 0 || k <= 0 {
		return nil
	}
	if n <= k {
		return byTime(cands, seqInts(n))
	}
	nb := max(1, min(buckets, n/2, k))
	base, extra := k/nb, k%nb
	size := n / nb

	var picked []int
	for b := 0; b < nb; b++ {
		start := b * size
		end := start + size
		if b == nb-1 {
			end = n
		}
		target := base
		if b < extra {
			target++
		}
		if end-start == 0 || target <= 0 {
			continue
		}
		if end-start <= target {
			for i := start; i < end; i++ {
				picked = append(picked, i)
			}
			continue
		}
		picked = append(picked, sampleBucket(rng, cands, start, end, target)...)
	}
	return byTime(cands, picked)
}

// pools holds one scene's candidates split by value, in time order.
type pools struct{ high, low []int }

func sampleBucket(rng *pyrandom.Rand, cands []Candidate, start, end, target int) []int {
	var order []string // scenes in first-appearance order
	byScene := map[string]*pools{}
	for i := start; i < end; i++ {
		c := cands[i]
		p := byScene[c.Scene]
		if p == nil {
			p = &pools{}
			byScene[c.Scene] = p
			order = append(order, c.Scene)
		}
		if c.High {
			p.high = append(p.high, i)
		} else {
			p.low = append(p.low, i)
		}
	}
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })

	var out []int
	idx := 0
	for len(out) < target && len(order) > 0 {
		p := byScene[order[idx]]
		hasHigh, hasLow := len(p.high) > 0, len(p.low) > 0
		if !hasHigh && !hasLow {
			order = append(order[:idx], order[idx+1:]...)
			if len(order) > 0 {
				idx %= len(order)
			}
			continue
		}
		pickHigh := hasHigh
		if hasHigh && hasLow {
			pickHigh = rng.Random() < 0.5
		}
		list := &p.low
		if pickHigh {
			list = &p.high
		}
		j := rng.RandInt(0, len(*list)-1)
		out = append(out, (*list)[j])
		*list = append((*list)[:j], (*list)[j+1:]...)
		idx = (idx + 1) % len(order)
	}
	return out
}

// byTime orders positions by TestTimeIndex, keeping ties in pick order as
// Python's stable sort does.
func byTime(cands []Candidate, pos []int) []int {
	sort.SliceStable(pos, func(a, b int) bool {
		return cands[pos[a]].TestTimeIndex < cands[pos[b]].TestTimeIndex
	})
	return pos
}

func seqInts(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
