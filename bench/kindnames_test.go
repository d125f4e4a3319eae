package bench

import (
	"fmt"
	"path"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/internal/kindscan"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/methods/registry"
)

// TestNoBuiltInMethodKindNamedOutsideItsPackage enforces the rule that a
// method kind describes itself in one entry beside its code: outside the
// package that declares a built-in kind's entry (and the registration
// lines, methods/registry/registry.go and lifelong/methods.go), no
// non-test Go file names the kind as a string. _test.go files, testdata,
// configs/ and docs/ are exempt: configs and docs name kinds as a user
// does. The scanning itself is internal/kindscan, which the environment
// kinds' test uses too.
//
// Two names are not scanned as strings because they also name other
// things: "summary" (a call purpose and a JSON field) and "lifemem" (the
// task, the dataset and the paper).
//
// notMovedYet lists the files that still name kinds, with the work that
// moves the knowledge out of them; the test fails when one no longer
// does, so the list only shrinks.
func TestNoBuiltInMethodKindNamedOutsideItsPackage(t *testing.T) {
	home := map[string]string{} // kind → module-relative directory of its entry
	for _, e := range registry.Default().Entries() {
		home[e.Kind] = pkgDir(t, e.New)
	}
	for _, e := range lifelong.DefaultMethods().Entries() {
		home[e.Kind] = pkgDir(t, e.New)
	}
	var names []string
	for k := range home {
		if k != "summary" && k != "lifemem" {
			names = append(names, k)
		}
	}
	registration := []string{"methods/registry/registry.go", "lifelong/methods.go"}
	hits, err := kindscan.Scan("..", names, func(file string) bool { return slices.Contains(registration, file) })
	if err != nil {
		t.Fatal(err)
	}
	notMovedYet := map[string]string{}
	// coincidences are strings equal to a kind's name that mean something
	// else where they are written.
	coincidences := map[string][]string{
		// τ-bench's agent style (prompt.taubench_agent) and the key of
		// PraMem's settings block (methods[].pramem).
		"bench/config/validate.go": {"react", "pramem"},
		// The shared fixtures' folder of OmniBehavior samples.
		"internal/testfixture/testfixture.go": {"pramem"},
		// The fetch targets of the ExpeL and Synapse authors' repositories
		// (bench data fetch expel, prompt.release_dirs.synapse): a release
		// pack's name, which a user types, not the method kind.
		"releasepacks/lifememrel/pins.go": {"expel", "synapse"},
		// The mem0 project's LoCoMo evaluation: the name of its category
		// table (metrics/memqa) and of the release pack of its judge
		// (bench data fetch mem0-eval), not the Mem0-style method kind.
		"metrics/memqa/categories.go":   {"mem0"},
		"releasepacks/memqarel/pins.go": {"mem0"},
	}
	offenders := map[string][]string{}
	for _, h := range hits {
		if slices.Contains(coincidences[h.File], h.Kind) {
			continue
		}
		if strings.HasPrefix(h.File, home[h.Kind]+"/") && !strings.Contains(strings.TrimPrefix(h.File, home[h.Kind]+"/"), "/") {
			continue // the kind's own package
		}
		offenders[h.File] = append(offenders[h.File], fmt.Sprintf("%d: %q", h.Line, h.Kind))
	}
	for file, where := range offenders {
		if _, ok := notMovedYet[file]; !ok {
			t.Errorf("%s names built-in method kinds outside their packages (%s): read them from the kinds' entries instead",
				file, strings.Join(where, ", "))
		}
	}
	for file := range notMovedYet {
		if _, ok := offenders[file]; !ok {
			t.Errorf("%s no longer names a built-in method kind: drop it from notMovedYet", file)
		}
	}
}

// pkgDir is the module-relative directory of the package a function is
// declared in.
func pkgDir(t *testing.T, f any) string {
	t.Helper()
	name := runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
	dir, last := path.Split(name)
	pkg, _, _ := strings.Cut(last, ".")
	rel := strings.TrimPrefix(dir+pkg, "github.com/memharness/memharness/")
	if rel == dir+pkg {
		t.Fatalf("%s is not a function of this module", name)
	}
	return rel
}
