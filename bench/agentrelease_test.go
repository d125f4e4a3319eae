package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/runrecord"
)

// TestLifelongReleasePrompts runs a small lifelong stream on the sim
// backbone with prompts: release against real source checkouts
// (MEMHARNESS_LIFEMEM_PACKS: one folder per source; skipped otherwise) and
// checks that the sources reach the manifest and the agents' requests.
func TestLifelongReleasePrompts(t *testing.T) {
	packs := os.Getenv("MEMHARNESS_LIFEMEM_PACKS")
	if packs == "" {
		t.Skip("MEMHARNESS_LIFEMEM_PACKS not set (real source checkouts)")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "rel.yaml")
	os.WriteFile(cfg, []byte(`name: rel
task: lifemem
prompts: release
prompt:
  release_dirs:
    tau-bench: `+filepath.Join(packs, "tau-bench")+`
    expel: `+filepath.Join(packs, "expel")+`
    lifelongagentbench: `+filepath.Join(packs, "lifelongagentbench")+`
    lifemem-release: `+filepath.Join(packs, "lifemem-release")+`
backbone: {kind: sim}
lifelong:
  stream: similarity
  envs: [hotpotqa, dbbench, toolqa]
  ood: [taubench-airline]
  tasks_per_env: 2
  methods:
    - {name: react, kind: react}
    - {name: expel, kind: expel, top_k: 2}
    - {name: lifemem, kind: lifemem}
`), 0o644)
	out, code := runCLI(t, "run", "-c", cfg, "--out", dir, "--no-report")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if strings.Contains(out, "own prompt") {
		t.Errorf("an environment kept the own prompt:\n%s", out)
	}
	man, err := runrecord.ReadManifest(filepath.Join(dir, "rel", runrecord.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	// ToolQA reads LifeMem's release (its digests are pinned).
	if man.Prompts != "release" || !strings.Contains(man.PromptsPack, "tau-bench@") || !strings.Contains(man.PromptsPack, "BITHLP/LifeMem@") ||
		strings.Contains(man.PromptsPack, "own prompts") ||
		man.PromptsSHA256["expel/prompts/hotpotQA.py"] == "" || man.PromptsSHA256["lifemem-release/ToolQA/benchmark/ReAct/code/prompts.py"] == "" {
		t.Errorf("manifest prompts %q pack %q digests %d", man.Prompts, man.PromptsPack, len(man.PromptsSHA256))
	}
	// LifeMem's construction requests read the release's memory/prompts.py.
	if !strings.Contains(man.PromptsPack, "LifeMem construction from github.com/BITHLP/LifeMem@8a01a70 memory/prompts.py") ||
		man.PromptsSHA256["lifemem-release/memory/prompts.py"] == "" {
		t.Errorf("manifest pack %q lacks LifeMem's construction prompts", man.PromptsPack)
	}
	if !strings.Contains(man.PromptsLabel(), "tau-bench") {
		t.Errorf("title label %q", man.PromptsLabel())
	}
}

// TestLifelongReleaseSynapse runs Mind2Web with Synapse's prompts from a
// real checkout (MEMHARNESS_LIFEMEM_PACKS/synapse; skipped otherwise) on the
// sim backbone: the source's prompt is named in the manifest and the run
// scores, i.e. the sim answers in the source's backticks and the source's
// parse reads its actions.
func TestLifelongReleaseSynapse(t *testing.T) {
	packs := os.Getenv("MEMHARNESS_LIFEMEM_PACKS")
	if packs == "" {
		t.Skip("MEMHARNESS_LIFEMEM_PACKS not set (real source checkouts)")
	}
	if _, err := os.Stat(filepath.Join(packs, "synapse")); err != nil {
		t.Skip("no synapse checkout in MEMHARNESS_LIFEMEM_PACKS")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "syn.yaml")
	os.WriteFile(cfg, []byte(`name: syn
task: lifemem
prompts: release
prompt:
  release_dirs:
    synapse: `+filepath.Join(packs, "synapse")+`
backbone: {kind: sim}
lifelong:
  stream: similarity
  envs: [mind2web]
  methods:
    - {name: synapse, kind: synapse, top_k: 2}
`), 0o644)
	out, code := runCLI(t, "run", "-c", cfg, "--out", dir, "--no-report")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if !strings.Contains(out, "synapse done (final row [mind2web=") || strings.Contains(out, "mind2web=0.0]") {
		t.Errorf("Synapse scored nothing on Mind2Web under its own prompt:\n%s", out)
	}
	man, err := runrecord.ReadManifest(filepath.Join(dir, "syn", runrecord.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if man.Prompts != "release" || !strings.Contains(man.PromptsPack, "ltzheng/Synapse@") || strings.Contains(man.PromptsPack, "own prompts") {
		t.Errorf("manifest prompts %q pack %q", man.Prompts, man.PromptsPack)
	}
}
