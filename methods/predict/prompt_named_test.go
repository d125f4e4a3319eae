package predict

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadNamedPrompts(t *testing.T) {
	dir := t.TempDir()
	body := filepath.Join(dir, "nohist.txt")
	os.WriteFile(body, []byte("NO HISTORY AT ALL\n"), 0o644)
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("x"), 0o644)

	p, err := LoadNamedPrompts("en", map[string]string{"no_history": body})
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	if err := p.t.ExecuteTemplate(&sb, "no_history", nil); err != nil {
		t.Fatal(err)
	}
	if sb.String() != "NO HISTORY AT ALL" {
		t.Errorf("override not applied: %q", sb.String())
	}
	if _, err := LoadNamedPrompts("en", map[string]string{"nonsense": bad}); err == nil || !strings.Contains(err.Error(), "unknown name") {
		t.Errorf("unknown template name: err = %v", err)
	}
	if _, err := LoadNamedPrompts("en", map[string]string{"rating": filepath.Join(dir, "missing")}); err == nil {
		t.Error("missing file accepted")
	}
}
