package agentgym

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// Fixture folders, relative to this package.
const (
	fixtureDir  = "../../../shared/fixtures/envs/scienceworld"
	protocolDir = "../../../shared/fixtures/envs/agentgym"
)

func openFixtures(t testing.TB) *Suite {
	t.Helper()
	if _, err := os.Stat(fixtureDir); err != nil {
		t.Skipf("fixtures not present: %v", err)
	}
	s, err := Open(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func embedded(t testing.TB) *Suite {
	t.Helper()
	s, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// embeddedReplay starts the embedded gold sequences on a real socket.
func embeddedReplay(t testing.TB, opts ...ReplayOption) (*ReplayServer, *httptest.Server) {
	t.Helper()
	data, err := embeddedFiles.ReadFile("embedded/goldsequences-101-103.json")
	if err != nil {
		t.Fatal(err)
	}
	g, err := ParseGoldFile("goldsequences-101-103.json", data)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := NewReplayServer([]GoldFile{g}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rs)
	t.Cleanup(srv.Close)
	return rs, srv
}

func fixtureGold(t testing.TB) GoldFile {
	t.Helper()
	p := filepath.Join(fixtureDir, "goldsequences-23-24.json")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Skipf("fixtures not present: %v", err)
	}
	g, err := ParseGoldFile(p, data)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
