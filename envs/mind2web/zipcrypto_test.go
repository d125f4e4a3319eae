package mind2web

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testdata/test.zip was made with Info-ZIP: `zip -P mind2web -r test.zip
// test_task` run in testdata/release, like the official archive.
func TestExtractTestZip(t *testing.T) {
	dir := t.TempDir()
	paths, err := ExtractTestZip("testdata/test.zip", dir, "test_task")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 2 {
		t.Fatalf("extracted %v, want 2 files", paths)
	}
	for _, p := range paths {
		got, _ := os.ReadFile(p)
		want, _ := os.ReadFile(filepath.Join("testdata/release/test_task", filepath.Base(p)))
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the original", p)
		}
	}
	if _, err := ExtractTestZip("testdata/test.zip", dir, "test_domain"); err == nil || !strings.Contains(err.Error(), "no test_domain") {
		t.Errorf("missing split: %v", err)
	}
}

func TestZipCryptoWrongPassword(t *testing.T) {
	zr, err := zip.OpenReader("testdata/test.zip")
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Flags&1 == 0 {
			continue
		}
		dst := filepath.Join(t.TempDir(), "x.json")
		if err := extractEntry(f, dst, "not-the-password"); err == nil {
			t.Errorf("%s: wrong password accepted", f.Name)
		}
		if _, err := os.Stat(dst); err == nil {
			t.Errorf("%s: output left behind", f.Name)
		}
		return
	}
	t.Fatal("no encrypted entry in testdata/test.zip")
}
