package backbone

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/batch"
)

// BatchDir is the folder of a run directory that holds its batch journals,
// one subfolder per model.
const BatchDir = "batches"

// simBatchPoll and simBatchDelay make the stand-in's batches quick.
const (
	simBatchPoll  = 10 * time.Millisecond
	simBatchDelay = 10 * time.Millisecond
	// simBatchLinger is short: on sim every worker comes back at once.
	simBatchLinger = 50 * time.Millisecond
)

// BatchPricesOf is what a call answered by a provider batch costs (nil:
// not priced): the batch prices, else the live ones less the discount.
func BatchPricesOf(cfg *config.Config) *llm.Prices {
	p := cfg.Backbone.Prices
	if p == nil {
		return nil
	}
	out := PricesOf(cfg)
	switch {
	case p.BatchPromptPer1M > 0 || p.BatchCompletionPer1M > 0:
		out.PromptPer1M, out.CompletionPer1M = p.BatchPromptPer1M, p.BatchCompletionPer1M
		out.CachedPromptPer1M = 0
	case p.BatchDiscount > 0:
		f := 1 - p.BatchDiscount
		out.PromptPer1M *= f
		out.CompletionPer1M *= f
		out.CachedPromptPer1M *= f
	}
	return out
}

// BatchPurposesOf are the purposes the config sends through provider
// batches (none without backbone.batch).
func BatchPurposesOf(cfg *config.Config) []string {
	if cfg.Backbone.Batch == nil {
		return nil
	}
	return cfg.Backbone.Batch.Purposes
}

// batchLayer puts live behind a batch layer when the config batches some
// purposes (live itself otherwise). A model's waves and journal live in
// their own folder of the run's batch directory: one batch holds one model.
func (b *Backbone) batchLayer(ctx context.Context, cfg *config.Config, live llm.Model, modelName, identity, step string,
	urls []string, key, out string, warn io.Writer) (llm.Model, error) {
	bc := cfg.Backbone.Batch
	if bc == nil {
		return live, nil
	}
	name := safeName(modelName) + "-" + shortHash(identity)
	if step != "" {
		name += "-" + step
	}
	lc := batch.Config{
		Dir:      filepath.Join(out, BatchDir, name),
		Purposes: bc.Purposes, Model: modelName, Identity: identity,
		WaveSize: bc.WaveSize, Linger: bc.Linger.Duration, Poll: bc.Poll.Duration, Window: bc.Window,
		RetryLive: bc.Retry == "live", Resubmits: bc.Resubmits, Prices: BatchPricesOf(cfg),
		Notify: func(s string) { fmt.Fprintln(warn, s) },
	}
	var (
		l   *batch.Layer
		err error
	)
	switch {
	case bc.Provider == "offline":
		lc.Provider, lc.Endpoint = "offline", "offline"
		lc.WaveBytes = -1 // vLLM's run-batch reads a file of any size: one wave holds every ready call
		if len(urls) > 0 {
			lc.Endpoint = llm.SanitizeURL(urls[0])
		}
		l, err = batch.Open(ctx, lc, nil, live)
	case b.Kind == "sim":
		lc.Provider, lc.Endpoint = "sim", ""
		if lc.Poll <= 0 {
			lc.Poll = simBatchPoll
		}
		if lc.Linger <= 0 {
			lc.Linger = simBatchLinger
		}
		delay := bc.SimDelay.Duration
		if delay <= 0 {
			delay = simBatchDelay
		}
		l, err = batch.NewStandIn(ctx, lc, live, delay)
	default:
		lc.Provider, lc.Endpoint = llm.SanitizeURL(urls[0]), llm.SanitizeURL(urls[0])
		prov, perr := batch.NewOpenAI(urls[0], key, llm.NewHTTPClient(4))
		if perr != nil {
			return nil, perr
		}
		l, err = batch.Open(ctx, lc, prov, live)
	}
	if err != nil {
		return nil, fmt.Errorf("backbone.batch: %w", err)
	}
	b.Batches = append(b.Batches, l)
	return l, nil
}

// safeName keeps a model name usable as a folder name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_' {
			return r
		}
		return '_'
	}, s)
}
