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
	"releasepacks/lifememrel/sampling.go":         "the LifeMem release's per-environment sampling settings",
	"releasepacks/lifememrel/expel.go":            "the release's ExpeL prompt files per environment",
	"releasepacks/lifememrel/expel_parse.go":      "the release's ExpeL reply parsers per environment",
	"releasepacks/lifememrel/provenance.go":       "where each environment's release reply parser comes from",
	"releasepacks/lifememrel/prompters.go":        "the release's prompt builder per environment",
	"releasepacks/lifememrel/synapse_abstract.go": "the release's Synapse state abstraction, MiniWoB++ only",
	"datasets/trajectories/load.go":               "the LifeMem release's file-name tags of environments",
	"methods/agent/abstract.go":                   "our own state abstraction, MiniWoB++ only",
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
