package all

import (
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/internal/kindscan"
)

// coincidences are string literals outside the environments' packages that
// are spelled as a built-in environment kind but name something else where
// they are written, each with what they name. A coincidence is exact: the
// file and the names it may hold.
var coincidences = map[string]struct {
	names []string
	why   string
}{
	"releasepacks/lifememrel/expel.go": {
		names: []string{"hotpotqa", "fever", "alfworld", "webshop"},
		why:   "ExpeL's own benchmark identifiers (utils.ENV_NAMES), which key its configs, prompt modules and parser; our side of its table goes through the environments' constants",
	},
}

// TestNoKindNamesOutsideTheirPackages is the rule that an environment
// describes itself in its entry: no non-test Go file outside the
// environments' own packages (envs/<name>/, which includes envs/all, the
// one place that registers them) writes a built-in environment's registry
// name as a string literal ("alfworld", "taubench-retail", ...). Reading
// the registry's entries is the way to learn about an environment.
// Exempt: _test.go files, testdata, configs/ and docs/ (not code; see
// kindscan.Scan), and the coincidences above. Comments and longer strings
// that merely contain a name are not names of a kind.
func TestNoKindNamesOutsideTheirPackages(t *testing.T) {
	names := Default().Names()
	hits, err := kindscan.Scan("../..", names, func(file string) bool {
		rest, under := strings.CutPrefix(file, "envs/")
		return under && strings.Contains(rest, "/")
	})
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, h := range hits {
		if c, ok := coincidences[h.File]; ok && slices.Contains(c.names, h.Kind) {
			used[h.File] = true
			continue
		}
		t.Errorf("%s:%d names the environment kind %q: read it from its registry entry (envs.Entry) instead", h.File, h.Line, h.Kind)
	}
	// A coincidence that no longer occurs leaves the list, so the list
	// never hides a file.
	for file := range coincidences {
		if !used[file] {
			t.Errorf("%s no longer holds the coincidences listed for it: remove it from the list", file)
		}
	}
}
