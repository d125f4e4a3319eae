package pyrandom

import (
	"fmt"
	"math"
	"math/bits"
	"sort"
)

// Random returns a float in [0, 1) with 53 random bits, like random.random().
func (r *Rand) Random() float64 {
	a := r.Uint32() >> 5
	b := r.Uint32() >> 6
	return (float64(a)*67108864.0 + float64(b)) * (1.0 / 9007199254740992.0)
}

// GetRandBits returns k random bits like random.getrandbits(k), for
// 0 <= k <= 64. Wider values are assembled from 32-bit words, least
// significant first, and the last word keeps its most significant bits.
func (r *Rand) GetRandBits(k int) uint64 {
	switch {
	case k < 0 || k > 64:
		panic(fmt.Sprintf("pyrandom: getrandbits(%d) out of range 0..64", k))
	case k == 0:
		return 0
	case k <= 32:
		return uint64(r.Uint32() >> (32 - k))
	}
	lo := uint64(r.Uint32())
	hi := r.Uint32() >> (64 - k)
	return lo | uint64(hi)<<32
}

// randBelow returns a uniform int in [0, n) by rejection sampling on
// n.bit_length() bits, exactly like CPython's _randbelow_with_getrandbits.
func (r *Rand) randBelow(n uint64) uint64 {
	k := bits.Len64(n)
	v := r.GetRandBits(k)
	for v >= n {
		v = r.GetRandBits(k)
	}
	return v
}

// RandBelow returns a uniform int in [0, n); it panics when n <= 0.
func (r *Rand) RandBelow(n int) int {
	if n <= 0 {
		panic("pyrandom: RandBelow of a non-positive bound")
	}
	return int(r.randBelow(uint64(n)))
}

// RandInt returns a uniform int in [a, b], like random.randint(a, b).
func (r *Rand) RandInt(a, b int) int {
	if b < a {
		panic(fmt.Sprintf("pyrandom: empty range for randint(%d, %d)", a, b))
	}
	return a + int(r.randBelow(uint64(b-a)+1))
}

// Shuffle permutes n elements in place like random.shuffle: Fisher–Yates
// from the top, swapping i with _randbelow(i+1).
func (r *Rand) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		j := int(r.randBelow(uint64(i) + 1))
		swap(i, j)
	}
}

// Sample returns k distinct positions of a population of size n, in the
// order random.sample(range(n), k) would pick them. It follows CPython's two
// branches: a shrinking pool for small populations, a rejection set for
// large ones, so the draws match.
func (r *Rand) Sample(n, k int) []int {
	if k < 0 || k > n {
		panic(fmt.Sprintf("pyrandom: sample larger than population (k=%d, n=%d)", k, n))
	}
	out := make([]int, k)
	setsize := 21
	if k > 5 {
		setsize += int(math.Pow(4, math.Ceil(math.Log(float64(k*3))/math.Log(4))))
	}
	if n <= setsize {
		pool := make([]int, n)
		for i := range pool {
			pool[i] = i
		}
		for i := 0; i < k; i++ {
			j := int(r.randBelow(uint64(n - i)))
			out[i] = pool[j]
			pool[j] = pool[n-i-1]
		}
		return out
	}
	selected := make(map[int]struct{}, k)
	for i := 0; i < k; i++ {
		j := int(r.randBelow(uint64(n)))
		for {
			if _, dup := selected[j]; !dup {
				break
			}
			j = int(r.randBelow(uint64(n)))
		}
		selected[j] = struct{}{}
		out[i] = j
	}
	return out
}

// Choices returns k positions drawn with replacement from a population of
// len(weights), like random.choices(range(n), weights=weights, k=k):
// cumulative weights and a right bisection on random()*total.
func (r *Rand) Choices(weights []float64, k int) ([]int, error) {
	n := len(weights)
	if n == 0 {
		return nil, fmt.Errorf("pyrandom: choices from an empty population")
	}
	cum := make([]float64, n)
	total := 0.0
	for i, w := range weights {
		total += w
		cum[i] = total
	}
	if !(total > 0) || math.IsInf(total, 0) {
		return nil, fmt.Errorf("pyrandom: total of weights must be positive and finite, got %v", total)
	}
	hi := n - 1
	out := make([]int, k)
	for i := range out {
		x := r.Random() * total
		// bisect_right over cum[0:hi]: the first index whose cumulative
		// weight exceeds x.
		out[i] = sort.Search(hi, func(j int) bool { return cum[j] > x })
	}
	return out, nil
}
