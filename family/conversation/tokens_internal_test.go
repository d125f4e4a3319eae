package conversation

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/datasets/memqa"
	scoring "github.com/memharness/memharness/metrics/memqa"
	"github.com/memharness/memharness/releasepacks/lifememrel"
	"github.com/memharness/memharness/releasepacks/memqarel"
)

// TestBLEUTokenizerFollowsThePromptsSetting: own (the default) splits
// sentences with untrained Punkt; prompts: release reads the Punkt model
// of the fetched package (here a stand-in of our own whose one
// abbreviation is "dr"), and without the package the run stops, saying
// how to fetch it. LongMemEval scores no BLEU-1.
func TestBLEUTokenizerFollowsThePromptsSetting(t *testing.T) {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for name, text := range map[string]string{scoring.PunktAbbrevFile: "dr", scoring.PunktCollocationsFile: "",
		scoring.PunktSentStartersFile: "", scoring.PunktOrthoFile: ""} {
		fw, err := w.Create("punkt_tab/english/" + name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write([]byte(text))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	full := filepath.Join(data, memqarel.NameNLTKPunkt, filepath.FromSlash(memqarel.PunktTabPath))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(buf.Bytes())
	pin := lifememrel.Source{Name: memqarel.NameNLTKPunkt, Repository: "example.com/p",
		Files: []lifememrel.File{{Path: memqarel.PunktTabPath, Commit: strings.Repeat("1", 40), SHA256: hex.EncodeToString(sum[:]), Size: int64(buf.Len())}}}
	getenv := func(k string) string {
		if k == "MEMHARNESS_DATA" {
			return data
		}
		return ""
	}
	const text = "dr. smith came. he left."
	for _, tc := range []struct {
		name    string
		prompts string
		bench   memqa.Benchmark
		label   string
		tokens  []string
	}{
		{"own", "", memqa.LoCoMo, bleuTokensOwn, []string{"dr", ".", "smith", "came", ".", "he", "left", "."}},
		{"release", config.PromptsRelease, memqa.LoCoMo, "nltk word_tokenize, English Punkt of example.com/p@" + strings.Repeat("1", 40) + " " + memqarel.PunktTabPath + " (english)",
			[]string{"dr.", "smith", "came", ".", "he", "left", "."}},
		{"longmemeval", config.PromptsRelease, memqa.LongMemEval, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := &config.Config{Prompts: tc.prompts}
			tok, label, err := bleuTokenizer(cfg, getenv, memqarel.Packs{Punkt: pin}, tc.bench)
			if err != nil {
				t.Fatal(err)
			}
			if label != tc.label {
				t.Errorf("label %q, want %q", label, tc.label)
			}
			if tok == nil {
				if tc.tokens != nil {
					t.Fatal("no tokenizer")
				}
				return
			}
			if got := tok.WordTokenize(text); !slices.Equal(got, tc.tokens) {
				t.Errorf("tokens %q, want %q", got, tc.tokens)
			}
		})
	}
	empty := func(string) string { return "" }
	cfg := &config.Config{Prompts: config.PromptsRelease}
	cfg.Prompt.ReleaseDirs = map[string]string{memqarel.NameNLTKPunkt: t.TempDir()}
	if _, _, err := bleuTokenizer(cfg, empty, memqarel.Packs{}, memqa.LoCoMo); err == nil ||
		!strings.Contains(err.Error(), "bench data fetch nltk-punkt") || !strings.Contains(err.Error(), "punkt_tab.zip is missing") {
		t.Fatalf("missing package: %v", err)
	}
}
