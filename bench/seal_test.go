package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/runrecord"
)

// A finished shard's files are sealed in its manifest; merge refuses a
// shard whose files changed afterwards, naming the file.
func TestMergeRefusesTamperedShards(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "sh.yaml")
	os.WriteFile(cfg, []byte(strings.Replace(shardedConfig, "LATENCY", "0s", 1)), 0o644)
	base := t.TempDir()
	for i := range 2 {
		if out, code := runCLI(t, "run", "-c", cfg, "--out", base, "--shard", fmt.Sprintf("%d/2", i)); code != 0 {
			t.Fatalf("shard %d exit %d:\n%s", i, code, out)
		}
	}
	shard := func(root string, i int) string {
		return family.Shard{Index: i, Count: 2}.Dir(filepath.Join(root, "sh"))
	}
	man, err := runrecord.ReadManifest(filepath.Join(shard(base, 0), runrecord.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(man.Seal) == 0 || man.Seal[runrecord.SamplesFile] == "" || man.Seal["usage.jsonl"] == "" {
		t.Fatalf("shard manifest seal = %v; want the samples log and usage journal in it", man.Seal)
	}

	lines := func(p string) [][]byte {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return bytes.SplitAfter(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	}
	tests := []struct {
		name, file string
		tamper     func(root string)
	}{
		{"flipped answer", runrecord.SamplesFile, func(root string) {
			p := filepath.Join(shard(root, 1), runrecord.SamplesFile)
			ls := lines(p)
			var s runrecord.Sample
			json.Unmarshal(bytes.TrimSpace(ls[0]), &s)
			s.Pred = s.Label
			if s.Pred == "" || s.Pred == "1" {
				s.Pred = "2"
			}
			b, _ := json.Marshal(s)
			ls[0] = append(b, '\n')
			os.WriteFile(p, bytes.Join(ls, nil), 0o644)
		}},
		{"sample moved between shards", runrecord.SamplesFile, func(root string) {
			from, to := filepath.Join(shard(root, 0), runrecord.SamplesFile), filepath.Join(shard(root, 1), runrecord.SamplesFile)
			ls := lines(from)
			moved := ls[len(ls)-1]
			if !bytes.HasSuffix(moved, []byte("\n")) {
				moved = append(moved, '\n')
			}
			os.WriteFile(from, bytes.Join(ls[:len(ls)-1], nil), 0o644)
			b, _ := os.ReadFile(to)
			os.WriteFile(to, append(b, moved...), 0o644)
		}},
		{"usage inflated", "usage.jsonl", func(root string) {
			p := filepath.Join(shard(root, 0), "usage.jsonl")
			b, _ := os.ReadFile(p)
			b = bytes.Replace(b, []byte(`"prompt_tokens":`), []byte(`"prompt_tokens":1000000000000`), 1)
			os.WriteFile(p, b, 0o644)
		}},
		{"memory file added", "memory/mem0/999.json", func(root string) {
			os.WriteFile(filepath.Join(shard(root, 0), "memory", "mem0", "999.json"), []byte(`{"text":"x"}`), 0o644)
		}},
		{"seal removed", "no seal", func(root string) {
			p := filepath.Join(shard(root, 1), runrecord.ManifestFile)
			var m map[string]any
			b, _ := os.ReadFile(p)
			json.Unmarshal(b, &m)
			delete(m, "seal")
			b, _ = json.Marshal(m)
			os.WriteFile(p, b, 0o644)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.CopyFS(root, os.DirFS(base)); err != nil {
				t.Fatal(err)
			}
			tt.tamper(root)
			out, code := runCLI(t, "merge", "--no-report", filepath.Join(root, "sh"))
			if code == 0 {
				t.Fatalf("merge accepted the tampered shard:\n%s", out)
			}
			if !strings.Contains(out, tt.file) || !strings.Contains(out, "refusing") && tt.file != "no seal" {
				t.Errorf("merge error does not name %s:\n%s", tt.file, out)
			}
		})
	}
	// Untouched shards merge, and the merged manifest carries no seal.
	if out, code := runCLI(t, "merge", "--no-report", filepath.Join(base, "sh")); code != 0 {
		t.Fatalf("merge of untouched shards: exit %d:\n%s", code, out)
	}
	merged, err := runrecord.ReadManifest(filepath.Join(base, "sh", runrecord.ManifestFile))
	if err != nil || merged.Seal != nil {
		t.Errorf("merged manifest seal = %v, %v", merged.Seal, err)
	}
}
