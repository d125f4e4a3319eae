package llm

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"sync/atomic"
)

// Router spreads requests over several endpoints serving the same model.
// Requests with the same Affinity (else SampleID) always go to the same
// endpoint so its prefix cache is reused; requests with neither rotate.
//
// Routing is weighted rendezvous hashing over the endpoint names: it depends
// only on the key and the names (not on their order or on map iteration), and
// removing one endpoint moves only the keys that lived on it.
type Router struct {
	models  []Model
	names   []string
	weights []float64
	next    atomic.Uint64 // round-robin for keyless requests
}

// NewRouter routes over models with equal weights. names must be unique and
// as long as models; a mismatch is a programming error and panics.
func NewRouter(models []Model, names []string) *Router {
	r, err := NewWeightedRouter(models, names, nil)
	if err != nil {
		panic(err)
	}
	return r
}

// NewWeightedRouter routes over models in proportion to weights (nil means
// equal weights).
func NewWeightedRouter(models []Model, names []string, weights []float64) (*Router, error) {
	if len(models) == 0 {
		return nil, fmt.Errorf("llm: router needs at least one model")
	}
	if len(names) != len(models) {
		return nil, fmt.Errorf("llm: router has %d models but %d names", len(models), len(names))
	}
	if weights == nil {
		weights = make([]float64, len(models))
		for i := range weights {
			weights[i] = 1
		}
	}
	if len(weights) != len(models) {
		return nil, fmt.Errorf("llm: router has %d models but %d weights", len(models), len(weights))
	}
	seen := make(map[string]bool, len(names))
	for i, n := range names {
		if seen[n] {
			return nil, fmt.Errorf("llm: router endpoint name %q is used twice", n)
		}
		seen[n] = true
		if !(weights[i] > 0) || math.IsInf(weights[i], 0) {
			return nil, fmt.Errorf("llm: router weight %d (%s) must be positive and finite, got %v", i, n, weights[i])
		}
	}
	return &Router{
		models:  append([]Model(nil), models...),
		names:   append([]string(nil), names...),
		weights: append([]float64(nil), weights...),
	}, nil
}

// Names returns the endpoint names in construction order.
func (r *Router) Names() []string { return append([]string(nil), r.names...) }

// Pick returns the index of the endpoint for key.
func (r *Router) Pick(key string) int {
	best, bestScore := 0, math.Inf(-1)
	for i, n := range r.names {
		// Map the 64-bit hash to (0,1) and use -w/ln(u): the highest score
		// wins with probability proportional to w.
		u := (float64(hashKey(n, key)>>11) + 0.5) / (1 << 53)
		if s := -r.weights[i] / math.Log(u); s > bestScore {
			best, bestScore = i, s
		}
	}
	return best
}

// route picks the endpoint for one request.
func (r *Router) route(req Request) int {
	key := req.Affinity
	if key == "" {
		key = req.SampleID
	}
	if key == "" {
		// Keyless requests have no cache to reuse: spread them by weight.
		key = "\x00rr" + strconv.FormatUint(r.next.Add(1), 10)
	}
	return r.Pick(key)
}

// Generate forwards req to its endpoint.
func (r *Router) Generate(ctx context.Context, req Request) (Response, error) {
	return r.models[r.route(req)].Generate(ctx, req)
}

// hashKey is FNV-1a of name, a separator and key, finished with a
// splitmix64 step so nearby inputs spread over all 64 bits.
func hashKey(name, key string) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	x := uint64(offset)
	for i := 0; i < len(name); i++ {
		x = (x ^ uint64(name[i])) * prime
	}
	x *= prime // a zero byte separates name from key
	for i := 0; i < len(key); i++ {
		x = (x ^ uint64(key[i])) * prime
	}
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
