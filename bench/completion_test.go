package bench

import (
	"os"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench/completion"
)

// The completion scripts ask the command as the user typed it for the
// candidates, and complete ./bin/bench (this binary's path and its
// relative forms) as well as bench, so they work without bench on PATH.
func TestCompletionWorksOffPath(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip("the test binary's path is unknown on this system")
	}
	calls := map[string]string{"bash": `"${COMP_WORDS[0]}" __complete`, "zsh": `${words[1]} __complete`, "fish": `$words[1] __complete`}
	for sh, call := range calls {
		out, code := runCLI(t, "completion", sh)
		if code != 0 || !strings.Contains(out, call) || strings.Contains(out, "@NAMES@") {
			t.Errorf("%s: exit %d; the script does not call the typed command:\n%s", sh, code, out)
		}
		if !strings.Contains(out, " bench "+completion.ShellQuote(exe)) {
			t.Errorf("%s: the script does not complete both bench and %s:\n%s", sh, exe, out)
		}
	}
}
