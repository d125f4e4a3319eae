package bench

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/family"
)

// A refused resume names only keys of the hash: not eval.concurrency
// (operational), not base URLs, and no "(none) → null".
func TestConfigDiffNamesHashedKeysOnly(t *testing.T) {
	path := writeConfig(t, "0s")
	load := func(sets ...string) *config.Config {
		t.Helper()
		c, err := config.Options{Getenv: func(string) string { return "" }}.Load(path, sets)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	storedCfg := load("eval.concurrency=4", "dataset.test_per_user=8")
	b, _ := json.Marshal(storedCfg)
	var stored map[string]any
	json.Unmarshal(b, &stored)
	// The stored manifest had no base_urls key at all; the current config
	// has it as null.
	if bb, ok := stored["backbone"].(map[string]any); ok {
		delete(bb, "base_urls")
	}
	for _, tc := range []struct {
		name string
		sets []string
		want []string
	}{
		{"a hashed key and an unhashed one", []string{"eval.concurrency=2", "dataset.test_per_user=5"}, []string{"dataset.test_per_user: 8 → 5"}},
		{"a method's key", []string{"eval.concurrency=2", "methods[2].top_k=5"}, []string{"methods[2].top_k: 3 → 5"}},
		{"unhashed keys only", []string{"eval.concurrency=2", "backbone.timeout=5m"}, nil},
	} {
		got := family.ConfigDiff(stored, load(tc.sets...))
		if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
