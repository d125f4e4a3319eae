package config

import (
	"os"
	"path/filepath"
	"testing"
)

// TestEmbedderAuto: "auto" is the hash embedder on sim whatever the
// environment says, the embeddings endpoint on a real backbone when one is
// named, and the hash embedder (warned about by the run) when none is.
func TestEmbedderAuto(t *testing.T) {
	cases := []struct {
		name             string
		backboneURL      string
		embeddingsURL    string
		baseURLInFile    string
		wantKind, wantAt string
	}{
		{"sim ignores the endpoint", "", "http://emb:8080/v1", "", "hash", ""},
		{"real backbone with the env endpoint", "http://llm:8000/v1", "http://emb:8080/v1", "", "openai", "http://emb:8080/v1"},
		{"real backbone, base_url in the file wins", "http://llm:8000/v1", "http://emb:8080/v1", "http://file:9/v1", "openai", "http://file:9/v1"},
		{"real backbone without an endpoint", "http://llm:8000/v1", "", "", "hash", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			body := "name: e\ntask: movielens\nbackbone: {kind: auto, model: m}\nembedder:\n  kind: auto\n  model: sentence-transformers/all-MiniLM-L6-v2\n"
			if tc.baseURLInFile != "" {
				body += "  base_url: " + tc.baseURLInFile + "\n"
			}
			body += "methods:\n  - {kind: rag}\n"
			path := filepath.Join(dir, "c.yaml")
			if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			env := map[string]string{"OPENAI_BASE_URL": tc.backboneURL, EnvEmbeddingsURL: tc.embeddingsURL}
			cfg, err := Options{Getenv: func(k string) string { return env[k] }}.Load(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Embedder.Kind != tc.wantKind || cfg.Embedder.BaseURL != tc.wantAt {
				t.Errorf("embedder %s at %q, want %s at %q", cfg.Embedder.Kind, cfg.Embedder.BaseURL, tc.wantKind, tc.wantAt)
			}
			if cfg.Embedder.Kind == "hash" && cfg.Embedder.Dim != DefaultHashDim {
				t.Errorf("hash dim %d", cfg.Embedder.Dim)
			}
		})
	}
}
