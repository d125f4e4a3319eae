package fetch

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestGitBlobID: the id git gives a blob (git hash-object), computed over
// "blob <size>\x00" and the content.
func TestGitBlobID(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ content, id string }{
		{"", "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"},
		{"hello\n", "ce013625030ba8dba906f756967f9e9ca394464a"},
	} {
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := Verify(p, Spec{Name: "t", GitBlob: tc.id}); err != nil {
			t.Errorf("%q: %v", tc.content, err)
		}
		if err := Verify(p, Spec{Name: "t", GitBlob: "0000000000000000000000000000000000000000"}); !errors.Is(err, ErrChecksum) {
			t.Errorf("%q against a wrong id: %v, want ErrChecksum", tc.content, err)
		}
	}
}

// TestFetchByGitBlob: a spec pinned only by its git blob id (the size
// unknown) downloads, verifies and is reused; a changed upstream file is
// refused by name and leaves nothing under the final name.
func TestFetchByGitBlob(t *testing.T) {
	body := payload(70_000)
	srv := newServer(t, body)
	id := gitBlobOf(body)
	dir := t.TempDir()
	s := Spec{Name: "blob", URL: srv.URL + "/data.zip", FileName: "data.zip", GitBlob: id}
	p, err := Fetch(context.Background(), s, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != string(body) {
		t.Fatal("fetched bytes differ")
	}
	hits := srv.hits
	if _, err := Fetch(context.Background(), s, dir, nil); err != nil || srv.hits != hits {
		t.Fatalf("second fetch: %v, %d requests (want none)", err, srv.hits-hits)
	}
	other := t.TempDir()
	s.GitBlob = gitBlobOf(append([]byte("x"), body...))
	if _, err := Fetch(context.Background(), s, other, nil); !errors.Is(err, ErrChecksum) {
		t.Fatalf("changed upstream: %v, want ErrChecksum", err)
	}
	if _, err := os.Stat(filepath.Join(other, "data.zip")); !os.IsNotExist(err) {
		t.Errorf("a file that fails its git blob id was kept: %v", err)
	}
}

// gitBlobOf is git's blob id, written out independently of verifyReader.
func gitBlobOf(b []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(b))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}
