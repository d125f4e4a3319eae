package movielens

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const smallDir = "testdata/small"

// smallStats are the known counts of testdata/small.
var smallStats = Stats{
	Ratings: 38, Users: 4, Movies: 15, UsersOver300: 0,
	MinTimestamp: 978302060, MaxTimestamp: 978511780,
}

// writeZip packs testdata/small into dir/ml-1m.zip under ml-1m/, like the
// official archive.
func writeZip(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "ml-1m.zip")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, name := range []string{RatingsFile, MoviesFile, UsersFile, "README"} {
		w, err := zw.Create("ml-1m/" + name)
		if err != nil {
			t.Fatal(err)
		}
		data := []byte("readme\n")
		if name != "README" {
			if data, err = os.ReadFile(filepath.Join(smallDir, name)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func copyDir(t *testing.T, dst string) {
	t.Helper()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{RatingsFile, MoviesFile, UsersFile} {
		data, err := os.ReadFile(filepath.Join(smallDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoadLayouts(t *testing.T) {
	zipDir := t.TempDir()
	zipPath := writeZip(t, zipDir)
	nested := t.TempDir()
	copyDir(t, filepath.Join(nested, "ml-1m"))

	for name, path := range map[string]string{
		"directory":            smallDir,
		"directory with ml-1m": nested,
		"zip file":             zipPath,
		"directory with zip":   zipDir,
	} {
		t.Run(name, func(t *testing.T) {
			d, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(smallStats, d.Stats()); diff != "" {
				t.Errorf("stats (-want +got):\n%s", diff)
			}
			if len(d.Movies) != 16 || len(d.Users) != 4 {
				t.Errorf("movies %d users %d, want 16 and 4", len(d.Movies), len(d.Users))
			}
			if got := d.Movies[3].Name; got != "Café au Lait" {
				t.Errorf("latin-1 title decoded as %q", got)
			}
		})
	}
}

func TestLoadMissing(t *testing.T) {
	for name, path := range map[string]string{
		"no such path": filepath.Join(t.TempDir(), "nope"),
		"empty dir":    t.TempDir(),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Load(path)
			if !errors.Is(err, ErrNotFound) {
				t.Fatalf("err = %v, want ErrNotFound", err)
			}
			// The flag that takes the location depends on the verb, which
			// adds it; the loader's hint must not name one.
			if strings.Contains(err.Error(), "--") {
				t.Errorf("error %q names a flag", err)
			}
			for _, s := range []string{"bench data fetch movielens", "ml-1m.zip"} {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
	// ratings.dat present but users.dat missing.
	dir := t.TempDir()
	copyDir(t, dir)
	if err := os.Remove(filepath.Join(dir, UsersFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), UsersFile) {
		t.Errorf("missing users.dat: err = %v", err)
	}
}

func TestLoadReportsLine(t *testing.T) {
	dir := t.TempDir()
	copyDir(t, dir)
	p := filepath.Join(dir, RatingsFile)
	data, _ := os.ReadFile(p)
	data = append(data, []byte("5::1::9::978300000\n")...)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), "ratings.dat:39: field 3 (Rating)") {
		t.Errorf("err = %v, want ratings.dat:39: field 3 (Rating)", err)
	}
}

func TestSHA256s(t *testing.T) {
	want := map[string]string{}
	for _, name := range []string{RatingsFile, MoviesFile, UsersFile} {
		data, err := os.ReadFile(filepath.Join(smallDir, name))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		want[name] = hex.EncodeToString(sum[:])
	}
	got, err := SHA256s(smallDir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("dir digests (-want +got):\n%s", diff)
	}
	fromZip, err := SHA256s(writeZip(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, fromZip); diff != "" {
		t.Errorf("zip digests differ from the extracted files (-want +got):\n%s", diff)
	}
	if _, err := SHA256s(t.TempDir()); !errors.Is(err, ErrNotFound) {
		t.Errorf("empty dir: err = %v", err)
	}
}
