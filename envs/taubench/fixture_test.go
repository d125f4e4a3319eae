package taubench

import (
	"os"
	"path/filepath"
	"testing"
)

// fixtureDir is the official sample data, shared by the team (not vendored).
func fixtureDir(t testing.TB, domain Domain) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "fixtures", "envs", "taubench", string(domain))
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("fixture data absent (%v); skipping", err)
	}
	return dir
}

func openFixture(t testing.TB, domain Domain) *Suite {
	t.Helper()
	s, err := open(fixtureDir(t, domain), domain)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
