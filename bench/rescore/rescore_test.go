package rescore

import (
	"testing"

	"github.com/memharness/memharness/bench/config"
)

func TestDefaultName(t *testing.T) {
	tests := []struct {
		judge *config.Judge
		want  string
	}{
		{&config.Judge{Prompt: "strict"}, "strict"},
		{&config.Judge{Kind: "sim", Prompt: "lenient"}, "lenient-sim"},
		{&config.Judge{Kind: "openai", Model: "gpt-4o-mini-2024-07-18", Prompt: "release"}, "release-openai-gpt-4o-mini-2024-07-18"},
		{&config.Judge{Kind: "openai", Model: "org/model:v1 ü"}, "own-openai-org-model-v1"},
	}
	for _, tt := range tests {
		cfg := &config.Config{Task: "locomo", Judge: tt.judge}
		if got := DefaultName(cfg); got != tt.want || !safe(got) {
			t.Errorf("DefaultName(%+v) = %q (safe %v), want %q", tt.judge, got, safe(got), tt.want)
		}
	}
	for _, bad := range []string{"", "..", "a/b", "-x", "x y"} {
		if safe(bad) {
			t.Errorf("safe(%q)", bad)
		}
	}
}
