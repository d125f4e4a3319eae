package config

import (
	"fmt"
	"strings"
	"time"
)

// Default values, named so docs and tests can refer to them.
const (
	DefaultSeed           = 42
	DefaultTask           = "movielens"
	DefaultLanguage       = "zh" // the reference prompts and scene names are Chinese
	DefaultTestPerUser    = 30
	DefaultConcurrency    = 16
	DefaultMaxConcurrency = 64
	DefaultMaxRetries     = 6
	DefaultTimeout        = 2 * time.Minute
	// DefaultMaxResponseBytes: far above any real answer.
	DefaultMaxResponseBytes = 1 << 20
	DefaultRetryBudget      = 10 * time.Minute
	DefaultSimThreshold     = 0.5
	DefaultHashDim          = 256
	DefaultMaxAttempts      = 5
	DefaultEvalParallel     = 8
	DefaultMaxInvalidRate   = 0.2
	DefaultBootstrap        = 1000
	// MaxBootstrap bounds report.bootstrap: each resample holds a value
	// per statistic, so two billion would take gigabytes.
	MaxBootstrap = 1_000_000
	// MaxSyntheticUsers bounds the embedded generators (users, movies):
	// they build the whole data set in memory before a run starts.
	MaxSyntheticUsers = 100_000
	DefaultLevel      = 0.95
	DefaultSimModel   = "sim"
)

// defaults is the config before the file is decoded onto it; the decoder
// only overwrites keys that are written, so an explicit 0 stays 0.
func defaults() *Config {
	return &Config{
		Seed:    DefaultSeed,
		Dataset: Dataset{TestPerUser: DefaultTestPerUser, Questions: "binary"},
		Backbone: Backbone{
			Kind:             "auto",
			Concurrency:      DefaultConcurrency,
			MaxConcurrency:   DefaultMaxConcurrency,
			MaxRetries:       DefaultMaxRetries,
			Timeout:          Duration{DefaultTimeout},
			MaxResponseBytes: DefaultMaxResponseBytes,
			RetryBudget:      Duration{DefaultRetryBudget},
			Sim:              Sim{Threshold: DefaultSimThreshold},
		},
		Embedder: Embedder{Kind: "hash"},
		Eval:     Eval{MaxAttempts: DefaultMaxAttempts, Concurrency: DefaultEvalParallel, MaxInvalidRate: DefaultMaxInvalidRate},
		Report:   Report{Bootstrap: DefaultBootstrap, Level: DefaultLevel},
	}
}

// fill sets the defaults that depend on other fields or on the environment.
// It returns, for each field it copied from another, the source's path, so
// errors about a copied value can point at where it was written.
func (c *Config) fill(getenv func(string) string) map[string]string {
	from := map[string]string{}
	switch {
	case c.Task == "" && c.Dataset.Name == "":
		c.Task, c.Dataset.Name = DefaultTask, DefaultTask
	case c.Task == "":
		c.Task = c.Dataset.Name
		from["task"] = "dataset.name"
	case c.Dataset.Name == "":
		c.Dataset.Name = c.Task
		from["dataset.name"] = "task"
	}
	if c.Dataset.Language == "" {
		c.Dataset.Language = DefaultLanguage
	}
	if c.Dataset.Synthetic.Seed == 0 {
		c.Dataset.Synthetic.Seed = uint64(c.Seed)
	}
	if c.Prompt.Language == "" {
		c.Prompt.Language = c.Dataset.Language
		from["prompt.language"] = "dataset.language"
	}

	b := &c.Backbone
	envURLs := splitURLs(getenv("OPENAI_BASE_URL"))
	if b.Kind == "auto" {
		b.Kind = "sim"
		if len(envURLs) > 0 {
			b.Kind = "openai"
		}
	}
	switch b.Kind {
	case "openai":
		if len(b.BaseURLs) == 0 {
			b.BaseURLs = envURLs
		}
		// OPENAI_MODEL names what the configured endpoint serves, so it wins
		// over the paper configs' model names.
		if m := strings.TrimSpace(getenv("OPENAI_MODEL")); m != "" {
			b.Model = m
		}
	case "sim":
		if b.Model == "" {
			b.Model = DefaultSimModel
		}
	}

	e := &c.Embedder
	if e.Kind == "auto" {
		e.resolveAuto(b.Kind, getenv, from)
	}
	switch e.Kind {
	case "hash":
		if e.Dim == 0 {
			e.Dim = DefaultHashDim
		}
	case "openai":
		if e.BaseURL == "" {
			if b.Kind == "openai" && len(b.BaseURLs) > 0 {
				e.BaseURL = b.BaseURLs[0]
				from["embedder.base_url"] = "backbone.base_urls[0]"
			} else if len(envURLs) > 0 {
				e.BaseURL = envURLs[0]
			}
		}
	}

	for i := range c.Methods {
		if c.Methods[i].Name == "" {
			c.Methods[i].Name = c.Methods[i].Kind
			from[fmt.Sprintf("methods[%d].name", i)] = fmt.Sprintf("methods[%d].kind", i)
		}
	}
	if c.Report.Baseline == "" && len(c.Methods) > 0 {
		c.Report.Baseline = c.Methods[0].Name
	}
	return from
}

// splitURLs reads a comma or space separated list of base URLs.
func splitURLs(s string) []string {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
	if len(f) == 0 {
		return nil
	}
	return f
}

// EnvEmbeddingsURL names an OpenAI-compatible /embeddings endpoint (e.g. a
// text-embeddings server with all-MiniLM-L6-v2) for configs whose embedder
// is "auto".
const EnvEmbeddingsURL = "MEMHARNESS_EMBEDDINGS_URL"

// resolveAuto picks the embedder for kind "auto": the configured (or
// $MEMHARNESS_EMBEDDINGS_URL) embeddings endpoint on a real backbone, else
// the hash embedder. The sim backbone always gets the hash embedder, so the
// embedded default stays offline; a real backbone without an endpoint
// falls back to it too, and the run warns (see the backbone).
func (e *Embedder) resolveAuto(backbone string, getenv func(string) string, from map[string]string) {
	url := strings.TrimSpace(e.BaseURL)
	src := "embedder.base_url"
	if url == "" {
		url, src = strings.TrimSpace(getenv(EnvEmbeddingsURL)), "$"+EnvEmbeddingsURL
	}
	if backbone == "openai" && url != "" && e.Model != "" {
		e.Kind, e.BaseURL = "openai", url
		from["embedder.kind"] = "auto (" + src + ")"
		return
	}
	// Model stays: it names what the config asked for, for the warning.
	e.Kind, e.BaseURL = "hash", ""
	from["embedder.kind"] = "auto (no embeddings endpoint on backbone " + backbone + ")"
}
