package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/memharness/memharness/datasets/fetch"
	"github.com/memharness/memharness/releasepacks/lifememrel"
)

// sourceURLVar is the variable that points a source's downloads at a
// mirror laid out like a checkout (tests serve stand-in files there):
// MEMHARNESS_<NAME>_URL, e.g. MEMHARNESS_TAU_BENCH_URL.
func sourceURLVar(s lifememrel.Source) string {
	return "MEMHARNESS_" + strings.ToUpper(strings.ReplaceAll(s.Name, "-", "_")) + "_URL"
}

// dataSource serves fetch and verify of one LifeMem prompt source: its
// pinned files go to CACHE/<name> in the repository's layout, then the
// copy is opened once so every file is checked. verify --path checks
// another copy, such as a git checkout.
func dataSource(ctx context.Context, stdio IO, action, cache, path string, s lifememrel.Source) error {
	dir := filepath.Join(cache, s.Name)
	specs := s.Specs(stdio.Getenv(sourceURLVar(s)))
	switch action {
	case "fetch":
		if err := fetchSpecs(ctx, stdio.Out, stdio.Err, specs, dir, fetch.Options{}); err != nil {
			return err
		}
	case "verify":
		if path != "" {
			dir = path
		}
		if err := verifySpecs(stdio.Out, specs, dir); err != nil {
			return fmt.Errorf("%w (%s)", err, s.FetchHint())
		}
	default:
		return fmt.Errorf("%s: action %q is not available (fetch or verify)", s.Name, action)
	}
	if _, err := lifememrel.Open(dir, s); err != nil {
		return err
	}
	fmt.Fprintf(stdio.Out, "%s: %s holds %s; use it with prompts: release (prompt.release_dirs.%s: %s)\n",
		s.Name, dir, s.Pin(), s.Name, dir)
	return nil
}
