package bench

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/internal/prefixcache"
	"github.com/memharness/memharness/planner"
)

// TestPlanPrefixReusePaperConfigs plans each paper config whose prefix
// reuse bench plan models at the small size, with the prefix-cache model
// over every call it can model (memory construction included), and holds
// the harness's order, prefix hold included, to at least 99 % of the
// ideal reuse, at the config's concurrency and the default cache size.
func TestPlanPrefixReusePaperConfigs(t *testing.T) {
	stdio := IO{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}
	for _, name := range []string{"pramem_table1", "omnibehavior_table1", "movielens_confusion", "pramem_movielens",
		"pramem_ablations", "pramem_evolution",
		"lifemem_ood", "lifemem_orders_smoke", "lifemem_sensitivity", "lifemem_similarity", "lifemem_streams",
		"locomo_smoke", "locomo_memory", "longmemeval_smoke", "longmemeval_memory"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("..", "configs", "paper", name+".yaml")
			cfg, err := config.Options{Getenv: stdio.Getenv}.Load(path, planSmall(t, path))
			if err != nil {
				t.Fatal(err)
			}
			// Every user's construction is played through (the small size has
			// planSmallUsers), so every call's prompt is known.
			p, err := planConfig(context.Background(), stdio, cfg, t.TempDir(), family.PlanOptions{
				Block: prefixcache.DefaultBlock, Rehearse: planSmallUsers,
			})
			if err != nil {
				t.Fatal(err)
			}
			pc := p.PrefixCache
			if pc.Ideal == 0 {
				t.Fatalf("no reusable prefix modelled: %+v", pc)
			}
			share := float64(pc.HarnessOrder) / float64(pc.Ideal)
			t.Logf("%s: %d of %d prompt tokens modelled (%d-token cache, %d in flight; left out: %+v), reuse: harness order %d = %.1f %% of ideal %d, file order %.1f %%",
				name, pc.ModelledTokens, p.PromptTokens, pc.CacheTokens, p.Concurrency, pc.Unmodelled, pc.HarnessOrder, 100*share, pc.Ideal, 100*float64(pc.FileOrder)/float64(pc.Ideal))
			if len(pc.Unmodelled) > 0 {
				t.Errorf("calls left out of the prefix-cache model: %+v", pc.Unmodelled)
			}
			if pc.CacheTokens != prefixcache.DefaultCapacity {
				t.Errorf("modelled a %d-token cache, want the default %d", pc.CacheTokens, prefixcache.DefaultCapacity)
			}
			if share < 0.99 {
				t.Errorf("harness order reuses %.1f %% of the ideal, want at least 99 %%", 100*share)
			}
		})
	}
}

// TestPlanPrefixCacheSizeFromConfig: backbone.prefix_cache_tokens sizes the
// modelled cache unless --cache-tokens is given, and a smaller cache reuses
// no more.
func TestPlanPrefixCacheSizeFromConfig(t *testing.T) {
	stdio := IO{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}
	path := filepath.Join("..", "configs", "paper", "movielens_confusion.yaml")
	plan := func(cacheKey string, flag int) planner.PrefixCache {
		sets := append(planSmall(t, path), "backbone.prefix_cache_tokens="+cacheKey)
		cfg, err := config.Options{Getenv: stdio.Getenv}.Load(path, sets)
		if err != nil {
			t.Fatal(err)
		}
		p, err := planConfig(context.Background(), stdio, cfg, t.TempDir(), family.PlanOptions{
			Block: prefixcache.DefaultBlock, Rehearse: family.DefaultRehearse, CacheTokens: flag,
		})
		if err != nil {
			t.Fatal(err)
		}
		return p.PrefixCache
	}
	small := plan("20000", 0)
	if small.CacheTokens != 20000 {
		t.Errorf("cache of %d tokens modelled, want the config's 20000", small.CacheTokens)
	}
	if flagged := plan("20000", 1<<21); flagged.CacheTokens != 1<<21 {
		t.Errorf("cache of %d tokens modelled, want --cache-tokens' %d", flagged.CacheTokens, 1<<21)
	}
	if full := plan("0", 0); small.HarnessOrder > full.HarnessOrder {
		t.Errorf("a 20000-token cache reuses %d tokens, more than the default cache's %d", small.HarnessOrder, full.HarnessOrder)
	}
}
