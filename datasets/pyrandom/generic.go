package pyrandom

// SampleOf is random.sample(pop, k) on a slice: k distinct elements in
// selection order.
func SampleOf[T any](r *Rand, pop []T, k int) []T {
	pos := r.Sample(len(pop), k)
	out := make([]T, len(pos))
	for i, p := range pos {
		out[i] = pop[p]
	}
	return out
}

// ShuffleSlice is random.shuffle(s) on a slice.
func ShuffleSlice[T any](r *Rand, s []T) {
	r.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
}
