package backbone

import (
	"bytes"
	"strings"
	"testing"

	"github.com/memharness/memharness/runrecord"
)

// TestStampSeeds: a backbone known to drop the seed says so in the manifest
// and on the console; a best-effort one only in the manifest; an endpoint
// nothing is known against and the sim backbone leave the manifest alone.
func TestStampSeeds(t *testing.T) {
	tests := []struct {
		name      string
		b         Backbone
		noted     string
		warnsWith string
	}{
		{"ignores seeds", Backbone{Kind: "openai", ModelName: "claude-x", Endpoints: []string{"https://api.anthropic.com/v1"}}, "ignored", "warning: Anthropic"},
		{"best effort", Backbone{Kind: "openai", ModelName: "gpt-4o-mini", Endpoints: []string{"https://api.openai.com/v1", "https://api.openai.com/v1"}}, "best effort", ""},
		{"unknown endpoint", Backbone{Kind: "openai", ModelName: "m", Endpoints: []string{"http://localhost:8000/v1"}}, "", ""},
		{"sim", Backbone{Kind: "sim", ModelName: "sim"}, "", ""},
	}
	for _, tc := range tests {
		var m runrecord.Manifest
		var w bytes.Buffer
		tc.b.StampSeeds(&m, &w)
		if (tc.noted == "") != (m.SeedNote == "") || !strings.Contains(m.SeedNote, tc.noted) || strings.Count(m.SeedNote, "; ") != 0 {
			t.Errorf("%s: seed note %q, want one containing %q", tc.name, m.SeedNote, tc.noted)
		}
		if (tc.warnsWith == "") != (w.Len() == 0) || !strings.Contains(w.String(), tc.warnsWith) {
			t.Errorf("%s: console %q, want %q", tc.name, w.String(), tc.warnsWith)
		}
	}
}
