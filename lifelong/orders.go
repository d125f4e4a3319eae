package lifelong

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"

	"github.com/memharness/memharness/methods/agent"
)

// MaxOrders bounds lifelong.orders: every order is a whole run of every
// method over the stream.
const MaxOrders = 100

// Stream orders (lifelong.orders, lifelong.named_orders, lifelong.order).
// Each order is its own run, a sweep variant (bench/config expands the two
// keys into grid axes over lifelong.order and lifelong.stream), so resume,
// shard merge and the response cache work on it as on any run; the sweep's
// report compares the orders (docs/DESIGN_NOTES.md, "Stream orders").

// validateOrders checks the order keys: counts in range, named orders
// among the stream kinds, once each.
func validateOrders(c Config) []string {
	var out []string
	switch {
	case c.Orders < 0:
		out = append(out, fmt.Sprintf("orders: %d, want >= 0", c.Orders))
	case c.Orders > MaxOrders:
		out = append(out, fmt.Sprintf("orders: %d, more than the %d a run may hold (each order runs every method over the whole stream)", c.Orders, MaxOrders))
	}
	switch {
	case c.Order < 0:
		out = append(out, fmt.Sprintf("order: %d, want >= 0", c.Order))
	case c.Order > max(c.Orders, 1):
		out = append(out, fmt.Sprintf("order: %d, but orders is %d (order k runs the k-th of the orders)", c.Order, c.Orders))
	}
	seen := map[string]int{}
	for i, s := range c.NamedOrders {
		switch s {
		case StreamSimilarity, StreamRandom, StreamBuffer:
		default:
			out = append(out, fmt.Sprintf("named_orders[%d]: %q is not one of similarity, random, buffer", i, s))
			continue
		}
		if j, dup := seen[s]; dup {
			out = append(out, fmt.Sprintf("named_orders[%d]: %q repeats named_orders[%d]", i, s, j))
		}
		seen[s] = i
	}
	return out
}

// OrderSeed is the stream seed of order k (k >= 2) of a run seeded with
// seed: drawn from both, so orders differ from each other and from the
// configured stream.
func OrderSeed(seed int64, k int) int64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00order\x00%d", seed, k)
	return int64(h.Sum64() >> 1)
}

// OrderStream builds the stream of c's order over trajs and envs (the
// stream environments that run, in configured order). Order 0 or 1 is
// NewStream of the configured stream. Order k >= 2 seeds its stream with
// OrderSeed: a random or buffer stream is another global shuffle; a
// similarity stream learns the environments in another seeded order (one
// stage each, easy→hard within), distinct from orders 1..k−1 while the
// environments allow that many orders. The stream's Envs are its stage
// order, which is the S matrix's column order.
func OrderStream(c Config, trajs []agent.Trajectory, envs []string) (Stream, error) {
	if c.Order <= 1 {
		return NewStream(c.Stream, trajs, envs, c.Batch, c.Seed)
	}
	seed := OrderSeed(c.Seed, c.Order)
	if c.Stream != StreamSimilarity {
		return NewStream(c.Stream, trajs, envs, c.Batch, seed)
	}
	return NewStream(c.Stream, trajs, EnvOrder(envs, c.Seed, c.Order), c.Batch, seed)
}

// EnvOrder is the environment order of a similarity stream's order k:
// envs as given for k <= 1, else a seeded permutation that differs from
// every earlier order's while the environments have that many orders (n!
// of them), so K orders of a short stream are K different orders.
func EnvOrder(envs []string, seed int64, k int) []string {
	taken := [][]string{slices.Clone(envs)}
	for j := 2; j <= k; j++ {
		rng := rand.New(rand.NewPCG(uint64(OrderSeed(seed, j)), 0x6f72_6465_7273)) // "orders"
		var p []string
		// A handful of redraws finds an unused order when one is left;
		// past n! orders repeats are unavoidable and the last draw stands.
		for try := 0; try < 64; try++ {
			p = slices.Clone(envs)
			rng.Shuffle(len(p), func(a, b int) { p[a], p[b] = p[b], p[a] })
			if !slices.ContainsFunc(taken, func(q []string) bool { return slices.Equal(p, q) }) {
				break
			}
		}
		taken = append(taken, p)
	}
	return taken[min(max(k, 1), len(taken))-1]
}
