package miniwob

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/testfixture"
)

func TestEmbeddedOracle(t *testing.T) {
	needBrowser(t)
	s := embedded(t, Config{})
	if n := len(s.Tasks()); n < 10 {
		t.Fatalf("embedded suite has %d tasks, want >= 10", n)
	}
	res, err := envs.Check(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("embedded oracle: %d tasks, %d passed, %d failed in %.2fs", res.Tasks, res.Passed, res.Failed, res.Seconds)
	for _, id := range res.Failing {
		t.Errorf("%s: %s", id, res.Reasons[id])
	}
}

// officialDir is the MiniWoB++ checkout used for the official oracle: the
// fixture folder when it holds pages, else $MINIWOB_CHECKOUT.
func officialDir(t testing.TB) string {
	t.Helper()
	fixture := testfixture.Path("envs/miniwob")
	if _, err := findHTMLRoot(fixture); err == nil {
		return fixture
	}
	if d := os.Getenv("MINIWOB_CHECKOUT"); d != "" {
		return d
	}
	t.Skip(testfixture.Message("envs/miniwob") + " (the fixture keeps no task pages, see its SOURCES.md); or set MINIWOB_CHECKOUT to a MiniWoB++ checkout")
	return ""
}

func TestOfficialOracle(t *testing.T) {
	dir := officialDir(t)
	needBrowser(t)
	// MINIWOB_SEEDS=n plays seeds 0..n-1 of every page (default 1).
	cfg := Config{}
	if n, err := strconv.Atoi(os.Getenv("MINIWOB_SEEDS")); err == nil && n > 0 {
		for i := range n {
			cfg.Seeds = append(cfg.Seeds, int64(i))
		}
	}
	s, err := OpenConfig(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start := time.Now()
	res, err := envs.Check(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("official oracle (%s): %d tasks, %d passed, %d failed in %.2fs (%s)", dir, res.Tasks, res.Passed, res.Failed, res.Seconds, time.Since(start))
	for _, id := range res.Failing {
		t.Logf("failing %s: %s", id, res.Reasons[id])
	}
	for _, id := range res.Failing {
		if _, ok := officialSolvers[s.byID[id].Page]; ok {
			t.Errorf("official page with a solver failed: %s: %s", id, res.Reasons[id])
		}
	}
}
