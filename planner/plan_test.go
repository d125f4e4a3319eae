package planner

import (
	"slices"
	"testing"
	"time"

	"github.com/memharness/memharness/internal/prefixcache"
	"github.com/memharness/memharness/llm"
)

func chainOf(prefix, n int, tail uint64) prefixcache.Chain {
	s := make(prefixcache.Seq, 0, n+1)
	for i := range n {
		s = append(s, uint64(prefix*1000+i))
	}
	return prefixcache.ChainOf(append(s, tail), 16)
}

func TestBuild(t *testing.T) {
	calls := []Call{
		{Method: "a", Purpose: "predict", PromptTokens: 100, MaxCompletion: 10, Chain: chainOf(1, 64, 1)},
		{Method: "a", Purpose: "predict", PromptTokens: 100, MaxCompletion: 10, Chain: chainOf(1, 64, 2)},
		{Method: "b", Purpose: "build", PromptTokens: 50, Estimated: true, Weight: 2},
	}
	tests := []struct {
		name      string
		prices    *llm.Prices
		wantCost  *float64
		wantCache *float64
	}{
		{"unpriced", nil, nil, nil},
		{"priced", &llm.Prices{PromptPer1M: 1e6, CompletionPer1M: 1e6}, ptr(320.0), ptr(320.0)},
		// 64 of the second prompt's tokens come from the cache at half price.
		{"cached rate", &llm.Prices{PromptPer1M: 1e6, CompletionPer1M: 1e6, CachedPromptPer1M: 5e5}, ptr(320.0), ptr(288.0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Build("x", calls, nil, Options{Prices: tt.prices, Concurrency: 1, Latency: time.Second, DefaultMaxCompletion: 0})
			if p.Calls != 4 || p.PromptTokens != 300 || p.MaxCompletionTokens != 20 || !p.CompletionUnbounded || !p.Estimated {
				t.Errorf("totals %+v", p.Purpose)
			}
			if got := p.Methods["a"].ByPurpose["predict"]; got.Calls != 2 || got.Estimated {
				t.Errorf("a/predict %+v", got)
			}
			if !eqPtr(p.CostUSD, tt.wantCost) || !eqPtr(p.CostWithCacheUSD, tt.wantCache) {
				t.Errorf("cost %v, with cache %v; want %v, %v", deref(p.CostUSD), deref(p.CostWithCacheUSD), deref(tt.wantCost), deref(tt.wantCache))
			}
			if p.PrefixCache.HarnessOrder != 64 || p.PrefixCache.Ideal != 64 || p.PrefixCache.FileOrder != 64 {
				t.Errorf("prefix cache %+v", p.PrefixCache)
			}
			if p.WallSec != 4 {
				t.Errorf("wall %v s, want 4", p.WallSec)
			}
		})
	}
}

func TestApproxChainCountsAsApprox(t *testing.T) {
	for _, s := range []string{"", "hello world, a few words", "用户在直播间停留了三十秒", "mixed 混合 text 文本 1234"} {
		c := prefixcache.Chainer{Block: 1}
		var w float64
		approxChain(&c, s, &w)
		want := int(1.5*float64(countCJK(s)) + 1.3*(float64(len([]rune(s))-countCJK(s))/5))
		if d := c.Tokens - want; d < -1 || d > 1 {
			t.Errorf("%q: %d pseudo-tokens, Approx counts %d", s, c.Tokens, want)
		}
	}
}

func countCJK(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x4E00 && r <= 0x9FFF {
			n++
		}
	}
	return n
}

func ptr(f float64) *float64 { return &f }

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

func eqPtr(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	d := *a - *b
	return d < 1e-9 && d > -1e-9
}

func TestInterleaveBuildsOneStepPerWorker(t *testing.T) {
	builds := [][]Call{make([]Call, 3), make([]Call, 1), make([]Call, 2), nil}
	tests := []struct {
		name    string
		order   []int
		workers int
		waits   []int
		want    [][2]int
	}{
		{"one worker builds one memory after the other", []int{0, 1, 2, 3}, 1, nil, [][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {2, 0}, {2, 1}}},
		{"two workers take turns, a free one takes the next memory", []int{0, 1, 2, 3}, 2, nil, [][2]int{{0, 0}, {1, 0}, {0, 1}, {2, 0}, {0, 2}, {2, 1}}},
		{"the given order", []int{2, 0, 1}, 3, nil, [][2]int{{2, 0}, {0, 0}, {1, 0}, {2, 1}, {0, 1}, {0, 2}}},
		// Unit 2 resumes unit 0's construction: it starts once unit 0's
		// last call went, and unit 1 takes the free worker meanwhile.
		{"a resuming memory waits for the one it resumes", []int{0, 2, 1, 3}, 3, []int{-1, -1, 0, -1},
			[][2]int{{0, 0}, {1, 0}, {0, 1}, {0, 2}, {2, 0}, {2, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := interleave(builds, tt.order, tt.workers, tt.waits); !slices.Equal(got, tt.want) {
				t.Errorf("interleave = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBuildNamesTheCallsItCannotModel(t *testing.T) {
	calls := []Call{
		{Method: "m", Purpose: "predict", PromptTokens: 64, Chain: prefixcache.ChainOf(make(prefixcache.Seq, 64), 16)},
		{Method: "m", Purpose: "build", PromptTokens: 10, Weight: 0.5},
		{Method: "m", Purpose: "build", PromptTokens: 10, Weight: 1.5},
	}
	pc := Build("x", calls, nil, Options{Block: 16}).PrefixCache
	want := []UnmodelledCalls{{Method: "m", Purpose: "build", Calls: 2}}
	if !slices.Equal(pc.Unmodelled, want) || pc.ModelledTokens != 64 {
		t.Errorf("unmodelled %+v (modelled %d tokens), want %+v (64)", pc.Unmodelled, pc.ModelledTokens, want)
	}
}

// TestBuildModelsThePrefixHold: two calls sharing a prefix sent side by
// side each compute it; with the prefix hold the second waits for the
// first, except when its purpose goes through provider batches. Without a
// file order, the file order is the same calls unheld.
func TestBuildModelsThePrefixHold(t *testing.T) {
	calls := []Call{
		{Method: "a", Purpose: "pramem.reflect", PromptTokens: 65, Chain: chainOf(1, 64, 1)},
		{Method: "b", Purpose: "pramem.reflect", PromptTokens: 65, Chain: chainOf(1, 64, 2)},
	}
	for _, tc := range []struct {
		name          string
		hold          bool
		batched       []string
		harness, file int
	}{
		{"no hold", false, nil, 0, 0},
		{"hold", true, nil, 64, 0},
		{"hold, purpose batched", true, []string{"pramem.reflect"}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Build("c", calls, nil, Options{Concurrency: 8, PrefixHold: tc.hold, BatchPurposes: tc.batched})
			if got := p.PrefixCache; got.HarnessOrder != tc.harness || got.FileOrder != tc.file || got.Ideal != 64 {
				t.Errorf("harness %d, file %d, ideal %d; want %d, %d, 64", got.HarnessOrder, got.FileOrder, got.Ideal, tc.harness, tc.file)
			}
		})
	}
}
