package config

import (
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/predict"
)

// Config is one fully described benchmark run.
type Config struct {
	// Name labels the run; it must be filesystem-safe when set.
	Name string `yaml:"name" json:"name"`
	// Description is shown in reports.
	Description string `yaml:"description" json:"description"`
	// Task selects the pipeline: "movielens", "omnibehavior", "lifemem",
	// "locomo" or "longmemeval" (a registered family's own tasks too).
	Task string `yaml:"task" json:"task"`
	// Seed drives every random choice of the run (default 42).
	Seed     int64    `yaml:"seed" json:"seed"`
	Dataset  Dataset  `yaml:"dataset" json:"dataset"`
	Backbone Backbone `yaml:"backbone" json:"backbone"`
	Embedder Embedder `yaml:"embedder" json:"embedder"`
	Prompt   Prompt   `yaml:"prompt" json:"prompt"`
	// Prompts chooses whose wording the model sees: "own" (the harness's,
	// the default; "" means own) or "release" (the authors' prompts, read
	// at run time from the user's copy of the sources' pinned releases:
	// see prompt.release_dir and prompt.release_dirs, and 'bench data fetch'
	// pramem-release, lifemem-release, tau-bench, expel, agentbench,
	// synapse, mem0-eval or longmemeval-eval). On LoCoMo, release also
	// tokenises mem0's BLEU-1 with nltk's English Punkt model ('bench data
	// fetch nltk-punkt'); own splits sentences with untrained Punkt.
	Prompts string `yaml:"prompts,omitempty" json:"prompts,omitempty"`
	Eval    Eval   `yaml:"eval" json:"eval"`
	// Judge is the model that grades a conversational-memory run's answers
	// (nil: the backbone's, in the prompts setting's wording).
	Judge *Judge `yaml:"judge,omitempty" json:"judge,omitempty"`
	// Methods are the prediction methods compared in the run.
	Methods []predict.Spec `yaml:"methods" json:"methods"`
	Report  Report         `yaml:"report" json:"report"`
	// Lifelong configures task lifemem: the stream, its environments and the
	// agent methods (see package lifelong).
	Lifelong *lifelong.Config `yaml:"lifelong,omitempty" json:"lifelong,omitempty"`
	// Sweep is non-nil when the file has a sweep block; Expand uses it. It is
	// never part of the resolved config.
	Sweep *Sweep `yaml:"-" json:"-"`
	// Profile is the profile applied by Options.Profile, and ProfileSet
	// the settings it wrote (key -> YAML value), for the manifest. The
	// profiles block itself is never part of the resolved config.
	Profile    string            `yaml:"-" json:"-"`
	ProfileSet map[string]string `yaml:"-" json:"-"`
}

// Dataset says where the samples come from.
type Dataset struct {
	// Name is the dataset: "movielens", "omnibehavior", "locomo" or
	// "longmemeval" (default: the task).
	Name string `yaml:"name" json:"name"`
	// Path is the local copy in the official format; "" uses the embedded
	// synthetic generator. Relative paths are relative to the working
	// directory, like the dataset cache. For locomo and longmemeval it is
	// the data file or the folder `bench data fetch` leaves.
	Path string `yaml:"path" json:"path"`
	// Language of the data and, by default, of the prompts: "zh" or "en".
	Language string `yaml:"language" json:"language"`
	// MaxUsers keeps the first N users (0 = all).
	MaxUsers int `yaml:"max_users" json:"max_users"`
	// TestPerUser is the number of test questions per user (default 30).
	TestPerUser int `yaml:"test_per_user" json:"test_per_user"`
	// Questions selects the question kinds asked: "binary" (the 18 Yes/No
	// fields of Table 1; OmniBehavior's default) or "all" (also the
	// continuous and text fields, recorded but outside Table 1). MovieLens
	// asks its single rating question either way.
	Questions string    `yaml:"questions" json:"questions"`
	Synthetic Synthetic `yaml:"synthetic" json:"synthetic"`
	// MaxRecordMB bounds one OmniBehavior record (an array element or a
	// string of a data file) in MiB; a file holding a larger one is a data
	// warning and skipped (0: omnibehavior.DefaultMaxRecordBytes, 64 MiB).
	// It guards memory and never changes what a run computes, so it is
	// not part of the config hash.
	MaxRecordMB int `yaml:"max_record_mb,omitempty" json:"max_record_mb,omitempty"`
}

// Synthetic sizes the embedded generator used when Dataset.Path is empty.
type Synthetic struct {
	// Users and Movies: 0 means the generator's own default.
	Users  int `yaml:"users" json:"users"`
	Movies int `yaml:"movies" json:"movies"`
	// Seed of the generator (default: the config seed).
	Seed uint64 `yaml:"seed" json:"seed"`
}

// Backbone selects and tunes the language model.
type Backbone struct {
	// Kind is "auto", "sim" or "openai"; Load resolves "auto".
	Kind string `yaml:"kind" json:"kind"`
	// Model is the model name sent to the endpoint (OPENAI_MODEL wins).
	Model string `yaml:"model" json:"model"`
	// BuildModel, when set, serves memory construction (PraMem practice,
	// summaries, Mem0 extraction) while Model answers the evaluation
	// questions: the PraMem paper builds memory with GPT-OSS-120B and
	// evaluates it with two backbones. BuildBaseURLs default to BaseURLs.
	BuildModel    string   `yaml:"build_model" json:"build_model,omitempty"`
	BuildBaseURLs []string `yaml:"build_base_urls" json:"build_base_urls,omitempty"`
	// Construction models per step on the lifelong path (task lifemem).
	// AssignModel serves LifeMem's cluster assignment and summaries;
	// SkillModel its splits and skill distillation and the baselines'
	// extraction (ExpeL insights, AutoSkill skills). The LifeMem paper uses
	// GPT-5-mini at low reasoning effort and GPT-4.1. Each defaults to
	// BuildModel, then Model; endpoints are BuildBaseURLs, else BaseURLs.
	// The reasoning efforts are sent as reasoning_effort with that step's
	// calls only.
	AssignModel           string `yaml:"assign_model,omitempty" json:"assign_model,omitempty"`
	AssignReasoningEffort string `yaml:"assign_reasoning_effort,omitempty" json:"assign_reasoning_effort,omitempty"`
	SkillModel            string `yaml:"skill_model,omitempty" json:"skill_model,omitempty"`
	SkillReasoningEffort  string `yaml:"skill_reasoning_effort,omitempty" json:"skill_reasoning_effort,omitempty"`
	// UserModel plays simulated users (τ-bench's customer) on the lifelong
	// path; default: the acting model. τ-bench's own runs use GPT-4o.
	UserModel string `yaml:"user_model,omitempty" json:"user_model,omitempty"`
	// BaseURLs of OpenAI-compatible endpoints; users are pinned to one each.
	BaseURLs []string `yaml:"base_urls" json:"base_urls"`
	// Concurrency is the starting number of requests in flight per endpoint;
	// the adaptive limiter moves it up to MaxConcurrency.
	Concurrency    int `yaml:"concurrency" json:"concurrency"`
	MaxConcurrency int `yaml:"max_concurrency" json:"max_concurrency"`
	// MaxRetries bounds transport-level retries of one call.
	MaxRetries int `yaml:"max_retries" json:"max_retries"`
	// Timeout of one attempt.
	Timeout Duration `yaml:"timeout" json:"timeout"`
	// MaxResponseBytes caps one response body; a longer answer is
	// discarded and counts as invalid (default 1 MiB).
	MaxResponseBytes int64 `yaml:"max_response_bytes,omitempty" json:"max_response_bytes,omitempty"`
	// RetryBudget bounds the total time one sample (or one user's memory
	// construction, one agent episode, one batch of lifelong memory
	// construction) may wait in retry backoffs, 429 Retry-After included
	// (default 10m).
	RetryBudget Duration `yaml:"retry_budget,omitempty" json:"retry_budget,omitempty"`
	// PrefixCacheTokens is the size in tokens of the servers' prefix cache
	// (0: 1M tokens): bench plan replays the send order through a model of
	// it to say how many prompt tokens it could reuse, and the prefix hold
	// models what it holds. It changes no answer.
	PrefixCacheTokens int `yaml:"prefix_cache_tokens,omitempty" json:"prefix_cache_tokens,omitempty"`
	// PrefixHold (default true) holds a live call back while a call
	// already sent shares a longer prompt prefix with it than the server's
	// prefix cache is thought to hold, until that call is answered, so a
	// shared prefix is computed once rather than by each of the calls sent
	// side by side. Cached answers and calls parked for provider batches
	// are never held. It changes the send order, never an answer.
	PrefixHold *bool `yaml:"prefix_hold,omitempty" json:"prefix_hold,omitempty"`
	// Cache is the response cache file: "" for the default location, "off"
	// to disable caching.
	Cache  string     `yaml:"cache" json:"cache"`
	Params llm.Params `yaml:"params" json:"params"`
	// Prices turn token counts into cost; nil means cost is not reported.
	Prices *Prices `yaml:"prices" json:"prices,omitempty"`
	Sim    Sim     `yaml:"sim" json:"sim"`
	// Batch sends the calls of the purposes it names through the
	// provider's batch API (OpenAI's Files and Batches, Together's; an
	// in-process stand-in on sim; files for vLLM's run-batch with provider
	// offline) at the batch price, instead of live; the rest stay live
	// (nil: every call is live). Answers equal a live run's.
	Batch *Batch `yaml:"batch,omitempty" json:"batch,omitempty"`
}

// HoldsPrefixes is whether live calls go through the prefix hold
// (backbone.prefix_hold, default true).
func (b Backbone) HoldsPrefixes() bool { return b.PrefixHold == nil || *b.PrefixHold }

// Batch configures provider batches.
type Batch struct {
	// Purposes are the call purposes sent in batches (e.g. predict,
	// memqa.judge.locomo): calls that are independent of one another's
	// answers. Each must be a purpose a call of the run carries: the
	// task's own or one of its methods' kinds' (an error lists them), or
	// <method>.<name> for a method whose process is served a model gateway.
	Purposes []string `yaml:"purposes" json:"purposes"`
	// Provider is "" (the backbone's: the first base URL's Batch API, the
	// stand-in on sim) or "offline" (waves are written for bench batch
	// export, and the run stops until bench batch import read the answers).
	Provider string `yaml:"provider,omitempty" json:"provider,omitempty"`
	// WaveSize is the most requests in one batch (default 50000). A wave
	// goes out when it is full, before its file passes 190 MB (OpenAI's
	// limit is 200 MB; no limit offline), or when no call has parked for
	// Linger: a
	// sample whose call parks gives its worker back, so a wave gathers
	// every call that is ready across the run, while at most
	// eval.concurrency samples do live work.
	WaveSize int      `yaml:"wave_size,omitempty" json:"wave_size,omitempty"`
	Linger   Duration `yaml:"linger,omitempty" json:"linger,omitempty"`
	// Poll is the time between two looks at a running batch (default 30s;
	// on sim 10ms).
	Poll Duration `yaml:"poll,omitempty" json:"poll,omitempty"`
	// Window is the completion window asked for (default 24h).
	Window string `yaml:"window,omitempty" json:"window,omitempty"`
	// Retry is where a request that came back without an answer (failed,
	// expired, missing) goes: "wave" (the next wave, up to Resubmits times,
	// then live; default) or "live".
	Retry     string `yaml:"retry,omitempty" json:"retry,omitempty"`
	Resubmits int    `yaml:"resubmits,omitempty" json:"resubmits,omitempty"`
	// SimDelay is how long the stand-in's batches take on sim (default 10ms).
	SimDelay Duration `yaml:"sim_delay,omitempty" json:"sim_delay,omitempty"`
}

// Prices are in currency units per million tokens.
type Prices struct {
	// PromptPer1M, CompletionPer1M and CachedPromptPer1M are US dollars
	// per million tokens of each kind.
	PromptPer1M       float64 `yaml:"prompt_per_1m" json:"prompt_per_1m"`
	CompletionPer1M   float64 `yaml:"completion_per_1m" json:"completion_per_1m"`
	CachedPromptPer1M float64 `yaml:"cached_prompt_per_1m" json:"cached_prompt_per_1m"`
	// BatchPromptPer1M and BatchCompletionPer1M price the calls answered
	// by a provider batch (backbone.batch); unset, BatchDiscount takes that
	// share off the live prices (0.5: half price); neither: batches are
	// priced as live calls.
	BatchPromptPer1M     float64 `yaml:"batch_prompt_per_1m,omitempty" json:"batch_prompt_per_1m,omitempty"`
	BatchCompletionPer1M float64 `yaml:"batch_completion_per_1m,omitempty" json:"batch_completion_per_1m,omitempty"`
	BatchDiscount        float64 `yaml:"batch_discount,omitempty" json:"batch_discount,omitempty"`
}

// Sim tunes the deterministic heuristic reader.
type Sim struct {
	// Threshold on P(yes) above which a binary question is answered Yes.
	Threshold float64 `yaml:"threshold" json:"threshold"`
	// Latency added to every call, to exercise concurrency without a server.
	Latency Duration `yaml:"latency" json:"latency"`
	// PersistentInvalidRate is the share of samples whose every draw is
	// malformed (nil: the sim's default).
	PersistentInvalidRate *float64 `yaml:"persistent_invalid_rate" json:"persistent_invalid_rate,omitempty"`
}

// Embedder selects the text embedding used by retrieval methods.
type Embedder struct {
	// Kind is "hash" (local, deterministic), "openai" (an /embeddings
	// endpoint serving Model) or "auto": openai when the backbone is real and
	// base_url or $MEMHARNESS_EMBEDDINGS_URL names an endpoint, else hash
	// (with a warning on a real backbone).
	Kind string `yaml:"kind" json:"kind"`
	// Model is the embedding model name (openai).
	Model string `yaml:"model" json:"model"`
	// BuildModel, when set, serves memory construction (PraMem practice,
	// summaries, Mem0 extraction) while Model answers the evaluation
	// questions: the PraMem paper builds memory with GPT-OSS-120B and
	// evaluates it with two backbones. BuildBaseURLs default to BaseURLs.
	BuildModel    string   `yaml:"build_model" json:"build_model,omitempty"`
	BuildBaseURLs []string `yaml:"build_base_urls" json:"build_base_urls,omitempty"`
	// BaseURL of the embedding endpoint (default: the first backbone URL, or
	// OPENAI_BASE_URL).
	BaseURL string `yaml:"base_url" json:"base_url"`
	// Dim of hash embeddings (default 256); 0 for openai means the model's.
	Dim int `yaml:"dim" json:"dim"`
}

// Prompt chooses the prompt language and optional template overrides.
type Prompt struct {
	// Language of the prompts (default: the dataset's).
	Language string `yaml:"language" json:"language"`
	// Templates maps a template name to an override file. Paths are relative
	// to the config file; Load makes them absolute.
	Templates map[string]string `yaml:"templates" json:"templates,omitempty"`
	// ReleaseDir is the release pack read when prompts is "release": a
	// folder fetched by 'bench data fetch pramem-release' or a git checkout
	// of the release at the pinned commit ("" = the fetched copy in the
	// data cache). Every file is checked against its pinned SHA-256.
	ReleaseDir string `yaml:"release_dir,omitempty" json:"release_dir,omitempty"`
	// Tokenizer is a Hugging Face tokenizer.json (byte-level BPE, e.g.
	// Qwen3-8B's, which the release uses when present) that counts the
	// history windows' tokens; "" keeps the release's character estimate.
	// Relative paths are relative to the working directory.
	Tokenizer string `yaml:"tokenizer,omitempty" json:"tokenizer,omitempty"`
	// ReleaseDirs are, for task lifemem, the folders of the agent prompt
	// sources by fetch name (lifemem-release, tau-bench, expel, agentbench,
	// lifelongagentbench, synapse): a fetched copy or a checkout at the
	// pinned commit ("" = CACHE/<name>). Every file is checked either way.
	ReleaseDirs map[string]string `yaml:"release_dirs,omitempty" json:"release_dirs,omitempty"`
	// TauBenchAgent picks τ-bench's ChatReActAgent instruction under
	// prompts: release: "react" (REACT_INSTRUCTION, τ-bench's default) or
	// "act" (ACT_INSTRUCTION; LifeMem's released τ-bench trajectories are
	// act-only).
	TauBenchAgent string `yaml:"taubench_agent,omitempty" json:"taubench_agent,omitempty"`
}

// Eval controls how samples are run.
type Eval struct {
	// MaxAttempts draws per sample while the output is invalid (default 5).
	MaxAttempts int `yaml:"max_attempts" json:"max_attempts"`
	// Concurrency is the number of samples in flight (default 8).
	Concurrency int `yaml:"concurrency" json:"concurrency"`
	// MaxInvalidRate fails a run when, for any call purpose or any method's
	// predictions, more than this share of the answers stayed invalid after
	// every redraw (default 0.2; 1 never fails). The run still finishes and
	// writes its reports.
	MaxInvalidRate float64 `yaml:"max_invalid_rate" json:"max_invalid_rate"`
	// MaxCost stops the run, before the model call that could pass it, at this many US dollars spent on live calls (priced by backbone.prices, which it needs); answers from the response cache cost nothing. Each call is bounded beforehand by its prompt counted locally plus its completion cap (max_tokens; 4096 or the longest completion seen when it has none: such calls go one at a time until one has come back, and again after one returned more than guessed, so long completions in parallel cannot pass the ceiling together). Re-run with a higher value to resume (default 0: no ceiling).
	MaxCost float64 `yaml:"max_cost,omitempty" json:"max_cost,omitempty"`
	// MaxTokens stops the run likewise at this many tokens of live calls: prompt tokens (cached prompt tokens included) plus completion tokens (reasoning included), as the endpoint reports them; answers from the response cache count nothing (default 0: no ceiling).
	MaxTokens int `yaml:"max_tokens,omitempty" json:"max_tokens,omitempty"`
	// Repeats asks every sample (a prediction question, an agent task, a judge call) this many times, each draw with its own recorded seed derived from the sample's ID, the seed and the draw's index; memories are built once. The report gives the reduced score, the spread across draws and intervals that include it; bench plan multiplies the answering calls (default 1: one draw, as before).
	Repeats int `yaml:"repeats,omitempty" json:"repeats,omitempty"`
	// Reducer makes a sample's score from its draws: mean (the share of right draws), majority (the most frequent answer; a tie goes to the one drawn first) or pass@k (the unbiased chance that one of k draws is right, k from 1 to repeats). Default mean.
	Reducer string `yaml:"reducer,omitempty" json:"reducer,omitempty"`
}

// Draws is how many times each sample is asked: eval.repeats, at least 1.
func (e Eval) Draws() int { return max(1, e.Repeats) }

// RepeatSeed is the seed a later draw derives its own from when its
// request sets none (llm.WithRepeat): the backbone's default seed, else the
// run seed.
func (c *Config) RepeatSeed() int64 {
	if s := c.Backbone.Params.Seed; s != nil {
		return int64(*s)
	}
	return c.Seed
}

// Report controls the statistics of the reports.
type Report struct {
	// Bootstrap resamples for confidence intervals (default 1000; 0 takes
	// the default).
	Bootstrap int `yaml:"bootstrap" json:"bootstrap"`
	// Level of the confidence intervals (default 0.95).
	Level float64 `yaml:"level" json:"level"`
	// Baseline is the method others are compared with (default: the first).
	Baseline string `yaml:"baseline" json:"baseline"`
	// Export lists the formats written into the run's export/ folder at the end of every run, as 'bench export' writes them: inspect (Inspect logs), eee (Every Eval Ever records), lmeval (lm-evaluation-harness results and samples). Default: none.
	Export []string `yaml:"export,omitempty" json:"export,omitempty"`
	// CategoryNames is the table of names a LoCoMo report prints for the data's numeric question categories, a choice the field disputes: locomo-code (the default; the official code's rules: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial) or mem0 (the names the Mem0 paper's columns carry: 1 single-hop, 2 temporal, 3 multi-hop, 4 open-domain, 5 adversarial). Scoring follows the official code's per-number rules either way, and every LoCoMo table names the table it prints. Read by task locomo only.
	CategoryNames string `yaml:"category_names,omitempty" json:"category_names,omitempty"`
	// CountAdversarial puts LoCoMo's adversarial category (5) into the overall scores (default false: left out of them, as mem0's evaluation does; its own row is printed either way). Every LoCoMo table's title says which. Read by task locomo only.
	CountAdversarial bool `yaml:"count_adversarial,omitempty" json:"count_adversarial,omitempty"`
}
