package bench

import (
	"context"
	"errors"
	"fmt"

	"github.com/memharness/memharness/datasets/fetch"
	"github.com/memharness/memharness/datasets/memqa"
)

// dataMemQA serves fetch, verify and stats of LoCoMo and LongMemEval: the
// pinned files go to CACHE/<name>, which stats reads unless --path names
// another folder or file.
func dataMemQA(ctx context.Context, stdio IO, action string, b memqa.Benchmark, cache, path string, asJSON bool) error {
	dir := memqa.FetchDir(cache, b)
	switch action {
	case "fetch":
		if err := fetchSpecs(ctx, stdio.Out, stdio.Err, memqa.Specs(b), dir, fetch.Options{}); err != nil {
			return err
		}
		fmt.Fprintf(stdio.Out, "%s: %s (pass it to 'bench data stats %s --path %s')\n", b, dir, b, dir)
		return nil
	case "verify":
		if path != "" {
			dir = path
		}
		if err := verifySpecs(stdio.Out, memqa.Specs(b), dir); err != nil {
			return fmt.Errorf("%w (%s)", err, memqa.FetchHint(b))
		}
		return nil
	case "stats":
		if path == "" {
			path = dir
		}
		ds, err := memqa.Load(b, path)
		if err != nil {
			if errors.Is(err, memqa.ErrNotFound) {
				return fmt.Errorf("%w; or pass the folder holding %s (or the file) with --path", err, memqa.DefaultFile(b))
			}
			return err
		}
		return memqa.ComputeStats(ds).Write(stdio.Out, asJSON)
	}
	return fmt.Errorf("%s: action %q is not available (fetch, verify or stats)", b, action)
}
