package lifememrel

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// standIn writes files into a fresh folder and returns a source pinned to
// them.
func standIn(t *testing.T, files map[string]string) (string, Source) {
	t.Helper()
	dir := t.TempDir()
	s := Source{Name: "standin", Repository: "github.com/example/standin", Owner: "example", Repo: "standin"}
	for _, p := range sortedKeys(files) {
		path := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(files[p]), 0o644); err != nil {
			t.Fatal(err)
		}
		s.Files = append(s.Files, File{Path: p, Commit: "0123456789abcdef0123456789abcdef01234567", SHA256: digest([]byte(files[p])), Size: int64(len(files[p]))})
	}
	return dir, s
}

func TestOpenChecksEveryFile(t *testing.T) {
	dir, s := standIn(t, map[string]string{"a/prompts.py": "X = \"hello\"\n", "b/wiki.md": "# policy\n"})
	tr, err := Open(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := tr.Py("a/prompts.py").Lookup("", "X"); !ok || v.Str != "hello" {
		t.Errorf("X = %+v, %v", v, ok)
	}
	if b, _ := tr.Raw("b/wiki.md"); string(b) != "# policy\n" {
		t.Errorf("wiki = %q", b)
	}

	tests := []struct {
		name    string
		mutate  func(s *Source)
		wantErr error
		want    string
	}{
		{"tampered", func(s *Source) { s.Files[0].SHA256 = strings.Repeat("0", 64) }, ErrMismatch, filepath.Join(dir, "a", "prompts.py")},
		{"unpinned", func(s *Source) { s.Files[1].SHA256 = "" }, ErrUnpinned, filepath.Join(dir, "b", "wiki.md")},
		{"missing", func(s *Source) { s.Files = append(s.Files, File{Path: "c/gone.py", SHA256: "x"}) }, nil, filepath.Join(dir, "c", "gone.py") + " is missing"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := s
			c.Files = append([]File(nil), s.Files...)
			tc.mutate(&c)
			_, err := Open(dir, c)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to name %s", err, tc.want)
			}
			if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Errorf("err = %v, want %v", err, tc.wantErr)
			}
		})
	}
}

func TestSpecs(t *testing.T) {
	f := TauBench.Files[0]
	got := TauBench.Specs("")[0]
	want := "https://raw.githubusercontent.com/sierra-research/tau-bench/" + f.Commit + "/" + f.Path
	if got.URL != want || got.SHA256 != f.SHA256 || got.FileName != f.Path {
		t.Errorf("spec = %+v, want URL %s", got, want)
	}
	if got := TauBench.Specs("http://mirror/")[0].URL; got != "http://mirror/"+f.Path {
		t.Errorf("mirror URL = %s", got)
	}
	for _, s := range Sources {
		if s.Name == NameLifeMem {
			continue // digests not recorded yet (see LifeMem)
		}
		for _, f := range s.Files {
			if len(f.SHA256) != 64 || len(f.Commit) != 40 || f.Size <= 0 {
				t.Errorf("%s %s: incomplete pin %+v", s.Name, f.Path, f)
			}
		}
	}
}

func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}
