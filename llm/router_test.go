package llm

import (
	"context"
	"fmt"
	"math"
	"testing"
)

// namedModels returns models that answer with their own name.
func namedModels(names ...string) []Model {
	ms := make([]Model, len(names))
	for i, n := range names {
		ms[i] = ModelFunc(func(context.Context, Request) (Response, error) { return Response{Endpoint: n}, nil })
	}
	return ms
}

func TestRouterAffinityIsStable(t *testing.T) {
	names := []string{"a", "b", "c", "d"}
	r := NewRouter(namedModels(names...), names)
	// The same router, built with the names in another order, must agree:
	// routing depends on names, not positions.
	rev := []string{"d", "c", "b", "a"}
	r2 := NewRouter(namedModels(rev...), rev)
	for i := range 500 {
		req := Request{Affinity: fmt.Sprintf("user-%d", i), SampleID: fmt.Sprintf("s-%d", i)}
		first, _ := r.Generate(context.Background(), req)
		for range 3 {
			again, _ := r.Generate(context.Background(), req)
			if again.Endpoint != first.Endpoint {
				t.Fatalf("%s went to %s then %s", req.Affinity, first.Endpoint, again.Endpoint)
			}
		}
		if other, _ := r2.Generate(context.Background(), req); other.Endpoint != first.Endpoint {
			t.Fatalf("%s: %s vs %s with reordered names", req.Affinity, first.Endpoint, other.Endpoint)
		}
	}
}

func TestRouterSpread(t *testing.T) {
	tests := []struct {
		name    string
		weights []float64
		key     func(i int) Request
	}{
		{"affinity equal", nil, func(i int) Request { return Request{Affinity: fmt.Sprint("u", i)} }},
		{"sample id fallback", nil, func(i int) Request { return Request{SampleID: fmt.Sprint("s", i)} }},
		{"keyless", nil, func(int) Request { return Request{} }},
		{"weighted", []float64{1, 2, 3, 2}, func(i int) Request { return Request{Affinity: fmt.Sprint("u", i)} }},
	}
	names := []string{"http://gpu0:8000/v1", "http://gpu1:8000/v1", "http://gpu2:8000/v1", "http://gpu3:8000/v1"}
	const n = 20000
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := NewWeightedRouter(namedModels(names...), names, tc.weights)
			if err != nil {
				t.Fatal(err)
			}
			counts := map[string]int{}
			for i := range n {
				resp, _ := r.Generate(context.Background(), tc.key(i))
				counts[resp.Endpoint]++
			}
			w := tc.weights
			if w == nil {
				w = []float64{1, 1, 1, 1}
			}
			total := 0.0
			for _, x := range w {
				total += x
			}
			for i, name := range names {
				want := n * w[i] / total
				if got := float64(counts[name]); math.Abs(got-want) > 0.06*want {
					t.Errorf("%s got %v requests, want %.0f ± 6%%", name, got, want)
				}
			}
		})
	}
}

func TestRouterAffinityWinsOverSampleID(t *testing.T) {
	names := []string{"a", "b", "c"}
	r := NewRouter(namedModels(names...), names)
	want := names[r.Pick("user-7")]
	for i := range 50 {
		resp, _ := r.Generate(context.Background(), Request{Affinity: "user-7", SampleID: fmt.Sprint(i)})
		if resp.Endpoint != want {
			t.Fatalf("sample %d of user-7 went to %s, want %s", i, resp.Endpoint, want)
		}
	}
}

func TestRouterRemovingEndpointMovesOnlyItsKeys(t *testing.T) {
	all := []string{"a", "b", "c", "d"}
	r4 := NewRouter(namedModels(all...), all)
	r3 := NewRouter(namedModels("a", "b", "c"), []string{"a", "b", "c"})
	for i := range 2000 {
		k := fmt.Sprint("u", i)
		before := all[r4.Pick(k)]
		after := []string{"a", "b", "c"}[r3.Pick(k)]
		if before != "d" && before != after {
			t.Fatalf("key %s moved from %s to %s though %s stayed", k, before, after, before)
		}
	}
}

func TestRouterValidates(t *testing.T) {
	ms := namedModels("a", "b")
	bad := []struct {
		names   []string
		weights []float64
	}{
		{[]string{"a"}, nil},
		{[]string{"a", "a"}, nil},
		{[]string{"a", "b"}, []float64{1}},
		{[]string{"a", "b"}, []float64{1, 0}},
		{[]string{"a", "b"}, []float64{1, math.NaN()}},
		{[]string{"a", "b"}, []float64{1, math.Inf(1)}},
	}
	for _, tc := range bad {
		if _, err := NewWeightedRouter(ms, tc.names, tc.weights); err == nil {
			t.Errorf("NewWeightedRouter(%v, %v) succeeded", tc.names, tc.weights)
		}
	}
	if _, err := NewWeightedRouter(nil, nil, nil); err == nil {
		t.Error("empty router accepted")
	}
	defer func() {
		if recover() == nil {
			t.Error("NewRouter did not panic on mismatched names")
		}
	}()
	NewRouter(ms, []string{"a"})
}
