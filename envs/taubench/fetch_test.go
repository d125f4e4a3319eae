package taubench

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/datasets/fetch"
)

// TestFetchSpecPins verifies every pinned file against the fixture copy.
func TestFetchSpecPins(t *testing.T) {
	for _, d := range []Domain{Retail, Airline} {
		dir := fixtureDir(t, d)
		specs := FetchSpec(d)
		if len(specs) == 0 {
			t.Fatal("no files")
		}
		for _, sp := range specs {
			if !strings.HasPrefix(sp.URL, "https://raw.githubusercontent.com/sierra-research/tau-bench/"+upstreamCommit+"/") {
				t.Errorf("%s: URL %s", sp.FileName, sp.URL)
			}
			if sp.SHA256 == "" {
				continue // task files: no verified pin (see FetchSpec)
			}
			if err := fetch.Verify(filepath.Join(dir, sp.FileName), sp); err != nil {
				t.Error(err)
			}
		}
	}
}
