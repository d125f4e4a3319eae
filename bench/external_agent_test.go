package bench_test

// The external method kind as a lifelong agent: the Python ReAct of
// examples/ against the built-in ReAct on a small similarity stream of the
// embedded suites (sim backbone).

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lifelongSmoke is a two-environment similarity stream with an OOD
// environment, the shape of the lifelong tests' smoke run.
const lifelongSmoke = `name: ll
task: lifemem
backbone: {kind: sim}
lifelong:
  stream: similarity
  envs: [scienceworld, webshop]
  ood: [fever]
  methods:
    - {name: react, kind: react}
    - {name: react_py, kind: external, command: [python3, %q]}
`

// matrixOf reads a method's matrix.json with the method's name blanked.
func matrixOf(t *testing.T, run, method string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(run, "lifelong", method, "matrix.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "method")
	return m
}

// cellsOf reads a method's cells (scores, steps and ends of every task,
// and the transcripts' turns) keyed by stage/env.
func cellsOf(t *testing.T, run, method string) map[string]string {
	t.Helper()
	dir := filepath.Join(run, "lifelong", method, "cells")
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var c struct {
			Score       float64           `json:"score"`
			Tasks       []json.RawMessage `json:"tasks"`
			Transcripts []struct {
				Turns json.RawMessage `json:"turns"`
				End   string          `json:"end"`
				Score float64         `json:"score"`
			} `json:"transcripts"`
		}
		if err := json.Unmarshal(b, &c); err != nil {
			return err
		}
		norm, _ := json.Marshal(c)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(norm)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The Python ReAct (examples/react.py), asking the model through the run's
// gateway for every action, plays every episode as the built-in ReAct
// does: the same S matrix, OP and BwT, the same OOD scores, the same
// transcripts, and its acting calls are recorded under the same purpose.
func TestExternalPythonReActParity(t *testing.T) {
	needPython(t)
	script, err := filepath.Abs("../examples/react.py")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ll.yaml")
	if err := os.WriteFile(cfg, []byte(strings.Replace(lifelongSmoke, "%q", strings.ReplaceAll(`"`+script+`"`, `\`, `\\`), 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	benchMain(t, "run", "-c", cfg, "--out", out)
	run := filepath.Join(out, "ll")

	want, got := matrixOf(t, run, "react"), matrixOf(t, run, "react_py")
	wb, _ := json.Marshal(want)
	gb, _ := json.Marshal(got)
	if !bytes.Equal(wb, gb) {
		t.Errorf("matrix.json differs:\n built-in %s\n python   %s", wb, gb)
	}
	if want["S"] == nil && want["s"] == nil {
		t.Errorf("matrix.json holds no S matrix: %s", wb)
	}
	wc, gc := cellsOf(t, run, "react"), cellsOf(t, run, "react_py")
	if len(wc) == 0 || len(wc) != len(gc) {
		t.Fatalf("%d cells from the built-in, %d from the Python ReAct", len(wc), len(gc))
	}
	for k, w := range wc {
		if gc[k] != w {
			t.Errorf("cell %s differs:\n built-in %s\n python   %s", k, firstLines(w, 3), firstLines(gc[k], 3))
		}
	}
	t.Logf("matrix %s; %d cells identical", wb, len(wc))

	// The child's calls are metered with the method's acting, as many as
	// the built-in's (their prompts are the Python's own words, so their
	// token counts differ), and the run's usage has them under the acting
	// purpose.
	bc, pc := actingCalls(t, run, "react"), actingCalls(t, run, "react_py")
	if bc == 0 || bc != pc {
		t.Errorf("acting calls in costs.json: built-in %d, python %d", bc, pc)
	}
	ub, err := os.ReadFile(filepath.Join(run, "usage.json"))
	if err != nil {
		t.Fatal(err)
	}
	var usage map[string]struct {
		Calls int `json:"calls"`
	}
	if err := json.Unmarshal(ub, &usage); err != nil {
		t.Fatal(err)
	}
	if usage["agent.act"].Calls != bc+pc {
		t.Errorf("usage.json: %d agent.act calls, want %d + %d", usage["agent.act"].Calls, bc, pc)
	}
	externalNamed(t, run, "react_py", "1.0", script)

	// Sharded by method, the external method's folder (its cells and kept
	// state) merges as a built-in kind's: the merged run's matrices are
	// the unsharded run's.
	sharded := filepath.Join(dir, "sharded")
	for _, sh := range []string{"0/2", "1/2"} {
		benchMain(t, "run", "-c", cfg, "--out", sharded, "--no-report", "--shard", sh)
	}
	merged := filepath.Join(sharded, "ll")
	benchMain(t, "merge", merged)
	for _, m := range []string{"react", "react_py"} {
		mb, _ := json.Marshal(matrixOf(t, merged, m))
		if ub, _ := json.Marshal(matrixOf(t, run, m)); !bytes.Equal(mb, ub) {
			t.Errorf("%s: the merged shards' matrix differs:\n merged %s\n one    %s", m, mb, ub)
		}
	}
	if _, err := os.Stat(filepath.Join(merged, "lifelong", "react_py", "state", "external.react_py.state.json")); err != nil {
		t.Errorf("the merged run lacks the external method's kept state: %v", err)
	}
}

// externalNamed checks that the manifest records the external method
// with its version and script, and the report's title names it.
func externalNamed(t *testing.T, run, name, version, script string) {
	t.Helper()
	var man struct {
		External []struct {
			Name         string `json:"name"`
			Version      string `json:"version"`
			Script       string `json:"script"`
			ScriptSHA256 string `json:"script_sha256"`
		} `json:"external_methods"`
	}
	mb, err := os.ReadFile(filepath.Join(run, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(mb, &man); err != nil {
		t.Fatal(err)
	}
	if len(man.External) != 1 || man.External[0].Name != name || man.External[0].Version != version ||
		man.External[0].Script != script || len(man.External[0].ScriptSHA256) != 64 {
		t.Errorf("manifest external_methods: %+v", man.External)
	}
	index, err := os.ReadFile(filepath.Join(run, "report", "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The title is Markdown: the name's underscores are escaped.
	if !strings.Contains(string(index), "external: "+strings.ReplaceAll(name, "_", `\_`)+" "+version+" ("+script+" sha256 ") {
		t.Errorf("the report's title does not name the external method:\n%s", firstLines(string(index), 5))
	}
}

// actingCalls is the acting calls of a method's costs.json.
func actingCalls(t *testing.T, run, method string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(run, "lifelong", method, "costs.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Acting struct {
			Calls int `json:"calls"`
		} `json:"acting"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c.Acting.Calls
}
