package bench

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/internal/prefixcache"
)

// TestPlanPrefixReusePaperConfigs plans each behaviour-prediction paper
// config at the small size with the prefix-cache model over every call it
// can model (memory construction included) and holds the harness's order
// to at least 99 % of the ideal reuse, at the config's concurrency and the
// default cache size.
func TestPlanPrefixReusePaperConfigs(t *testing.T) {
	stdio := IO{Out: io.Discard, Err: io.Discard, Getenv: func(string) string { return "" }}
	for _, name := range []string{"pramem_table1", "omnibehavior_table1", "movielens_confusion"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("..", "configs", "paper", name+".yaml")
			cfg, err := config.Options{Getenv: stdio.Getenv}.Load(path, planSmall(t, path))
			if err != nil {
				t.Fatal(err)
			}
			p, err := planConfig(context.Background(), stdio, cfg, t.TempDir(), family.PlanOptions{
				Block: prefixcache.DefaultBlock, Rehearse: family.DefaultRehearse,
			})
			if err != nil {
				t.Fatal(err)
			}
			pc := p.PrefixCache
			if pc.Ideal == 0 {
				t.Fatalf("no reusable prefix modelled: %+v", pc)
			}
			share := float64(pc.HarnessOrder) / float64(pc.Ideal)
			t.Logf("%s: %d of %d prompt tokens modelled, reuse: harness order %d = %.1f %% of ideal %d, file order %.1f %%",
				name, pc.ModelledTokens, p.PromptTokens, pc.HarnessOrder, 100*share, pc.Ideal, 100*float64(pc.FileOrder)/float64(pc.Ideal))
			if share < 0.99 {
				t.Errorf("harness order reuses %.1f %% of the ideal, want at least 99 %%", 100*share)
			}
		})
	}
}
