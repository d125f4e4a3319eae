package lifelong

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/methods/agent"
)

// orderTrajs is 4 trajectories in each of envs.
func orderTrajs(envs []string) []agent.Trajectory {
	var out []agent.Trajectory
	for _, e := range envs {
		for i := range 4 {
			out = append(out, agent.Trajectory{ID: fmt.Sprintf("%s_%d", e, i), Env: e, Task: e, Difficulty: i % 2})
		}
	}
	return out
}

// streamIDs lists a stream's trajectories stage by stage.
func streamIDs(st Stream) [][]string {
	var out [][]string
	for _, s := range st.Stages {
		var ids []string
		for _, b := range s.Batches {
			for _, t := range b.Items {
				ids = append(ids, t.ID)
			}
		}
		out = append(out, ids)
	}
	return out
}

// TestOrderStreamFirstIsTheConfigured: order 0 and order 1 are the stream
// as configured, so a run of one order learns what it learned before
// orders existed.
func TestOrderStreamFirstIsTheConfigured(t *testing.T) {
	envs := []string{"alfworld", "webshop", "toolqa"}
	trs := orderTrajs(envs)
	for _, kind := range []string{StreamSimilarity, StreamRandom, StreamBuffer} {
		want, err := NewStream(kind, trs, envs, 2, 42)
		if err != nil {
			t.Fatal(err)
		}
		for _, order := range []int{0, 1} {
			got, err := OrderStream(Config{Stream: kind, Batch: 2, Seed: 42, Order: order}, trs, envs)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s order %d differs from the configured stream", kind, order)
			}
		}
	}
}

// TestOrderStreamSimilarity: orders 2.. of a similarity stream learn the
// environments in other orders, one stage per environment, each order a
// different one (3 environments have 6 orders), the same on every call.
func TestOrderStreamSimilarity(t *testing.T) {
	envs := []string{"alfworld", "webshop", "toolqa"}
	trs := orderTrajs(envs)
	var seen [][]string
	for k := 1; k <= 6; k++ {
		c := Config{Stream: StreamSimilarity, Batch: 2, Seed: 42, Order: k}
		st, err := OrderStream(c, trs, envs)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := OrderStream(c, trs, envs)
		if !reflect.DeepEqual(st, again) {
			t.Errorf("order %d: two calls give two streams", k)
		}
		if !slices.Equal(slices.Sorted(slices.Values(st.Envs)), slices.Sorted(slices.Values(envs))) {
			t.Fatalf("order %d: envs %v are not a permutation of %v", k, st.Envs, envs)
		}
		for j, s := range st.Stages {
			if s.Env != st.Envs[j] || !slices.Equal(s.Eval, st.Envs[:j+1]) {
				t.Errorf("order %d stage %d: env %q eval %v, want %q and %v", k, j+1, s.Env, s.Eval, st.Envs[j], st.Envs[:j+1])
			}
			for _, b := range s.Batches {
				for _, tr := range b.Items {
					if tr.Env != s.Env {
						t.Errorf("order %d stage %d (%s) learns %s", k, j+1, s.Env, tr.ID)
					}
				}
			}
		}
		if slices.ContainsFunc(seen, func(p []string) bool { return slices.Equal(p, st.Envs) }) {
			t.Errorf("order %d repeats an earlier order %v (seen %v)", k, st.Envs, seen)
		}
		seen = append(seen, st.Envs)
	}
	if !slices.Equal(seen[0], envs) {
		t.Errorf("order 1 = %v, want the configured %v", seen[0], envs)
	}
}

// TestOrderStreamRandom: order 2 of a random or buffer stream is another
// shuffle of the same trajectories, with the stages still evaluated only
// at the end.
func TestOrderStreamRandom(t *testing.T) {
	envs := []string{"alfworld", "webshop", "toolqa"}
	trs := orderTrajs(envs)
	for _, kind := range []string{StreamRandom, StreamBuffer} {
		one, _ := OrderStream(Config{Stream: kind, Batch: 2, Seed: 42, Order: 1}, trs, envs)
		two, err := OrderStream(Config{Stream: kind, Batch: 2, Seed: 42, Order: 2}, trs, envs)
		if err != nil {
			t.Fatal(err)
		}
		if reflect.DeepEqual(streamIDs(one), streamIDs(two)) {
			t.Errorf("%s: order 2 learns what order 1 learns", kind)
		}
		if !slices.Equal(two.Envs, envs) || len(two.Stages[len(two.Stages)-1].Eval) != len(envs) || len(two.Stages[0].Eval) != 0 {
			t.Errorf("%s order 2: envs %v, evaluation only after the last stage expected", kind, two.Envs)
		}
		var a, b []string
		for _, s := range streamIDs(one) {
			a = append(a, s...)
		}
		for _, s := range streamIDs(two) {
			b = append(b, s...)
		}
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			t.Errorf("%s: order 2 learns other trajectories", kind)
		}
	}
}

func TestValidateOrders(t *testing.T) {
	base := Config{Methods: []MethodSpec{{Name: "react", Kind: "react"}}}.WithDefaults()
	for _, tc := range []struct {
		name string
		set  func(*Config)
		want string // "" = valid
	}{
		{"none", func(*Config) {}, ""},
		{"three orders, the second", func(c *Config) { c.Orders, c.Order = 3, 2 }, ""},
		{"named orders", func(c *Config) { c.NamedOrders = []string{"similarity", "random", "buffer"} }, ""},
		{"negative orders", func(c *Config) { c.Orders = -1 }, "lifelong.orders: -1, want >= 0"},
		{"too many orders", func(c *Config) { c.Orders = MaxOrders + 1 }, "lifelong.orders: 101, more than the 100"},
		{"order past orders", func(c *Config) { c.Orders, c.Order = 2, 3 }, "lifelong.order: 3, but orders is 2"},
		{"order without orders", func(c *Config) { c.Order = 2 }, "lifelong.order: 2, but orders is 0"},
		{"negative order", func(c *Config) { c.Order = -1 }, "lifelong.order: -1, want >= 0"},
		{"unknown stream", func(c *Config) { c.NamedOrders = []string{"similarity", "shuffled"} }, `lifelong.named_orders[1]: "shuffled" is not one of similarity, random, buffer`},
		{"repeated stream", func(c *Config) { c.NamedOrders = []string{"random", "buffer", "random"} }, `lifelong.named_orders[2]: "random" repeats named_orders[0]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := base
			tc.set(&c)
			err := c.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
