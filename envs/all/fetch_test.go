package all

import (
	"encoding/hex"
	"path"
	"strings"
	"testing"
)

// Every environment lists its downloads, with relative file names that stay
// inside its data folder and well-formed pins.
func TestFetchSpecs(t *testing.T) {
	for _, e := range Entries() {
		if e.Fetch == nil {
			t.Errorf("%s: no Fetch", e.Name)
			continue
		}
		specs := e.Fetch()
		if len(specs) == 0 {
			t.Errorf("%s: no downloads", e.Name)
		}
		seen := map[string]bool{}
		for _, s := range specs {
			name := s.FileName
			if name == "" {
				name = s.URL[strings.LastIndex(s.URL, "/")+1:]
			}
			if c := path.Clean(name); c != name || path.IsAbs(c) || c == ".." || strings.HasPrefix(c, "../") {
				t.Errorf("%s: file name %q is not a clean relative path", e.Name, name)
			}
			if seen[name] {
				t.Errorf("%s: %s listed twice", e.Name, name)
			}
			seen[name] = true
			if !strings.HasPrefix(s.URL, "https://") && !strings.HasPrefix(s.URL, "http://") {
				t.Errorf("%s: %s: URL %q", e.Name, name, s.URL)
			}
			if s.SHA256 != "" {
				if b, err := hex.DecodeString(s.SHA256); err != nil || len(b) != 32 {
					t.Errorf("%s: %s: bad SHA-256 %q", e.Name, name, s.SHA256)
				}
			}
		}
	}
}
