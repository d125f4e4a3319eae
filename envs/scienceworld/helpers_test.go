package scienceworld

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/memharness/memharness/internal/testfixture"
)

// Fixture folders (shared/fixtures beside the checkout).
var (
	fixtureDir  = testfixture.Path("envs/scienceworld")
	protocolDir = testfixture.Path("envs/agentgym")
)

func openFixtures(t testing.TB) *Suite {
	t.Helper()
	testfixture.Need(t, "envs/scienceworld")
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
	p := filepath.Join(testfixture.Need(t, "envs/scienceworld", "goldsequences-23-24.json"), "goldsequences-23-24.json")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	g, err := ParseGoldFile(p, data)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
