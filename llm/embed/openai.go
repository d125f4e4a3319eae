package embed

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	openai "github.com/sashabaranov/go-openai"

	"github.com/memharness/memharness/llm"
)

// DefaultBatch is how many texts OpenAI sends per request by default.
const DefaultBatch = 64

// OpenAIConfig configures an OpenAI-compatible embeddings client.
type OpenAIConfig struct {
	BaseURL string // e.g. "https://api.openai.com/v1" or "http://localhost:8000/v1"
	Model   string
	// APIKey is sent as a bearer token and never logged or put in errors.
	APIKey string
	// Batch is the number of texts per request (DefaultBatch if not positive).
	Batch int
	// Dimensions asks text-embedding-3 style models for shorter vectors (0 = default).
	Dimensions int
	// HTTPClient replaces the default client (tests, proxies, middlewares).
	HTTPClient *http.Client
}

// OpenAI embeds texts through an OpenAI-compatible /embeddings endpoint.
type OpenAI struct {
	client *openai.Client
	cfg    OpenAIConfig
}

var _ llm.Embedder = (*OpenAI)(nil)

// NewOpenAI returns an embedder for cfg.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	if cfg.BaseURL == "" || cfg.Model == "" {
		return nil, errors.New("embed: openai: BaseURL and Model are required")
	}
	if cfg.Batch <= 0 {
		cfg.Batch = DefaultBatch
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = cfg.BaseURL
	if cfg.HTTPClient != nil {
		oc.HTTPClient = cfg.HTTPClient
	}
	return &OpenAI{client: openai.NewClientWithConfig(oc), cfg: cfg}, nil
}

// Embed implements llm.Embedder. Vectors come back in input order whatever
// order the server lists them in.
func (o *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for start := 0; start < len(texts); start += o.cfg.Batch {
		end := min(start+o.cfg.Batch, len(texts))
		if err := o.batch(ctx, texts[start:end], out[start:end]); err != nil {
			return nil, fmt.Errorf("embed: %s (%s): texts %d..%d: %w", o.cfg.BaseURL, o.cfg.Model, start, end-1, err)
		}
	}
	return out, nil
}

func (o *OpenAI) batch(ctx context.Context, texts []string, out [][]float32) error {
	resp, err := o.client.CreateEmbeddings(ctx, openai.EmbeddingRequestStrings{
		Input:      texts,
		Model:      openai.EmbeddingModel(o.cfg.Model),
		Dimensions: o.cfg.Dimensions,
	})
	if err != nil {
		return err
	}
	if len(resp.Data) != len(texts) {
		return fmt.Errorf("server returned %d embeddings for %d inputs", len(resp.Data), len(texts))
	}
	for _, d := range resp.Data {
		if d.Index < 0 || d.Index >= len(texts) {
			return fmt.Errorf("server returned embedding index %d for %d inputs", d.Index, len(texts))
		}
		if out[d.Index] != nil {
			return fmt.Errorf("server returned embedding index %d twice", d.Index)
		}
		if len(d.Embedding) == 0 {
			return fmt.Errorf("server returned an empty embedding at index %d", d.Index)
		}
		out[d.Index] = d.Embedding
	}
	return nil
}
