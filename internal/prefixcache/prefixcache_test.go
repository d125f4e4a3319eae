package prefixcache

import (
	"fmt"
	"slices"
	"testing"
)

func seq(prefix, n int, tail uint64) Seq {
	s := make(Seq, 0, n)
	for i := range n {
		s = append(s, uint64(prefix*1_000_000+i))
	}
	return append(s, tail)
}

func chains(block int, ss ...Seq) []Chain {
	out := make([]Chain, len(ss))
	for i, s := range ss {
		out[i] = ChainOf(s, block)
	}
	return out
}

func TestReuse(t *testing.T) {
	// Three prompts share a 64-token prefix and differ after it; a fourth
	// shares nothing.
	a, b, c := seq(1, 64, 1), seq(1, 64, 2), seq(1, 64, 3)
	d := seq(2, 64, 1)
	tests := []struct {
		name    string
		prompts []Seq
		o       Options
		want    int
	}{
		{"sequential", []Seq{a, b, c, d}, Options{Block: 16}, 2 * 64},
		{"all in flight at once", []Seq{a, b, c, d}, Options{Block: 16, Concurrency: 4}, 0},
		{"two in flight", []Seq{a, b, c, d}, Options{Block: 16, Concurrency: 2}, 64},
		{"partial block is never reused", []Seq{seq(1, 70, 1), seq(1, 70, 2)}, Options{Block: 16}, 64},
		{"evicted by a cache of one prompt", []Seq{a, d, b}, Options{Block: 16, Capacity: 64}, 0},
		{"kept by a cache of two prompts", []Seq{a, d, b}, Options{Block: 16, Capacity: 160}, 64},
		{"different first token shares nothing", []Seq{seq(3, 64, 0), seq(4, 64, 0)}, Options{Block: 16}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Reuse(chains(tt.o.block(), tt.prompts...), tt.o); got != tt.want {
				t.Errorf("Reuse = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestIdealBoundsEveryOrder(t *testing.T) {
	ps := chains(16, seq(1, 64, 1), seq(2, 64, 1), seq(1, 64, 2), seq(2, 64, 2), seq(1, 64, 3))
	ideal := Ideal(ps, 16)
	if ideal != 3*64 {
		t.Fatalf("Ideal = %d, want %d", ideal, 3*64)
	}
	for c := 1; c <= 5; c++ {
		if got := Reuse(ps, Options{Block: 16, Concurrency: c}); got > ideal {
			t.Errorf("concurrency %d: reuse %d above the ideal %d", c, got, ideal)
		}
	}
}

func TestChainIsPrefixClosed(t *testing.T) {
	long, short := ChainOf(seq(1, 100, 7), 16), ChainOf(seq(1, 50, 9), 16)
	if len(short) != 3 || len(long) != 6 {
		t.Fatalf("chain lengths %d, %d", len(short), len(long))
	}
	for i := range short {
		if short[i] != long[i] {
			t.Errorf("block %d differs between prompts sharing it", i)
		}
	}
}

// BenchmarkPrefixReuse feeds the model a behaviour-prediction-like stream:
// users whose records share an 8K-token history, several questions each.
func BenchmarkPrefixReuse(b *testing.B) {
	var ps []Chain
	for u := range 8 {
		for rec := range 10 {
			for q := range 6 {
				s := seq(u*100+rec, 8000, uint64(q))
				ps = append(ps, ChainOf(s, DefaultBlock))
			}
		}
	}
	tokens := 0
	for _, p := range ps {
		tokens += len(p) * DefaultBlock
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		Reuse(ps, Options{Concurrency: 32})
	}
	b.ReportMetric(float64(tokens)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mtokens/s")
}

func TestLagOrder(t *testing.T) {
	// Two groups of three, lag 2: both leaders first, then the followers.
	got := LagOrder([]int{0, 0, 0, 1, 1, 1}, 2)
	want := []int{0, 3, 1, 2, 4, 5}
	if !slices.Equal(got, want) {
		t.Errorf("LagOrder = %v, want %v", got, want)
	}
	// Every item exactly once, whatever the lag.
	groups := []int{0, 0, 1, 2, 2, 2, 2, 3, 4, 4}
	for lag := 0; lag < 12; lag++ {
		o := LagOrder(groups, lag)
		s := slices.Clone(o)
		slices.Sort(s)
		for i := range s {
			if s[i] != i {
				t.Fatalf("lag %d: %v is not a permutation", lag, o)
			}
		}
	}
}

func TestGroupOrderReachesTheIdeal(t *testing.T) {
	// Two methods × 2 users × 3 records × 4 questions, listed method-major
	// (the file order): every record's 8 prompts share its history.
	var users, classes []string
	var records []int
	var ps []Chain
	for m := range 2 {
		for u := range 2 {
			for r := range 3 {
				for q := range 4 {
					users = append(users, fmt.Sprint("u", u))
					records = append(records, r)
					classes = append(classes, "")
					ps = append(ps, ChainOf(seq(u*10+r, 4096, uint64(m*10+q)), 16))
				}
			}
		}
	}
	o := Options{Block: 16, Capacity: 1 << 16, Concurrency: 4}
	ideal, file := Ideal(ps, 16), Reuse(ps, o)
	var ordered []Chain
	for _, i := range GroupOrder(users, records, classes, o.Concurrency) {
		ordered = append(ordered, ps[i])
	}
	got := Reuse(ordered, o)
	if float64(got) < 0.9*float64(ideal) || got <= file {
		t.Errorf("grouped order reuses %d, file order %d, ideal %d", got, file, ideal)
	}
}

func TestAddAfterSeesTheAnsweredRequest(t *testing.T) {
	a, b := ChainOf(seq(1, 64, 1), 16), ChainOf(seq(1, 64, 2), 16)
	tests := []struct {
		name  string
		after int
		want  int
	}{
		{"sent alongside", -1, 0},
		{"sent once the first is answered", 0, 64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewModel(Options{Block: 16, Concurrency: 8})
			m.Add(a)
			if got := m.AddAfter(b, tt.after); got != tt.want {
				t.Errorf("reused %d, want %d", got, tt.want)
			}
		})
	}
}
