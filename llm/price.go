package llm

import (
	"context"
	"strings"
)

// Prices are US dollars per million tokens for one model. Cached prompt
// tokens are a subset of prompt tokens; when CachedPromptPer1M is zero they
// are billed at PromptPer1M.
type Prices struct {
	PromptPer1M       float64 `yaml:"prompt_per_1m" json:"prompt_per_1m"`
	CompletionPer1M   float64 `yaml:"completion_per_1m" json:"completion_per_1m"`
	CachedPromptPer1M float64 `yaml:"cached_prompt_per_1m,omitempty" json:"cached_prompt_per_1m,omitempty"`
}

// Cost prices one call's usage.
func (p Prices) Cost(u Usage) float64 {
	cachedRate := p.CachedPromptPer1M
	if cachedRate == 0 {
		cachedRate = p.PromptPer1M
	}
	cached := min(u.CachedTokens, u.PromptTokens)
	return (float64(u.PromptTokens-cached)*p.PromptPer1M +
		float64(cached)*cachedRate +
		float64(u.CompletionTokens)*p.CompletionPer1M) / 1e6
}

// PriceTable maps model names to prices.
type PriceTable map[string]Prices

// Lookup finds the prices of model: an exact name first, else the longest
// key that prefixes it (servers often answer "gpt-4o-2024-08-06" for
// "gpt-4o").
func (t PriceTable) Lookup(model string) (Prices, bool) {
	if p, ok := t[model]; ok {
		return p, true
	}
	best, found := "", false
	for k := range t {
		if k == "" || !strings.HasPrefix(model, k) {
			continue
		}
		// Longest wins; ties by name so the answer never depends on map order.
		if !found || len(k) > len(best) || (len(k) == len(best) && k < best) {
			best, found = k, true
		}
	}
	return t[best], found
}

type priced struct {
	next     Model
	table    PriceTable
	fallback string
}

// WithPrices fills Usage.Cost of live responses from table, keyed by the
// responding model (or fallback when the server names none or an unknown
// one). Cached responses keep the cost recorded when they were made.
func WithPrices(m Model, table PriceTable, fallback string) Model {
	if len(table) == 0 {
		return m
	}
	return &priced{next: m, table: table, fallback: fallback}
}

func (p *priced) Generate(ctx context.Context, req Request) (Response, error) {
	resp, err := p.next.Generate(ctx, req)
	if err != nil || resp.Cached {
		return resp, err
	}
	pr, ok := p.table.Lookup(resp.Model)
	if !ok {
		pr, ok = p.table.Lookup(p.fallback)
	}
	if ok {
		resp.Usage.Cost = pr.Cost(resp.Usage)
	}
	return resp, nil
}
