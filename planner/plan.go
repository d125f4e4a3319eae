// Package planner says what a run will cost before it starts: per method
// and call purpose, the calls, prompt tokens, an upper bound of completion
// tokens, the cost under the configured prices and the wall time at the
// configured concurrency, plus the prompt tokens a server's prefix cache
// could reuse in three request orders (package internal/prefixcache), over
// every call whose prompt the plan knows, memory construction included.
//
// A plan is built from Calls: the runner-specific code (Predict for
// behaviour prediction) lists them without any endpoint being called. A
// call whose prompt is known exactly carries its token chain; a call whose
// size depends on model answers (practice rounds, redraws, update loops) is
// Estimated, and the plan says so.
package planner

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/memharness/memharness/internal/prefixcache"
	"github.com/memharness/memharness/llm"
)

// Call is one planned model call.
type Call struct {
	Method  string
	Purpose string
	// Model is the model that answers it (prices are looked up by it).
	Model        string
	PromptTokens int
	// MaxCompletion is the purpose's max-token setting (0: the server's
	// default, which the plan cannot bound).
	MaxCompletion int
	// Chain is the prompt's block chain when the prompt is known exactly;
	// nil otherwise (the call then shares no prefix in the model).
	Chain prefixcache.Chain
	// Estimated marks calls whose number or size depends on model answers.
	Estimated bool
	// Weight scales the call when it stands for several (a rehearsed
	// user's construction calls standing for every user); 0 means 1.
	Weight float64
	// After is 1 + the index, in the harness's order, of the call this
	// one is sent after, once that one is answered (the next step of a
	// memory's construction, the next call of a sample, a question held
	// back until the one whose prompt it extends is answered); 0: none.
	After int
}

func (c Call) weight() float64 {
	if c.Weight == 0 {
		return 1
	}
	return c.Weight
}

// Options are the plan's settings.
type Options struct {
	// Prices apply to every model of the run (backbone.prices); nil: unpriced.
	Prices *llm.Prices
	// Concurrency is the run's number of calls in flight (eval.concurrency).
	Concurrency int
	// Latency is the assumed time of one call.
	Latency time.Duration
	// Block and CacheTokens size the prefix-cache model.
	Block, CacheTokens int
	// DefaultMaxCompletion bounds calls whose purpose sets no max tokens
	// (0: such calls make the completion bound unknown).
	DefaultMaxCompletion int
	// BatchPurposes are the purposes backbone.batch sends through provider
	// batches, priced at BatchPrices (nil: the plan has no batch column).
	BatchPurposes []string
	BatchPrices   *llm.Prices
	// PrefixHold models the run's prefix hold (backbone.prefix_hold): a
	// live call that shares more with a call in flight than with the cache
	// is sent once that call is answered (calls of BatchPurposes are
	// never held).
	PrefixHold bool
}

// Purpose is the plan of one call purpose of one method.
type Purpose struct {
	Calls               int      `json:"calls"`
	PromptTokens        int      `json:"prompt_tokens"`
	MaxCompletionTokens int      `json:"max_completion_tokens"`
	CompletionUnbounded bool     `json:"completion_unbounded,omitempty"`
	CostUSD             *float64 `json:"cost_usd"`
	Estimated           bool     `json:"estimated"`
}

// Method is one method's plan.
type Method struct {
	Purpose
	ByPurpose map[string]Purpose `json:"by_purpose"`
}

// PrefixCache is the reusable prompt tokens in each order.
type PrefixCache struct {
	Ideal        int `json:"ideal"`
	FileOrder    int `json:"file_order"`
	HarnessOrder int `json:"harness_order"`
	// ModelledTokens is the prompt tokens of the calls whose prompts are
	// known (the only ones the model sees).
	ModelledTokens int `json:"modelled_prompt_tokens"`
	Block          int `json:"block"`
	CacheTokens    int `json:"cache_tokens"`
	// Unmodelled names the calls whose prompts the plan does not know
	// (method and purpose, with how many calls they stand for), which the
	// model leaves out; redraws of invalid answers are not planned at all.
	Unmodelled []UnmodelledCalls `json:"unmodelled,omitempty"`
}

// UnmodelledCalls is one method and purpose's calls left out of the
// prefix-cache model.
type UnmodelledCalls struct {
	Method  string `json:"method"`
	Purpose string `json:"purpose"`
	Calls   int    `json:"calls"`
}

// Plan is what a run will spend.
type Plan struct {
	Config string `json:"config"`
	Purpose
	// CostWithCacheUSD prices the harness order's reusable tokens at the
	// cached-prompt rate (nil when unpriced).
	CostWithCacheUSD *float64          `json:"cost_with_prefix_cache_usd"`
	Concurrency      int               `json:"concurrency"`
	LatencySec       float64           `json:"latency_per_call_s"`
	WallSec          float64           `json:"wall_s"`
	Methods          map[string]Method `json:"methods"`
	MethodOrder      []string          `json:"method_order"`
	PrefixCache      PrefixCache       `json:"prefix_cache"`
	// CostWithBatchesUSD is the cost with the calls of BatchPurposes priced
	// at the batch price, beside CostUSD (all live); nil without
	// backbone.batch or prices.
	CostWithBatchesUSD *float64 `json:"cost_with_batches_usd,omitempty"`
	BatchPurposes      []string `json:"batch_purposes,omitempty"`
	// Estimates says, one line each, which parts are estimates and how.
	Estimates []string `json:"estimates"`
}

// Build sums calls (given in the harness's issue order) into a plan; file
// lists the same calls' indices in file order (nil: the harness's order).
func Build(name string, calls []Call, file []int, o Options) Plan {
	p := Plan{Config: name, Methods: map[string]Method{}, Concurrency: max(1, o.Concurrency), LatencySec: o.Latency.Seconds()}
	type acc struct {
		calls, prompt, completion, cost float64
		batchCost                       float64
		unbounded, estimated, priced    bool
	}
	per := map[[2]string]*acc{}
	var order [][2]string
	for _, c := range calls {
		k := [2]string{c.Method, c.Purpose}
		a := per[k]
		if a == nil {
			a = &acc{priced: o.Prices != nil}
			per[k] = a
			order = append(order, k)
			if !slices.Contains(p.MethodOrder, c.Method) {
				p.MethodOrder = append(p.MethodOrder, c.Method)
			}
		}
		w := c.weight()
		mc := c.MaxCompletion
		if mc <= 0 {
			mc = o.DefaultMaxCompletion
			if mc <= 0 {
				a.unbounded = true
			}
		}
		a.calls += w
		a.prompt += w * float64(c.PromptTokens)
		a.completion += w * float64(mc)
		a.estimated = a.estimated || c.Estimated
		if a.priced {
			u := llm.Usage{PromptTokens: c.PromptTokens, CompletionTokens: mc}
			a.cost += w * o.Prices.Cost(u)
			if o.BatchPrices != nil && slices.Contains(o.BatchPurposes, c.Purpose) {
				a.batchCost += w * o.BatchPrices.Cost(u)
			} else {
				a.batchCost += w * o.Prices.Cost(u)
			}
		}
	}
	round := func(x float64) int { return int(math.Round(x)) }
	p.Purpose = Purpose{CostUSD: zeroCost(o.Prices != nil)}
	for _, k := range order {
		a := per[k]
		pp := Purpose{Calls: round(a.calls), PromptTokens: round(a.prompt), MaxCompletionTokens: round(a.completion),
			CompletionUnbounded: a.unbounded, Estimated: a.estimated}
		if a.priced {
			c := a.cost
			pp.CostUSD = &c
		}
		m := p.Methods[k[0]]
		if m.ByPurpose == nil {
			m.ByPurpose = map[string]Purpose{}
			m.CostUSD = zeroCost(o.Prices != nil)
		}
		m.ByPurpose[k[1]] = pp
		m.Purpose = add(m.Purpose, pp)
		p.Methods[k[0]] = m
		p.Purpose = add(p.Purpose, pp)
	}
	if o.Prices != nil && o.BatchPrices != nil && len(o.BatchPurposes) > 0 {
		var c float64
		for _, k := range order {
			c += per[k].batchCost
		}
		p.CostWithBatchesUSD, p.BatchPurposes = &c, o.BatchPurposes
	}
	p.WallSec = math.Ceil(float64(p.Calls)/float64(p.Concurrency)) * o.Latency.Seconds()
	p.PrefixCache = prefixReuse(calls, file, o)
	if p.CostUSD != nil {
		c := *p.CostUSD - cacheSaving(o, p.PrefixCache)
		p.CostWithCacheUSD = &c
	}
	return p
}

func zeroCost(priced bool) *float64 {
	if !priced {
		return nil
	}
	var z float64
	return &z
}

// add sums two purposes; a cost is known only when both are.
func add(a, b Purpose) Purpose {
	out := Purpose{
		Calls: a.Calls + b.Calls, PromptTokens: a.PromptTokens + b.PromptTokens,
		MaxCompletionTokens: a.MaxCompletionTokens + b.MaxCompletionTokens,
		CompletionUnbounded: a.CompletionUnbounded || b.CompletionUnbounded,
		Estimated:           a.Estimated || b.Estimated,
	}
	if a.CostUSD != nil && b.CostUSD != nil {
		c := *a.CostUSD + *b.CostUSD
		out.CostUSD = &c
	}
	return out
}

// cacheSaving is what the harness order's reusable tokens save when billed
// at the cached-prompt rate (llm.Prices.Cost's rule: no cached rate, no
// saving).
func cacheSaving(o Options, pc PrefixCache) float64 {
	full := o.Prices.Cost(llm.Usage{PromptTokens: pc.HarnessOrder})
	cached := o.Prices.Cost(llm.Usage{PromptTokens: pc.HarnessOrder, CachedTokens: pc.HarnessOrder})
	return full - cached
}

func prefixReuse(calls []Call, file []int, o Options) (pc PrefixCache) {
	block := o.Block
	if block <= 0 {
		block = prefixcache.DefaultBlock
	}
	capTokens := o.CacheTokens
	if capTokens <= 0 {
		capTokens = prefixcache.DefaultCapacity
	}
	pc = PrefixCache{Block: block, CacheTokens: capTokens}
	mo := prefixcache.Options{Block: block, Capacity: capTokens, Concurrency: max(1, o.Concurrency)}
	harness := prefixcache.NewModel(mo)
	// Without a file order of its own, the file order is the harness's
	// order as sent without the prefix hold.
	var unheld *prefixcache.Model
	if file == nil && o.PrefixHold {
		unheld = prefixcache.NewModel(mo)
	}
	var chains []prefixcache.Chain
	added := make([]int, len(calls)) // a call's number in the model, -1: left out

	left := map[[2]string]float64{}
	var leftOrder [][2]string
	defer func() {
		if pc.ModelledTokens == 0 {
			return // not modelled at all (a plan that only counts)
		}
		for _, k := range leftOrder {
			pc.Unmodelled = append(pc.Unmodelled, UnmodelledCalls{Method: k[0], Purpose: k[1], Calls: int(math.Round(left[k]))})
		}
	}()
	for i, c := range calls {
		added[i] = -1
		if c.Chain == nil {
			k := [2]string{c.Method, c.Purpose}
			if _, ok := left[k]; !ok {
				leftOrder = append(leftOrder, k)
			}
			left[k] += c.weight()
			continue
		}
		pc.ModelledTokens += c.PromptTokens
		after := -1
		if c.After > 0 {
			after = added[c.After-1]
		}
		harness.AddHeld(c.Chain, after, o.PrefixHold && !slices.Contains(o.BatchPurposes, c.Purpose))
		if unheld != nil {
			unheld.AddAfter(c.Chain, after)
		}
		added[i] = len(chains)
		chains = append(chains, c.Chain)
	}
	pc.HarnessOrder = harness.Reused()
	pc.Ideal = prefixcache.Ideal(chains, block)
	if file == nil {
		pc.FileOrder = pc.HarnessOrder
		if unheld != nil {
			pc.FileOrder = unheld.Reused()
		}
		return pc
	}
	fm := prefixcache.NewModel(mo)
	for _, i := range file {
		if calls[i].Chain != nil {
			fm.Add(calls[i].Chain)
		}
	}
	pc.FileOrder = fm.Reused()
	return pc
}

// CostLines are the plan's cost sentences beyond the table: the cost with
// the harness order's prefix-cache reuse, and live beside batch cost when
// the run sends some purposes through provider batches.
func (p Plan) CostLines() []string {
	var out []string
	if p.CostWithCacheUSD != nil {
		out = append(out, fmt.Sprintf("cost with the harness order's prefix-cache reuse at the cached rate: %.2f", *p.CostWithCacheUSD))
	}
	if p.CostWithBatchesUSD != nil && p.CostUSD != nil {
		out = append(out, fmt.Sprintf("cost side by side: every call live %.2f, with %s in provider batches (backbone.batch) %.2f",
			*p.CostUSD, strings.Join(p.BatchPurposes, ", "), *p.CostWithBatchesUSD))
	}
	return out
}
