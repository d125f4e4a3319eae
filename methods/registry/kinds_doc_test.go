package registry

import (
	"os"
	"strings"
	"testing"
)

// The config reference lists every built-in prediction kind.
func TestConfigKeysListEveryKind(t *testing.T) {
	b, err := os.ReadFile("../../docs/CONFIG_KEYS.md")
	if err != nil {
		t.Fatal(err)
	}
	var line string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "| `methods[].kind` |") {
			line = l
		}
	}
	for _, k := range Default().Kinds() {
		if !strings.Contains(line, " "+k+",") && !strings.Contains(line, " "+k+".") {
			t.Errorf("docs/CONFIG_KEYS.md's methods[].kind does not list %q: %s", k, line)
		}
	}
}
