package toolqa

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/datasets/fetch"
	"github.com/memharness/memharness/internal/testfixture"
)

func TestFetchSpec(t *testing.T) {
	specs := FetchSpec()
	names := map[string]bool{}
	for _, s := range specs {
		names[s.FileName] = true
		if !strings.HasPrefix(s.URL, "https://raw.githubusercontent.com/") || s.Name != Name || s.Size <= 0 {
			t.Errorf("spec %+v is incomplete", s)
		}
	}
	for _, f := range []string{CSVFile, EasyFile, HardFile, LifeMemFile} {
		if !names[f] {
			t.Errorf("FetchSpec has no %s", f)
		}
	}
	// The pins match the fixture copies (they were taken from them).
	testfixture.Need(t, "envs/toolqa")
	for _, s := range specs {
		path := filepath.Join(fixtureDir, s.FileName)
		if s.FileName == LifeMemFile {
			// The fixture is a transcription with a final newline the
			// upstream file lacks; the pin is of the bytes before it.
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			path = filepath.Join(t.TempDir(), s.FileName)
			if err := os.WriteFile(path, []byte(strings.TrimSuffix(string(b), "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := fetch.Verify(path, s); err != nil {
			t.Error(err)
		}
	}
}
