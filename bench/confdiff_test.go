package bench

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench/config"
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
		got := configDiff(stored, load(tc.sets...))
		if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestSetPath(t *testing.T) {
	var v any
	json.Unmarshal([]byte(`{"a":{"b":[{"c":1},{"c":2}]},"d":3}`), &v)
	for _, tc := range []struct {
		path string
		del  bool
		ok   bool
		want string
	}{
		{"a.b[1].c", false, true, `{"a":{"b":[{"c":1},{"c":9}]},"d":3}`},
		{"d", true, true, `{"a":{"b":[{"c":1},{"c":2}]}}`},
		{"a.b[5].c", false, false, ""},
		{"d.e", false, false, ""},
		{"a.b[0]", true, false, ""},
	} {
		var w any
		b, _ := json.Marshal(v)
		json.Unmarshal(b, &w)
		ok := setPath(w, tc.path, 9.0, tc.del)
		got, _ := json.Marshal(w)
		if ok != tc.ok || (ok && string(got) != tc.want) {
			t.Errorf("%s: %v %s, want %v %s", tc.path, ok, got, tc.ok, tc.want)
		}
	}
}
