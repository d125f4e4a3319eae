package taubench

import (
	"testing"

	"github.com/memharness/memharness/internal/testfixture"
)

// fixtureDir is the official sample data, shared by the team (not vendored).
func fixtureDir(t testing.TB, domain Domain) string {
	t.Helper()
	return testfixture.Need(t, "envs/taubench/"+string(domain))
}

func openFixture(t testing.TB, domain Domain) *Suite {
	t.Helper()
	s, err := open(fixtureDir(t, domain), domain)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
