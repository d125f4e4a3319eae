package all

import (
	"strings"
	"testing"

	"github.com/memharness/memharness/internal/kindscan"
)

// knownNamers are the files outside the environments' packages that still
// name built-in environment kinds, each with why. The list only shrinks: a
// file that no longer names a kind must leave it (the test says so).
var knownNamers = map[string]string{
	"releasepacks/lifememrel/expel.go":       "ExpeL's own benchmark names (utils.ENV_NAMES), which its prompt modules and few-shots are keyed by, equal to ours",
	"releasepacks/lifememrel/expel_parse.go": "ExpeL's llm_parser switches on its own benchmark names, equal to ours",
}

// TestNoKindNamesOutsideTheirPackages is the rule that an environment
// describes itself in its entry: no non-test Go file outside the
// environments' own packages (envs/<name>/, which includes envs/all, the
// one place that registers them) writes a built-in environment's registry
// name as a string literal ("alfworld", "taubench-retail", ...). Reading
// the registry's entries is the way to learn about an environment.
// Exempt: _test.go files, testdata, configs/ and docs/ (not code; see
// kindscan.Scan), and knownNamers. Comments and longer strings that merely
// contain a name are not names of a kind.
func TestNoKindNamesOutsideTheirPackages(t *testing.T) {
	names := Default().Names()
	hits, err := kindscan.Scan("../..", names, func(file string) bool {
		rest, under := strings.CutPrefix(file, "envs/")
		return under && strings.Contains(rest, "/") || knownNamers[file] != ""
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		t.Errorf("%s:%d names the environment kind %q: read it from its registry entry (envs.Entry) instead", h.File, h.Line, h.Kind)
	}
	// A file on the list that names no kind any more leaves the list.
	still, err := kindscan.Scan("../..", names, func(file string) bool { return knownNamers[file] == "" })
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, h := range still {
		found[h.File] = true
	}
	for file := range knownNamers {
		if !found[file] {
			t.Errorf("%s names no environment kind any more: remove it from knownNamers", file)
		}
	}
}
