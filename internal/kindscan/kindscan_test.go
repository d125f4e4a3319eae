package kindscan

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestScan(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"a/a.go":            "package a\n\nvar k = \"notes\"\nvar other = \"notes here\"\n",
		"a/a_test.go":       "package a\n\nvar k2 = \"notes\"\n",
		"a/testdata/x.go":   "package x\n\nvar k = \"notes\"\n",
		"configs/c.go":      "package c\n\nvar k = \"notes\"\n",
		"b/b.go":            "package b\n\nconst (\n\tk = `notes`\n\tj = \"tips\"\n)\n",
		"registration/r.go": "package r\n\nvar k = \"notes\"\n",
	}
	for name, src := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hits, err := Scan(root, []string{"notes", "tips"}, func(f string) bool { return f == "registration/r.go" })
	if err != nil {
		t.Fatal(err)
	}
	want := []Hit{{"a/a.go", 3, "notes"}, {"b/b.go", 4, "notes"}, {"b/b.go", 5, "tips"}}
	slices.SortFunc(hits, func(a, b Hit) int {
		if a.File != b.File {
			if a.File < b.File {
				return -1
			}
			return 1
		}
		return a.Line - b.Line
	})
	if !slices.Equal(hits, want) {
		t.Errorf("Scan = %v, want %v (test files, testdata, configs and the exempt file skipped; only whole literals)", hits, want)
	}
}
