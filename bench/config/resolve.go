package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"slices"

	"go.yaml.in/yaml/v3"
)

// hashVersion changes whenever the meaning of a hashed field changes, so old
// run names are not reused for different work.
const hashVersion = "memharness/config/v1\n"

// ResolvedYAML is the fully defaulted config as YAML: every field written,
// in declaration order, map keys sorted. Same config, same bytes. The sweep
// block is not part of it (an expanded variant has none).
func (c *Config) ResolvedYAML() ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		return nil, fmt.Errorf("marshal resolved config: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("marshal resolved config: %w", err)
	}
	return buf.Bytes(), nil
}

// Hash is the hex SHA-256 of what decides a run's results: the resolved
// YAML without the operational knobs (description, concurrency, retries,
// timeouts, cache location, sim latency), with template files replaced by
// the SHA-256 of their contents so the hash follows the prompt, not its
// path. Resuming with more concurrency therefore keeps the same hash.
func (c *Config) Hash() (string, error) {
	id := *c
	id.Description = ""
	id.Sweep = nil
	id.Backbone.Concurrency, id.Backbone.MaxConcurrency, id.Backbone.MaxRetries = 0, 0, 0
	id.Backbone.Timeout = Duration{}
	id.Backbone.MaxResponseBytes, id.Backbone.RetryBudget = 0, Duration{}
	// The prefix cache's size and the hold change the send order only.
	id.Backbone.PrefixCacheTokens, id.Backbone.PrefixHold = 0, nil
	id.Backbone.Cache = ""
	id.Backbone.Sim.Latency = Duration{}
	// Batches change the price and the wait, never an answer.
	id.Backbone.Batch = nil
	id.Eval.Concurrency = 0
	// Where the model is served does not change its answers (the model name
	// does), so a run resumes, and shards merge, across endpoint moves; the
	// invalid-rate threshold judges a run and does not shape it.
	id.Backbone.BaseURLs, id.Backbone.BuildBaseURLs = nil, nil
	id.Embedder.BaseURL = ""
	id.Judge = judgeForHash(c.Judge)
	id.Eval.MaxInvalidRate = 0
	// The spending ceilings stop a run and do not shape it: a run stopped
	// at one resumes with a higher one.
	id.Eval.MaxCost, id.Eval.MaxTokens = 0, 0
	// One draw is the run before repeats existed, however it is spelled.
	if c.Eval.Draws() == 1 {
		id.Eval.Repeats, id.Eval.Reducer = 0, ""
	}
	id.Dataset.MaxRecordMB = 0
	// Which formats a finished run is also written in does not change it.
	id.Report.Export = nil
	var err error
	// Where the release pack lives does not change its (pinned) text; a
	// tokenizer counts by its contents, not its path.
	id.Prompt.ReleaseDir = ""
	if c.Prompt.Tokenizer != "" {
		if id.Prompt.Tokenizer, err = fileDigest(c.Prompt.Tokenizer); err != nil {
			return "", fmt.Errorf("hash config: prompt.tokenizer: %w", err)
		}
	}
	id.Prompt.Templates = maps.Clone(c.Prompt.Templates)
	for name, path := range id.Prompt.Templates {
		if id.Prompt.Templates[name], err = fileDigest(path); err != nil {
			return "", fmt.Errorf("hash config: prompt.templates.%s: %w", name, err)
		}
	}
	id.Methods = slices.Clone(c.Methods)
	for i := range id.Methods {
		m := &id.Methods[i]
		m.Templates = slices.Clone(m.Templates)
		for j, path := range m.Templates {
			if m.Templates[j], err = fileDigest(path); err != nil {
				return "", fmt.Errorf("hash config: methods[%d].templates[%d]: %w", i, j, err)
			}
		}
	}
	b, err := id.ResolvedYAML()
	if err != nil {
		return "", fmt.Errorf("hash config: %w", err)
	}
	h := sha256.New()
	h.Write([]byte(hashVersion))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil)), nil
}

func fileDigest(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}
