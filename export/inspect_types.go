package export

// Inspect's EvalLog objects (log format version 2), in Inspect's field
// order. Inspect's published schema lists every field as present, so
// fields without a value are written as null rather than left out.

type inspectLog struct {
	Version     int                 `json:"version"`
	Status      string              `json:"status"`
	Eval        inspectSpec         `json:"eval"`
	Plan        inspectPlan         `json:"plan"`
	Results     *inspectResults     `json:"results"`
	Stats       inspectStats        `json:"stats"`
	Error       any                 `json:"error"`
	Invalidated bool                `json:"invalidated"`
	Tags        []string            `json:"tags"`
	Metadata    map[string]any      `json:"metadata"`
	Samples     []inspectSample     `json:"samples,omitempty"`
	Reductions  []inspectReductions `json:"reductions,omitempty"`
}

// inspectStart is the .eval zip's _journal/start.json.
type inspectStart struct {
	Version int         `json:"version"`
	Eval    inspectSpec `json:"eval"`
	Plan    inspectPlan `json:"plan"`
}

type inspectSpec struct {
	EvalSetID        *string           `json:"eval_set_id"`
	EvalID           string            `json:"eval_id"`
	RunID            string            `json:"run_id"`
	Created          string            `json:"created"`
	Task             string            `json:"task"`
	TaskID           string            `json:"task_id"`
	TaskVersion      int               `json:"task_version"`
	TaskFile         *string           `json:"task_file"`
	TaskDisplayName  *string           `json:"task_display_name"`
	TaskRegistryName *string           `json:"task_registry_name"`
	TaskAttribs      map[string]any    `json:"task_attribs"`
	TaskArgs         map[string]any    `json:"task_args"`
	TaskArgsPassed   map[string]any    `json:"task_args_passed"`
	Solver           *string           `json:"solver"`
	SolverArgs       map[string]any    `json:"solver_args"`
	SolverArgsPassed map[string]any    `json:"solver_args_passed"`
	Tags             []string          `json:"tags"`
	Dataset          inspectDataset    `json:"dataset"`
	Sandbox          any               `json:"sandbox"`
	Model            string            `json:"model"`
	ModelGenerateCfg inspectGenerate   `json:"model_generate_config"`
	ModelBaseURL     *string           `json:"model_base_url"`
	ModelArgs        map[string]any    `json:"model_args"`
	ModelRoles       any               `json:"model_roles"`
	Config           inspectConfig     `json:"config"`
	Revision         *inspectRev       `json:"revision"`
	Packages         map[string]string `json:"packages"`
	Metadata         map[string]any    `json:"metadata"`
	Scorers          any               `json:"scorers"`
	Metrics          any               `json:"metrics"`
}

type inspectDataset struct {
	Name      *string `json:"name"`
	Location  *string `json:"location"`
	Samples   int     `json:"samples"`
	SampleIDs any     `json:"sample_ids"`
	Shuffled  bool    `json:"shuffled"`
}

type inspectRev struct {
	Type   string `json:"type"`
	Origin string `json:"origin"`
	Commit string `json:"commit"`
	Dirty  *bool  `json:"dirty"`
}

// inspectGenerate is Inspect's GenerateConfig: the sampling settings the
// run's config gave; every other one null (the server's default).
type inspectGenerate struct {
	MaxRetries        any      `json:"max_retries"`
	Timeout           any      `json:"timeout"`
	AttemptTimeout    any      `json:"attempt_timeout"`
	MaxConnections    any      `json:"max_connections"`
	SystemMessage     any      `json:"system_message"`
	MaxTokens         *int     `json:"max_tokens"`
	TopP              *float64 `json:"top_p"`
	Temperature       *float64 `json:"temperature"`
	StopSeqs          []string `json:"stop_seqs"`
	BestOf            any      `json:"best_of"`
	FrequencyPenalty  any      `json:"frequency_penalty"`
	PresencePenalty   any      `json:"presence_penalty"`
	LogitBias         any      `json:"logit_bias"`
	Seed              *int     `json:"seed"`
	TopK              any      `json:"top_k"`
	NumChoices        any      `json:"num_choices"`
	Logprobs          any      `json:"logprobs"`
	TopLogprobs       any      `json:"top_logprobs"`
	ParallelToolCalls any      `json:"parallel_tool_calls"`
	InternalTools     any      `json:"internal_tools"`
	MaxToolOutput     any      `json:"max_tool_output"`
	CachePrompt       any      `json:"cache_prompt"`
	Verbosity         any      `json:"verbosity"`
	Effort            any      `json:"effort"`
	ReasoningEffort   *string  `json:"reasoning_effort"`
	ReasoningTokens   any      `json:"reasoning_tokens"`
	ReasoningSummary  any      `json:"reasoning_summary"`
	ReasoningHistory  any      `json:"reasoning_history"`
	ResponseSchema    any      `json:"response_schema"`
	ExtraHeaders      any      `json:"extra_headers"`
	ExtraBody         any      `json:"extra_body"`
	Modalities        any      `json:"modalities"`
	Cache             any      `json:"cache"`
	Batch             any      `json:"batch"`
}

// inspectConfig is Inspect's EvalConfig: how the eval ran. The harness's
// knobs have no Inspect counterpart except epochs (one draw per sample
// in the log; redraws of invalid answers are in each score's metadata).
type inspectConfig struct {
	Limit            any  `json:"limit"`
	SampleID         any  `json:"sample_id"`
	SampleShuffle    any  `json:"sample_shuffle"`
	Epochs           int  `json:"epochs"`
	EpochsReducer    any  `json:"epochs_reducer"`
	Approval         any  `json:"approval"`
	FailOnError      any  `json:"fail_on_error"`
	ContinueOnFail   any  `json:"continue_on_fail"`
	RetryOnError     any  `json:"retry_on_error"`
	MessageLimit     any  `json:"message_limit"`
	TokenLimit       any  `json:"token_limit"`
	TimeLimit        any  `json:"time_limit"`
	WorkingLimit     any  `json:"working_limit"`
	CostLimit        any  `json:"cost_limit"`
	MaxSamples       any  `json:"max_samples"`
	MaxDatasetMemory any  `json:"max_dataset_memory"`
	MaxTasks         any  `json:"max_tasks"`
	MaxSubprocesses  any  `json:"max_subprocesses"`
	MaxSandboxes     any  `json:"max_sandboxes"`
	SandboxCleanup   any  `json:"sandbox_cleanup"`
	LogSamples       bool `json:"log_samples"`
	LogRealtime      any  `json:"log_realtime"`
	LogImages        any  `json:"log_images"`
	LogModelAPI      any  `json:"log_model_api"`
	LogBuffer        any  `json:"log_buffer"`
	LogShared        any  `json:"log_shared"`
	ScoreDisplay     any  `json:"score_display"`
}

type inspectPlan struct {
	Name   string            `json:"name"`
	Steps  []inspectPlanStep `json:"steps"`
	Finish any               `json:"finish"`
	Config inspectGenerate   `json:"config"`
}

type inspectPlanStep struct {
	Solver       string         `json:"solver"`
	Params       map[string]any `json:"params"`
	ParamsPassed map[string]any `json:"params_passed"`
}

type inspectResults struct {
	TotalSamples     int            `json:"total_samples"`
	CompletedSamples int            `json:"completed_samples"`
	EarlyStopping    any            `json:"early_stopping"`
	Scores           []inspectScore `json:"scores"`
	Metadata         map[string]any `json:"metadata"`
}

type inspectScore struct {
	Name            string                   `json:"name"`
	Scorer          string                   `json:"scorer"`
	Reducer         *string                  `json:"reducer"`
	ScoredSamples   *int                     `json:"scored_samples"`
	UnscoredSamples *int                     `json:"unscored_samples"`
	Params          map[string]any           `json:"params"`
	Metrics         map[string]inspectMetric `json:"metrics"`
	Metadata        map[string]any           `json:"metadata"`
}

type inspectMetric struct {
	Name     string         `json:"name"`
	Value    float64        `json:"value"`
	Params   map[string]any `json:"params"`
	Metadata map[string]any `json:"metadata"`
}

type inspectStats struct {
	StartedAt   string                  `json:"started_at"`
	CompletedAt string                  `json:"completed_at"`
	ModelUsage  map[string]inspectUsage `json:"model_usage"`
	RoleUsage   map[string]inspectUsage `json:"role_usage"`
}

type inspectUsage struct {
	InputTokens           int      `json:"input_tokens"`
	OutputTokens          int      `json:"output_tokens"`
	TotalTokens           int      `json:"total_tokens"`
	InputTokensCacheWrite *int     `json:"input_tokens_cache_write"`
	InputTokensCacheRead  *int     `json:"input_tokens_cache_read"`
	ReasoningTokens       *int     `json:"reasoning_tokens"`
	TotalCost             *float64 `json:"total_cost"`
}

type inspectSample struct {
	ID           string                  `json:"id"`
	Epoch        int                     `json:"epoch"`
	Input        any                     `json:"input"`
	Choices      any                     `json:"choices"`
	Target       string                  `json:"target"`
	Sandbox      any                     `json:"sandbox"`
	Files        any                     `json:"files"`
	Setup        any                     `json:"setup"`
	Messages     []any                   `json:"messages"`
	Output       inspectOutput           `json:"output"`
	Scores       map[string]inspectSc    `json:"scores"`
	Metadata     map[string]any          `json:"metadata"`
	Store        map[string]any          `json:"store"`
	Events       []any                   `json:"events"`
	Timelines    any                     `json:"timelines"`
	ModelUsage   map[string]inspectUsage `json:"model_usage"`
	RoleUsage    map[string]inspectUsage `json:"role_usage"`
	StartedAt    any                     `json:"started_at"`
	CompletedAt  any                     `json:"completed_at"`
	TotalTime    *float64                `json:"total_time"`
	WorkingTime  *float64                `json:"working_time"`
	UUID         string                  `json:"uuid"`
	Invalidation any                     `json:"invalidation"`
	Error        *inspectError           `json:"error"`
	ErrorRetries any                     `json:"error_retries"`
	Attachments  map[string]string       `json:"attachments"`
	EventsData   any                     `json:"events_data"`
	Limit        any                     `json:"limit"`
}

// inspectSummary is the .eval zip's per-sample summary (summaries.json).
type inspectSummary struct {
	ID           string                  `json:"id"`
	Epoch        int                     `json:"epoch"`
	Input        any                     `json:"input"`
	Target       string                  `json:"target"`
	Metadata     map[string]any          `json:"metadata"`
	Scores       map[string]inspectSc    `json:"scores"`
	ModelUsage   map[string]inspectUsage `json:"model_usage"`
	TotalTime    *float64                `json:"total_time"`
	WorkingTime  *float64                `json:"working_time"`
	UUID         string                  `json:"uuid"`
	Error        *string                 `json:"error"`
	Limit        any                     `json:"limit"`
	Retries      *int                    `json:"retries"`
	Completed    bool                    `json:"completed"`
	MessageCount int                     `json:"message_count"`
}

// The chat messages, one type per role: Inspect's schema requires each
// role's own fields (and only those).
type inspectSystemMsg struct {
	ID       *string `json:"id"`
	Content  string  `json:"content"`
	Source   string  `json:"source"`
	Metadata any     `json:"metadata"`
	Role     string  `json:"role"`
}

type inspectUserMsg struct {
	ID         *string `json:"id"`
	Content    string  `json:"content"`
	Source     string  `json:"source"`
	Metadata   any     `json:"metadata"`
	Role       string  `json:"role"`
	ToolCallID any     `json:"tool_call_id"`
}

type inspectAssistantMsg struct {
	ID        *string `json:"id"`
	Content   string  `json:"content"`
	Source    string  `json:"source"`
	Metadata  any     `json:"metadata"`
	Role      string  `json:"role"`
	ToolCalls any     `json:"tool_calls"`
	Model     *string `json:"model"`
}

type inspectOutput struct {
	Model      string          `json:"model"`
	Choices    []inspectChoice `json:"choices"`
	Completion string          `json:"completion"`
	Usage      *inspectUsage   `json:"usage"`
	Time       *float64        `json:"time"`
	Metadata   any             `json:"metadata"`
	Error      *string         `json:"error"`
}

type inspectChoice struct {
	Message    any    `json:"message"`
	StopReason string `json:"stop_reason"`
	Logprobs   any    `json:"logprobs"`
}

// inspectSc is a sample's Score (also a reduction's EvalSampleScore,
// with SampleID set).
type inspectSc struct {
	Value       any            `json:"value"`
	Answer      *string        `json:"answer"`
	Explanation *string        `json:"explanation"`
	Metadata    map[string]any `json:"metadata"`
	History     []any          `json:"history"`
	SampleID    *string        `json:"sample_id,omitempty"`
}

type inspectReductions struct {
	Scorer  string      `json:"scorer"`
	Reducer *string     `json:"reducer"`
	Samples []inspectSc `json:"samples"`
}

type inspectError struct {
	Message       string `json:"message"`
	Traceback     string `json:"traceback"`
	TracebackANSI string `json:"traceback_ansi"`
}
