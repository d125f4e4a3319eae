// Package pyrandom is a port of CPython's random.Random (Mersenne Twister
// MT19937 plus the Python-level helpers built on it). The PraMem and
// OmniBehavior reference code draws its test samples with Python's random
// module, so reproducing the authors' samples bit for bit needs the same
// generator, the same seeding and the same derived algorithms.
package pyrandom

const (
	mtN       = 624
	mtM       = 397
	matrixA   = 0x9908b0df
	upperMask = 0x80000000
	lowerMask = 0x7fffffff
)

// Rand is one generator. The zero value is not usable; call New.
type Rand struct {
	mt  [mtN]uint32
	mti int
}

// New returns a generator seeded like random.Random(seed).
func New(seed int64) *Rand {
	r := &Rand{}
	r.Seed(seed)
	return r
}

// Seed reseeds like random.seed(n) for a Python int n: the key is the
// little-endian 32-bit words of |n| (seed 0 gives the key [0]).
func (r *Rand) Seed(n int64) {
	u := uint64(n)
	if n < 0 {
		u = uint64(-n) // MinInt64 wraps to 1<<63, which is |MinInt64|.
	}
	key := []uint32{uint32(u)}
	if hi := uint32(u >> 32); hi != 0 {
		key = append(key, hi)
	}
	r.SeedWords(key)
}

// SeedWords seeds from an explicit key (CPython's init_by_array), for seeds
// wider than 64 bits.
func (r *Rand) SeedWords(key []uint32) {
	if len(key) == 0 {
		key = []uint32{0}
	}
	r.initGenrand(19650218)
	i, j := 1, 0
	k := max(mtN, len(key))
	for ; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= mtN {
			r.mt[0] = r.mt[mtN-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = mtN - 1; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= mtN {
			r.mt[0] = r.mt[mtN-1]
			i = 1
		}
	}
	r.mt[0] = 0x80000000 // guarantees a non-zero initial state
}

func (r *Rand) initGenrand(s uint32) {
	r.mt[0] = s
	for i := 1; i < mtN; i++ {
		r.mt[i] = 1812433253*(r.mt[i-1]^(r.mt[i-1]>>30)) + uint32(i)
	}
	r.mti = mtN
}

// Uint32 returns the next raw 32-bit output (CPython's genrand_uint32).
func (r *Rand) Uint32() uint32 {
	if r.mti >= mtN {
		r.twist()
	}
	y := r.mt[r.mti]
	r.mti++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

func (r *Rand) twist() {
	var kk int
	mag := func(y uint32) uint32 { return (y & 1) * matrixA }
	for kk = 0; kk < mtN-mtM; kk++ {
		y := (r.mt[kk] & upperMask) | (r.mt[kk+1] & lowerMask)
		r.mt[kk] = r.mt[kk+mtM] ^ (y >> 1) ^ mag(y)
	}
	for ; kk < mtN-1; kk++ {
		y := (r.mt[kk] & upperMask) | (r.mt[kk+1] & lowerMask)
		r.mt[kk] = r.mt[kk+(mtM-mtN)] ^ (y >> 1) ^ mag(y)
	}
	y := (r.mt[mtN-1] & upperMask) | (r.mt[0] & lowerMask)
	r.mt[mtN-1] = r.mt[mtM-1] ^ (y >> 1) ^ mag(y)
	r.mti = 0
}
