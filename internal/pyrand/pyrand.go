// Package pyrand reproduces the parts of Python's random module that
// published task selections depend on: random.Random(seed) for an integer
// seed (MT19937 seeded by init_by_array over the seed's 32-bit words),
// getrandbits, and shuffle. Same seed, same sequence as CPython 3.
package pyrand

import "math/bits"

const (
	n         = 624
	m         = 397
	matrixA   = 0x9908b0df
	upperMask = 0x80000000
	lowerMask = 0x7fffffff
)

// Rand is one random.Random instance.
type Rand struct {
	mt  [n]uint32
	mti int
}

// New is random.Random(seed) for a non-negative integer seed.
func New(seed uint64) *Rand {
	// CPython splits abs(seed) into 32-bit words, least significant first
	// (at least one word).
	key := []uint32{uint32(seed)}
	if hi := uint32(seed >> 32); hi != 0 {
		key = append(key, hi)
	}
	r := &Rand{}
	r.initByArray(key)
	return r
}

func (r *Rand) initGenrand(s uint32) {
	r.mt[0] = s
	for i := 1; i < n; i++ {
		r.mt[i] = 1812433253*(r.mt[i-1]^(r.mt[i-1]>>30)) + uint32(i)
	}
	r.mti = n
}

func (r *Rand) initByArray(key []uint32) {
	r.initGenrand(19650218)
	i, j := 1, 0
	k := max(n, len(key))
	for ; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = n - 1; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
	}
	r.mt[0] = 0x80000000
}

// Uint32 is genrand_uint32.
func (r *Rand) Uint32() uint32 {
	if r.mti >= n {
		for kk := 0; kk < n; kk++ {
			y := r.mt[kk]&upperMask | r.mt[(kk+1)%n]&lowerMask
			v := r.mt[(kk+m)%n] ^ (y >> 1)
			if y&1 != 0 {
				v ^= matrixA
			}
			r.mt[kk] = v
		}
		r.mti = 0
	}
	y := r.mt[r.mti]
	r.mti++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// GetRandBits is random.getrandbits(k) for 0 < k <= 32.
func (r *Rand) GetRandBits(k int) uint32 {
	return r.Uint32() >> (32 - k)
}

// randBelow is Random._randbelow_with_getrandbits(n).
func (r *Rand) randBelow(n int) int {
	k := bits.Len(uint(n))
	x := int(r.GetRandBits(k))
	for x >= n {
		x = int(r.GetRandBits(k))
	}
	return x
}

// Shuffle is random.shuffle on a list of length size, through swap.
func (r *Rand) Shuffle(size int, swap func(i, j int)) {
	for i := size - 1; i > 0; i-- {
		swap(i, r.randBelow(i+1))
	}
}

// ShuffledRange is `idxs = list(range(size)); random.Random(seed).shuffle(idxs)`.
func ShuffledRange(size int, seed uint64) []int {
	idx := make([]int, size)
	for i := range idx {
		idx[i] = i
	}
	New(seed).Shuffle(size, func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
	return idx
}
