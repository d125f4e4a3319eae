package toolqa

import (
	"os"
	"testing"
)

// fixtureDir holds the official data (CI has it; skip when absent).
const fixtureDir = "../../../shared/fixtures/envs/toolqa"

func openFixtures(tb testing.TB) *Suite {
	tb.Helper()
	if _, err := os.Stat(fixtureDir); err != nil {
		tb.Skipf("fixtures not present (%v); skipping", err)
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
