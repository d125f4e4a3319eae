package config

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.resolved.yaml goldens")

// TestResolvedGolden pins the fully defaulted form of two configs. Absolute
// template paths are written as $TESTDATA so the goldens are portable.
func TestResolvedGolden(t *testing.T) {
	abs, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"minimal", "full"} {
		t.Run(name, func(t *testing.T) {
			cfg, err := Options{Getenv: noEnv}.Load("testdata/"+name+".yaml", nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := cfg.ResolvedYAML()
			if err != nil {
				t.Fatal(err)
			}
			got = bytes.ReplaceAll(got, []byte(abs), []byte("$TESTDATA"))
			golden := "testdata/" + name + ".resolved.yaml"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				os.WriteFile("testdata/"+name+".got.yaml", got, 0o644)
				t.Errorf("resolved YAML differs from %s; see testdata/%s.got.yaml", golden, name)
			}
		})
	}
}

// TestResolvedStable: loading twice, or reloading the resolved YAML itself,
// gives the same bytes and hash.
func TestResolvedStable(t *testing.T) {
	o := Options{Getenv: noEnv}
	a, err := o.Load("testdata/full.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := o.Load("testdata/full.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	ya, _ := a.ResolvedYAML()
	yb, _ := b.ResolvedYAML()
	if !bytes.Equal(ya, yb) {
		t.Fatalf("two loads differ:\n%s\n---\n%s", ya, yb)
	}
	c, err := o.Load(writeConfig(t, string(ya)), nil)
	if err != nil {
		t.Fatalf("reloading resolved YAML: %v", err)
	}
	if yc, _ := c.ResolvedYAML(); !bytes.Equal(ya, yc) {
		t.Errorf("resolved YAML does not round-trip:\n%s\n---\n%s", ya, yc)
	}
	ha, _ := a.Hash()
	hc, _ := c.Hash()
	if ha != hc || len(ha) != 64 {
		t.Errorf("hash %q after reload %q", ha, hc)
	}
}

func TestHash(t *testing.T) {
	o := Options{Getenv: noEnv}
	hash := func(sets ...string) string {
		t.Helper()
		cfg, err := o.Load("testdata/full.yaml", sets)
		if err != nil {
			t.Fatal(err)
		}
		h, err := cfg.Hash()
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	base := hash()
	tests := []struct {
		set  string
		same bool
	}{
		{"backbone.concurrency=32", true},
		{"backbone.max_retries=1", true},
		{"backbone.timeout=10m", true},
		{"backbone.cache=off", true},
		{"eval.concurrency=2", true},
		{"eval.max_tokens=5000", true},
		{"eval.max_cost=0.5", true},
		{"description=other words", true},
		{"backbone.params.temperature=0.2", false},
		{"seed=8", false},
		{"methods[0].history_tokens=4000", false},
		{"eval.max_attempts=2", false},
		// One draw is the run before repeats existed; its reducer is moot.
		{"eval.repeats=1", true},
		{"eval.reducer=majority", true},
		{"eval.repeats=3", false},
	}
	for _, tt := range tests {
		if got := hash(tt.set) == base; got != tt.same {
			t.Errorf("--set %s: same hash = %v, want %v", tt.set, got, tt.same)
		}
	}
}

// The hash follows template contents, not where the file lives.
func TestHashTemplates(t *testing.T) {
	dirA, dirB := t.TempDir(), t.TempDir()
	text := "prompt:\n  templates: {predict: p.txt}\nmethods: [{kind: rag}]\n"
	hash := func(dir, prompt string) string {
		t.Helper()
		os.WriteFile(filepath.Join(dir, "p.txt"), []byte(prompt), 0o644)
		path := filepath.Join(dir, "c.yaml")
		os.WriteFile(path, []byte(text), 0o644)
		cfg, err := Options{Getenv: noEnv}.Load(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := cfg.Prompt.Templates["predict"]; got != filepath.Join(dir, "p.txt") {
			t.Errorf("template path = %s, want it next to the config", got)
		}
		h, err := cfg.Hash()
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	if hash(dirA, "one") != hash(dirB, "one") {
		t.Error("same template in two places hashes differently")
	}
	if hash(dirA, "one") == hash(dirA, "two") {
		t.Error("changing the template does not change the hash")
	}
}

func TestTemplateFromSetIsRelativeToWorkingDir(t *testing.T) {
	// The file lives in testdata/, but a --set path is read from here.
	_, err := Options{Getenv: noEnv}.Load("testdata/minimal.yaml", []string{"prompt.templates.predict=prompts/predict.txt"})
	if err == nil || !strings.Contains(err.Error(), "--set prompt.templates.predict=prompts/predict.txt: prompt.templates.predict: template file:") {
		t.Errorf("got %v, want a missing-file error at the flag", err)
	}
	cfg, err := Options{Getenv: noEnv}.Load("testdata/minimal.yaml", []string{"prompt.templates.predict=testdata/prompts/predict.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(cfg.Prompt.Templates["predict"]) {
		t.Errorf("template path %q is not absolute", cfg.Prompt.Templates["predict"])
	}
}

func TestJSON(t *testing.T) {
	cfg, err := Options{Getenv: noEnv}.Load("testdata/sweep.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{`"timeout":"2m0s"`, `"base_urls":null`, `"history_tokens":8000`} {
		if !strings.Contains(s, want) {
			t.Errorf("JSON lacks %s:\n%s", want, s)
		}
	}
	if strings.Contains(s, `"grid"`) || strings.Contains(s, `"variants"`) || strings.Contains(s, `"sweep"`) {
		t.Errorf("JSON carries the sweep block:\n%s", s)
	}
	var back Config
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Backbone.Timeout != cfg.Backbone.Timeout || back.Methods[1].HistoryTokens != 8000 {
		t.Errorf("JSON round trip lost values: %+v", back)
	}
}

func TestURLCredentialsRedacted(t *testing.T) {
	for in, want := range map[string]string{
		"http://h:8000/v1":                     "http://h:8000/v1",
		"https://h/v1?api-key=sk-SECRET":       "https://h/v1?api-key=REDACTED",
		"https://user:sk-SECRET@h/v1":          "https://h/v1",
		"https://h/v1?a=1&api-key=sk-SECRET#x": "https://h/v1?a=REDACTED&api-key=REDACTED#x",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
