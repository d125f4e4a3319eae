package alfworld

import (
	"os"
	"path/filepath"
	"testing"
)

// fixtureDir is the shared ALFWorld fixture, relative to this package.
const fixtureDir = "../../../shared/fixtures/envs/alfworld"

// openFixture opens the 134 evaluation games, skipping when the fixture
// folder is absent.
func openFixture(tb testing.TB) *Suite {
	tb.Helper()
	if _, err := os.Stat(filepath.Join(fixtureDir, EvalDir)); err != nil {
		tb.Skipf("ALFWorld fixture not present (%v)", err)
	}
	s, err := Open(fixtureDir)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func embedded(tb testing.TB) *Suite {
	tb.Helper()
	s, err := Embedded()
	if err != nil {
		tb.Fatal(err)
	}
	return s
}
