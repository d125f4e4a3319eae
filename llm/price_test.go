package llm

import (
	"context"
	"math"
	"testing"
)

func TestPricesCost(t *testing.T) {
	p := Prices{PromptPer1M: 2, CompletionPer1M: 8, CachedPromptPer1M: 0.5}
	tests := []struct {
		name string
		p    Prices
		u    Usage
		want float64
	}{
		{"plain", p, Usage{PromptTokens: 1_000_000, CompletionTokens: 500_000}, 2 + 4},
		{"cached share", p, Usage{PromptTokens: 1_000_000, CachedTokens: 400_000}, 0.6*2 + 0.4*0.5},
		{"cached defaults to prompt rate", Prices{PromptPer1M: 2}, Usage{PromptTokens: 1_000_000, CachedTokens: 400_000}, 2},
		{"cached above prompt is clamped", p, Usage{PromptTokens: 100, CachedTokens: 1000}, 100 * 0.5 / 1e6},
		{"zero", p, Usage{}, 0},
	}
	for _, tc := range tests {
		if got := tc.p.Cost(tc.u); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: Cost = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestPriceTableLookup(t *testing.T) {
	tab := PriceTable{
		"gpt-4o":      {PromptPer1M: 1},
		"gpt-4o-mini": {PromptPer1M: 2},
		"qwen":        {PromptPer1M: 3},
	}
	tests := map[string]float64{
		"gpt-4o":            1,
		"gpt-4o-2024-08-06": 1,
		"gpt-4o-mini-2024":  2,
		"qwen3-8b":          3,
		"llama":             -1,
	}
	for model, want := range tests {
		p, ok := tab.Lookup(model)
		if want < 0 {
			if ok {
				t.Errorf("Lookup(%q) found %v", model, p)
			}
			continue
		}
		if !ok || p.PromptPer1M != want {
			t.Errorf("Lookup(%q) = %v, %v; want %v", model, p, ok, want)
		}
	}
}

func TestWithPrices(t *testing.T) {
	inner := ModelFunc(func(_ context.Context, req Request) (Response, error) {
		r := Response{Model: req.Purpose, Usage: Usage{PromptTokens: 1_000_000}}
		r.Cached = req.SampleID == "cached"
		if r.Cached {
			r.Usage.Cost = 42
		}
		return r, nil
	})
	m := WithPrices(inner, PriceTable{"known": {PromptPer1M: 3}, "cfg": {PromptPer1M: 5}}, "cfg")
	tests := []struct {
		req  Request
		want float64
	}{
		{Request{Purpose: "known"}, 3},
		{Request{Purpose: "unknown-served-name"}, 5},
		{Request{Purpose: "known", SampleID: "cached"}, 42},
	}
	for _, tc := range tests {
		resp, _ := m.Generate(context.Background(), tc.req)
		if resp.Usage.Cost != tc.want {
			t.Errorf("%+v: cost %v, want %v", tc.req, resp.Usage.Cost, tc.want)
		}
	}
	if WithPrices(inner, nil, "x") == nil {
		t.Error("nil table should return the model unchanged")
	}
}
