package bench

import (
	"os"
	"strings"
	"testing"
)

// The completion scripts call this binary by its path, so they work with
// ./bin/bench as built, not only with a bench on PATH, and complete both.
func TestCompletionWorksOffPath(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip("the test binary's path is unknown on this system")
	}
	for _, sh := range []string{"bash", "zsh", "fish"} {
		out, code := runCLI(t, "completion", sh)
		if code != 0 || !strings.Contains(out, shellQuote(exe)+" __complete") || strings.Contains(out, "@") && strings.Contains(out, "@BENCH@") {
			t.Errorf("%s: exit %d; the script does not call %s:\n%s", sh, code, exe, out)
		}
		if !strings.Contains(out, " bench ") && !strings.Contains(out, " bench\n") {
			t.Errorf("%s: the script no longer completes the command bench:\n%s", sh, out)
		}
	}
}
