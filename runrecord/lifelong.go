package runrecord

import (
	"fmt"

	"github.com/memharness/memharness/llm"
)

// The records of the lifelong protocol (LifeMem's task family) under
// <run>/lifelong/: package lifelong writes them (its types are aliases of
// these) and the reports read them, so writer and reader share one schema.
// The layout is in package lifelong's documentation.

// Lifelong result files, relative to a run directory.
const (
	// LifelongDir is the folder of lifelong results in a run directory.
	LifelongDir = "lifelong"
	// LifelongInfoFile is LifelongInfo, in LifelongDir.
	LifelongInfoFile = "run.json"
	// LifelongCellsDir holds a method's cells: cells/<stage>/<env>.json.
	LifelongCellsDir = "cells"
	// LifelongCostsFile is a method's LifelongCosts.
	LifelongCostsFile = "costs.json"
	// LifelongStatsFile is where a memory method's own statistics go.
	LifelongStatsFile = "lifemem_stats.json"
)

// LifelongInfoVersion is the version of run.json's format.
const LifelongInfoVersion = 1

// LifelongInfo is lifelong/run.json: what the reports need to title and
// order the results without reading the bench manifest. C is the lifelong
// config as run: package lifelong writes its whole Config; a reader decodes
// the part it needs (LifelongRunConfig).
type LifelongInfo[C any] struct {
	Version int    `json:"version"`
	Name    string `json:"name"`
	Variant string `json:"variant,omitempty"`
	// Backbone is "sim" or "openai"; Model the acting model, BuildModel the
	// memory-construction model when different.
	Backbone   string `json:"backbone"`
	Model      string `json:"model"`
	BuildModel string `json:"build_model,omitempty"`
	// DataSource says where tasks and trajectories came from (e.g.
	// "embedded suites; gold trajectories of the train split").
	DataSource string `json:"data_source"`
	// Config is the lifelong config as run: Config.Envs is the stream that
	// actually ran, without the environments in LeftOut.
	Config C `json:"config"`
	// LeftOut lists configured environments that could not run here.
	LeftOut []LifelongLeftOut `json:"left_out,omitempty"`
	// TestSets says, per environment that ran, how many test tasks it had
	// and where that set comes from (the paper's, an assumption, or the
	// whole split because the paper's is unknown).
	TestSets []LifelongTestSet `json:"test_sets,omitempty"`
}

// LifelongRunConfig is what a reader of run.json needs of the lifelong
// config: the stream, the environments and the methods with their knobs.
// Package lifelong's Config writes these fields under these names (its
// tests decode a written run.json into this type).
type LifelongRunConfig struct {
	Stream    string                 `json:"stream"`
	Envs      []string               `json:"envs"`
	OOD       []string               `json:"ood,omitempty"`
	SelfLearn bool                   `json:"self_learn,omitempty"`
	Methods   []LifelongMethodRecord `json:"methods"`
	// Orders, NamedOrders and Order place the run among the stream orders
	// of its config (lifelong.orders, lifelong.named_orders,
	// lifelong.order); all zero for a run of one order.
	Orders      int      `json:"orders,omitempty"`
	NamedOrders []string `json:"named_orders,omitempty"`
	Order       int      `json:"order,omitempty"`
}

// InOrderStudy reports whether the run is one order of several
// (lifelong.orders above 1 or lifelong.named_orders set).
func (c LifelongRunConfig) InOrderStudy() bool { return c.Orders > 1 || len(c.NamedOrders) > 0 }

// OrderLabel names the run's order in a report: the stream, with its
// seeded order's number when the config asks for several ("random #2").
func (c LifelongRunConfig) OrderLabel() string {
	s := c.Stream
	if s == "" {
		s = "similarity"
	}
	if c.Orders > 1 {
		return fmt.Sprintf("%s #%d", s, max(c.Order, 1))
	}
	return s
}

// LifelongMethodRecord is one method of run.json's config.
type LifelongMethodRecord struct {
	Name           string  `json:"name"`
	Kind           string  `json:"kind"`
	TopK           int     `json:"top_k,omitempty"`
	SplitSize      int     `json:"split_size,omitempty"`
	Tau            float64 `json:"tau,omitempty"`
	NoSkills       bool    `json:"no_skills,omitempty"`
	NoTrajectories bool    `json:"no_trajectories,omitempty"`
	// Sampling are the request settings of the kind's own call purposes,
	// as the run sent them.
	Sampling map[string]llm.Params `json:"sampling,omitempty"`
	// Options are a kind's own settings, as the config gave them.
	Options map[string]any `json:"options,omitempty"`
}

// LifelongTestSet is one environment's test set as run.
type LifelongTestSet struct {
	Env   string `json:"env"`
	Tasks int    `json:"tasks"`
	// Status is "paper", "assumed", "unknown" (the whole split ran: the
	// paper's split is not recoverable), "whole" (the whole split ran though
	// the paper's size is known), "config" (a test_size the paper does not
	// give) or "embedded".
	Status string `json:"status"`
	Note   string `json:"note,omitempty"`
}

// LifelongLeftOut is a configured environment that did not run, with the
// reason and the command that installs what it lacks.
type LifelongLeftOut struct {
	Env     string `json:"env"`
	Reason  string `json:"reason"`
	Install string `json:"install,omitempty"`
}

// LifelongUsage is the call and token count of a part of the protocol. It
// carries no latencies, so stored cells stay byte-identical across reruns
// on the sim backbone.
type LifelongUsage struct {
	Calls            int     `json:"calls"`
	CachedCalls      int     `json:"cached_calls,omitempty"`
	Errors           int     `json:"errors,omitempty"`
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	Cost             float64 `json:"cost,omitempty"`
}

// Add returns the sum.
func (u LifelongUsage) Add(o LifelongUsage) LifelongUsage {
	return LifelongUsage{
		Calls:            u.Calls + o.Calls,
		CachedCalls:      u.CachedCalls + o.CachedCalls,
		Errors:           u.Errors + o.Errors,
		PromptTokens:     u.PromptTokens + o.PromptTokens,
		CompletionTokens: u.CompletionTokens + o.CompletionTokens,
		Cost:             u.Cost + o.Cost,
	}
}

// Sub returns the difference u − o (a later meter reading minus an
// earlier one).
func (u LifelongUsage) Sub(o LifelongUsage) LifelongUsage {
	return LifelongUsage{
		Calls:            u.Calls - o.Calls,
		CachedCalls:      u.CachedCalls - o.CachedCalls,
		Errors:           u.Errors - o.Errors,
		PromptTokens:     u.PromptTokens - o.PromptTokens,
		CompletionTokens: u.CompletionTokens - o.CompletionTokens,
		Cost:             u.Cost - o.Cost,
	}
}

// LifelongCellKey identifies one evaluation cell.
type LifelongCellKey struct {
	// Stage is the two-digit row of the stream ("01"), "self" or "ood".
	Stage string `json:"stage"`
	Env   string `json:"env"`
}

func (k LifelongCellKey) String() string { return k.Stage + "/" + k.Env }

// LifelongTask is one episode of a cell.
type LifelongTask struct {
	Task string `json:"task"`
	// Repeat is which draw of the task this episode is (eval.repeats; 0,
	// the first, is left out).
	Repeat  int     `json:"repeat,omitempty"`
	Score   float64 `json:"score"` // the environment's native metric, in [0, 1]
	Steps   int     `json:"steps"`
	Invalid int     `json:"invalid_actions,omitempty"`
	End     string  `json:"end"`
	// Error is set when the episode could not start or ended on an agent or
	// environment failure (its score counts as 0).
	Error bool `json:"error,omitempty"`
}

// LifelongCell is the evaluation of one test set at one point of the
// stream: cells/<stage>/<env>.json. T is the transcript type of the
// environments' floor, which this one cannot name; transcripts are stored
// beside the cell, never in its JSON.
type LifelongCell[T any] struct {
	Method string `json:"method"`
	Stage  string `json:"stage"`
	// Row is the 1-based matrix row for stream cells, 0 for self and OOD.
	Row int    `json:"row,omitempty"`
	Env string `json:"env"`
	// Score is the mean task score × 100 (0 for an empty test set); with
	// repeated draws a task's score is Reducer's of its draws.
	Score float64 `json:"score"`
	// Draws is how many times each task was played when more than once
	// (Tasks then holds each task's draws one after another) and Reducer
	// the eval.reducer that made a task's score of them.
	Draws   int            `json:"draws,omitempty"`
	Reducer string         `json:"reducer,omitempty"`
	Tasks   []LifelongTask `json:"tasks"`
	Errors  int            `json:"errors"`
	// Acting is the usage of the method's calls while playing the cell;
	// Environment the usage of simulated parties (τ-bench's customer).
	Acting      LifelongUsage `json:"acting"`
	Environment LifelongUsage `json:"environment"`
	// Construction and Trajectories are set on self-learn cells, whose
	// fresh method learns inside the cell.
	Construction LifelongUsage `json:"construction,omitzero"`
	Trajectories int           `json:"trajectories,omitempty"`
	// Transcripts are stored beside the cell (one JSON line each), not in
	// its JSON.
	Transcripts []T `json:"-"`
}

// Key is the cell's key.
func (c LifelongCell[T]) Key() LifelongCellKey { return LifelongCellKey{Stage: c.Stage, Env: c.Env} }

// LifelongStage marks a learned stage (stages/<stage>.json): written after
// EndStage and Save, so its presence means the method's saved state
// includes the stage.
type LifelongStage struct {
	Stage        int    `json:"stage"`
	Env          string `json:"env,omitempty"`
	Batches      int    `json:"batches"`
	Trajectories int    `json:"trajectories"`
	// Construction is the usage of Learn and EndStage calls of the stage.
	Construction LifelongUsage `json:"construction"`
}

// LifelongCosts is a method's costs.json: construction against acting.
type LifelongCosts struct {
	Method       string        `json:"method"`
	Construction LifelongUsage `json:"construction"`
	Acting       LifelongUsage `json:"acting"`
	// Environment is the usage of simulated parties during episodes.
	Environment LifelongUsage `json:"environment"`
	// Trajectories learned (stream and self-learn) and episodes played.
	Trajectories int `json:"trajectories"`
	Episodes     int `json:"episodes"`
	// PromptTokensPerEpisode and PromptTokensPerCall describe the acting
	// prompts (what the method's memory adds to each prompt); WithRates
	// sets them.
	PromptTokensPerEpisode float64 `json:"prompt_tokens_per_episode"`
	PromptTokensPerCall    float64 `json:"prompt_tokens_per_call"`
}

// WithRates returns c with the per-episode and per-call prompt tokens
// computed from its counts (0 when there is nothing to divide by).
func (c LifelongCosts) WithRates() LifelongCosts {
	c.PromptTokensPerEpisode, c.PromptTokensPerCall = 0, 0
	if c.Episodes > 0 {
		c.PromptTokensPerEpisode = float64(c.Acting.PromptTokens) / float64(c.Episodes)
	}
	if c.Acting.Calls > 0 {
		c.PromptTokensPerCall = float64(c.Acting.PromptTokens) / float64(c.Acting.Calls)
	}
	return c
}
