package bench_test

// The external method kind end to end: the Python truncation of examples/
// against the built-in truncation, on the data of configs/paper/
// pramem_table1.yaml and the embedded default (sim backbone).

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/memharness/memharness/runrecord"
)

// table1With is pramem_table1's config with methods replaced by method
// (one sample run, no sweep or profiles, the method its own baseline).
func table1With(t *testing.T, method map[string]any) string {
	t.Helper()
	b, err := os.ReadFile("../configs/paper/pramem_table1.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["name"] = "table1"
	delete(cfg, "sweep")
	delete(cfg, "profiles")
	cfg["methods"] = []any{method}
	cfg["report"].(map[string]any)["baseline"] = method["name"]
	out, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// needPython skips a test when python3 is not installed.
func needPython(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the Python examples cannot run")
	}
	return p
}

// samplesByInstance reads a run's samples.jsonl keyed by instance (the
// sample ID less the method's name), with the method's name blanked.
func samplesByInstance(t *testing.T, dir string) map[string]map[string]any {
	t.Helper()
	samples, err := runrecord.ReadSamples(filepath.Join(dir, runrecord.SamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, s := range samples {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var rec map[string]any
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatal(err)
		}
		_, inst, _ := strings.Cut(s.ID, "/")
		delete(rec, "id")
		delete(rec, "method")
		out[inst] = rec
	}
	return out
}

func TestExternalPythonTruncationParity(t *testing.T) {
	needPython(t)
	script, err := filepath.Abs("../examples/truncation.py")
	if err != nil {
		t.Fatal(err)
	}
	builtin, _ := runBench(t, nil, "table1", table1With(t, map[string]any{"name": "trunc", "kind": "truncation", "history_tokens": 8000}))
	ext, console := runBench(t, nil, "table1", table1With(t, map[string]any{"name": "trunc", "kind": "external",
		"command": []any{"python3", script}, "options": map[string]any{"history_tokens": 8000}}))

	want, got := samplesByInstance(t, builtin), samplesByInstance(t, ext)
	if len(want) == 0 || len(got) != len(want) {
		t.Fatalf("%d samples from the Python truncation, %d from the built-in", len(got), len(want))
	}
	invalid := 0
	for inst, w := range want {
		g := got[inst]
		wb, _ := json.Marshal(w)
		gb, _ := json.Marshal(g)
		if !bytes.Equal(wb, gb) {
			t.Errorf("%s:\n built-in %s\n python   %s", inst, wb, gb)
		}
		if w["valid"] == false {
			invalid++
		}
	}
	t.Logf("%d samples identical (%d invalid in both)", len(want), invalid)
	for _, name := range []string{"metrics.csv"} {
		wb, err := os.ReadFile(filepath.Join(builtin, "report", name))
		if err != nil {
			t.Fatal(err)
		}
		gb, err := os.ReadFile(filepath.Join(ext, "report", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(wb, gb) {
			t.Errorf("report/%s differs:\n built-in:\n%s\n python:\n%s", name, wb, gb)
		}
	}
	// The manifest and the report's title name the script and its version.
	var man struct {
		External []struct {
			Name         string `json:"name"`
			Version      string `json:"version"`
			Script       string `json:"script"`
			ScriptSHA256 string `json:"script_sha256"`
		} `json:"external_methods"`
	}
	mb, err := os.ReadFile(filepath.Join(ext, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(mb, &man); err != nil {
		t.Fatal(err)
	}
	if len(man.External) != 1 || man.External[0].Version != "1.0" || len(man.External[0].ScriptSHA256) != 64 {
		t.Errorf("manifest external_methods: %+v", man.External)
	}
	index, err := os.ReadFile(filepath.Join(ext, "report", "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(index), "external: trunc 1.0 ("+script) {
		t.Errorf("the report's title does not name the external method:\n%s", firstLines(string(index), 5))
	}
	_ = console
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
