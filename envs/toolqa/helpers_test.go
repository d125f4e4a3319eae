package toolqa

import (
	"testing"

	"github.com/memharness/memharness/internal/testfixture"
)

// fixtureDir holds the official data (CI has it; skip when absent).
var fixtureDir = testfixture.Path("envs/toolqa")

func openFixtures(tb testing.TB) *Suite {
	tb.Helper()
	testfixture.Need(tb, "envs/toolqa")
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
