package lifemem

import "testing"

// TestPromptJSONKeepsSymbols: construction prompts show actions as a model
// should read them, not with Go's HTML-safe escapes.
func TestPromptJSONKeepsSymbols(t *testing.T) {
	got := mustJSON([]string{`search[Pryde & Wren]`, `SELECT * FROM t WHERE x >= 3 AND y < 2`})
	want := "[\n  \"search[Pryde & Wren]\",\n  \"SELECT * FROM t WHERE x >= 3 AND y < 2\"\n]"
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}
