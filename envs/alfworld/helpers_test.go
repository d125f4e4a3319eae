package alfworld

import (
	"testing"

	"github.com/memharness/memharness/internal/testfixture"
)

// fixtureDir is the shared ALFWorld fixture.
var fixtureDir = testfixture.Path("envs/alfworld")

// openFixture opens the 134 evaluation games, skipping when the fixture
// folder is absent.
func openFixture(tb testing.TB) *Suite {
	tb.Helper()
	testfixture.Need(tb, "envs/alfworld", EvalDir)
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
