// Package runlog defines the on-disk records of a run: the manifest, the
// append-only per-sample log and usage totals. The run store writes them and
// reports read them; nothing here calls a model.
package runlog

import "time"

// Sample is one finished (or errored) prediction, one JSON line in samples.jsonl.
type Sample struct {
	// ID is "<method>/<instance ID>", stable across runs.
	ID      string `json:"id"`
	Method  string `json:"method"`
	Dataset string `json:"dataset"`
	User    string `json:"user"`
	Index   int    `json:"index"`
	Scene   string `json:"scene,omitempty"`
	Field   string `json:"field"`
	Kind    string `json:"kind"`
	Label   string `json:"label"`
	// Pred is the parsed answer; empty when no attempt gave a valid answer.
	Pred  string `json:"pred"`
	Valid bool   `json:"valid"`
	// Attempts is how many model draws the answer took (invalid ones are redrawn).
	Attempts int `json:"attempts"`
	// Raw is the text of the last draw (think blocks removed).
	Raw string `json:"raw,omitempty"`
	// Prompt is the prompt as sent; the run store keeps it compressed in
	// prompts.jsonl (see PromptsFile), not in samples.jsonl.
	Prompt string `json:"-"`
	// Error is set when the sample could not be completed (transport failure,
	// context cancelled...). Errored samples are retried on resume.
	Error string `json:"error,omitempty"`

	Calls            int     `json:"calls"`
	CachedCalls      int     `json:"cached_calls"`
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	Cost             float64 `json:"cost,omitempty"`
	LatencyMS        float64 `json:"latency_ms"`

	// What the method showed the model.
	HistoryRecords int `json:"history_records"`
	HistoryTokens  int `json:"history_tokens"`
	MemoryTokens   int `json:"memory_tokens"`
}

// Manifest describes a run; it is written at start and updated at the end.
type Manifest struct {
	Name       string `json:"name"`
	Config     any    `json:"config"` // the resolved configuration
	ConfigPath string `json:"config_path,omitempty"`
	// ConfigHash is the SHA-256 of the resolved config; a run directory
	// refuses to resume under a different config.
	ConfigHash     string `json:"config_hash"`
	Variant        string `json:"variant,omitempty"`
	HarnessVersion string `json:"harness_version"`
	GitCommit      string `json:"git_commit,omitempty"`
	Backbone       string `json:"backbone"` // "sim" or "openai"
	Model          string `json:"model"`
	// BuildModel is the memory-construction model when it differs.
	BuildModel    string            `json:"build_model,omitempty"`
	Endpoints     []string          `json:"endpoints,omitempty"` // base URLs, never keys
	DataSource    string            `json:"data_source"`         // e.g. "synthetic MovieLens-1M (seed 7)"
	DatasetSHA256 map[string]string `json:"dataset_sha256,omitempty"`
	// DataWarnings are data problems that did not stop the run (e.g. a
	// malformed user file whose user was left out).
	DataWarnings []string   `json:"data_warnings,omitempty"`
	Seed         int64      `json:"seed"`
	Methods      []string   `json:"methods"`
	Samples      int        `json:"samples"` // planned samples
	Started      time.Time  `json:"started"`
	Finished     *time.Time `json:"finished,omitempty"`
}

// MethodUsage is the usage of one method (or memory-building stage).
type MethodUsage struct {
	Calls            int     `json:"calls"`
	LiveCalls        int     `json:"live_calls"`
	CachedCalls      int     `json:"cached_calls"`
	Errors           int     `json:"errors"`
	Retries          int     `json:"retries"`
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	Cost             float64 `json:"cost"`
	LatencyMS        float64 `json:"latency_ms"`
}
