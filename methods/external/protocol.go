package external

import (
	"encoding/json"
	"fmt"
)

// ProtocolVersion is the protocol version the harness speaks; a method
// reporting another major version at init is refused. 1.1 added the
// lifelong agents' messages (begin_task, act, end_task, learn, end_stage,
// and save/load of the whole method) and the conversational family
// (family "conversation", free-text questions).
const ProtocolVersion = "1.1"

// The protocol's methods (the "method" member of a request).
const (
	MethodInit     = "init"
	MethodHistory  = "history"
	MethodPrepare  = "prepare"
	MethodPredict  = "predict"
	MethodSave     = "save"
	MethodLoad     = "load"
	MethodShutdown = "shutdown"

	// The lifelong agents' messages.
	MethodBeginTask = "begin_task"
	MethodAct       = "act"
	MethodEndTask   = "end_task"
	MethodLearn     = "learn"
	MethodEndStage  = "end_stage"
)

// request is one JSON-RPC 2.0 request line.
type request struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int64  `json:"id"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

// response is one JSON-RPC 2.0 response line.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      *int64          `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *rpcError       `json:"error"`
}

// rpcError is the error member of a response: the method's own failure.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) Error() string {
	return fmt.Sprintf("the method answered error %d: %s", e.Code, e.Message)
}

// InitParams open a session.
type InitParams struct {
	ProtocolVersion string `json:"protocol_version"`
	// Method is the method's name in the config.
	Method string `json:"method"`
	// Family is the task family ("behavior").
	Family string  `json:"family"`
	Run    RunInfo `json:"run"`
	// Options are the method block's options: passed through as written.
	Options map[string]any `json:"options"`
}

// RunInfo is what a method is told of the run.
type RunInfo struct {
	Name     string `json:"name"`
	Task     string `json:"task"`
	Seed     int64  `json:"seed"`
	Language string `json:"language"`
}

// InitResult is the method's reply to init.
type InitResult struct {
	ProtocolVersion string `json:"protocol_version"`
	Name            string `json:"name"`
	Version         string `json:"version"`
}

// Record is one history record: its rendered form as a prompt shows it,
// its token cost under the run's counter, and its raw fields.
type Record struct {
	Index    int                `json:"index"`
	Text     string             `json:"text"`
	Tokens   int                `json:"tokens"`
	Time     string             `json:"time"`
	Scene    string             `json:"scene"`
	Context  string             `json:"context"`
	Result   string             `json:"result"`
	Attrs    map[string]string  `json:"attrs,omitempty"`
	Outcomes map[string]float64 `json:"outcomes,omitempty"`
}

// Target is the record whose outcome is asked: what the user faced, not
// what they did.
type Target struct {
	Index   int               `json:"index"`
	Time    string            `json:"time"`
	Scene   string            `json:"scene"`
	Context string            `json:"context"`
	Attrs   map[string]string `json:"attrs,omitempty"`
}

// HistoryParams carry one chunk of a user's past records.
type HistoryParams struct {
	User    string   `json:"user"`
	Profile string   `json:"profile"`
	Total   int      `json:"total"`
	Records []Record `json:"records"`
	// Last is true on the user's last chunk.
	Last bool `json:"last"`
	// GatewayScope is the model gateway's scope of this request (sent
	// when the run serves one): a child that calls the model while
	// answering sends it in the X-Memharness-Scope header.
	GatewayScope string `json:"gateway_scope,omitempty"`
}

// UserParams name a user (prepare, save).
type UserParams struct {
	User string `json:"user"`
	// GatewayScope is the model gateway's scope of this request (sent
	// when the run serves one): a child that calls the model while
	// answering sends it in the X-Memharness-Scope header.
	GatewayScope string `json:"gateway_scope,omitempty"`
}

// PrepareResult is the user's memory as the method describes it.
type PrepareResult struct {
	// Memory is the memory's text for `bench memory` and the viewer.
	Memory string `json:"memory"`
	// Meta are counters shown per user (numbers).
	Meta map[string]float64 `json:"meta,omitempty"`
}

// Question is what is asked of one test instance.
type Question struct {
	Field string `json:"field"`
	Kind  string `json:"kind"`
	Text  string `json:"text"`
	// Allowed are the answers a reply may give ("1".."5"; "1"/"0").
	Allowed []string `json:"allowed"`
}

// PredictParams ask for one test instance.
type PredictParams struct {
	User     string `json:"user"`
	Instance string `json:"instance"`
	// HistoryLength is how many records precede the target; the first
	// Prepared were sent with history, the rest are in Recent.
	HistoryLength int      `json:"history_length"`
	Prepared      int      `json:"prepared"`
	Recent        []Record `json:"recent"`
	// Scene and Target are the record whose outcome is asked (its outcomes
	// left out).
	Scene    string   `json:"scene"`
	Target   Target   `json:"target"`
	Question Question `json:"question"`
	// Attempt counts the method's own answers to this instance (0 first;
	// more when an answer it gave could not be read).
	Attempt int `json:"attempt"`
	// GatewayScope is the model gateway's scope of this request (sent
	// when the run serves one): a child that calls the model while
	// answering sends it in the X-Memharness-Scope header.
	GatewayScope string `json:"gateway_scope,omitempty"`
}

// PredictResult is one of three forms: the window and memory for the
// harness's answer prompt (HistoryFrom set), a prompt of the method's own
// (Prompt), or the answer text (Answer).
type PredictResult struct {
	HistoryFrom *int    `json:"history_from,omitempty"`
	Memory      string  `json:"memory,omitempty"`
	Prompt      *string `json:"prompt,omitempty"`
	Answer      *string `json:"answer,omitempty"`
}

// SaveResult is a user's state as the method keeps it: any JSON value.
type SaveResult struct {
	State json.RawMessage `json:"state"`
}

// LoadParams hand a user's saved state back.
type LoadParams struct {
	User  string          `json:"user"`
	State json.RawMessage `json:"state"`
	// GatewayScope is the model gateway's scope of this request (sent
	// when the run serves one): a child that calls the model while
	// answering sends it in the X-Memharness-Scope header.
	GatewayScope string `json:"gateway_scope,omitempty"`
}

// The lifelong agents' messages (family "lifelong").

// Trajectory is one recorded episode as the protocol sends it (training
// trajectories, few-shot examples, declared exemplars): the environment,
// the task's ID and text, the messages (user: observation, assistant:
// action) and whether it solved its task.
type Trajectory struct {
	ID         string    `json:"id"`
	Env        string    `json:"env"`
	Task       string    `json:"task"`
	Messages   []Message `json:"messages"`
	Success    bool      `json:"success"`
	Difficulty int       `json:"difficulty,omitempty"`
}

// Message is one message of a trajectory.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Turn is one line of the episode being played: an observation of the
// environment ("env") or an action of the agent ("agent").
type Turn struct {
	Role    string  `json:"role"`
	Text    string  `json:"text"`
	Reward  float64 `json:"reward,omitempty"`
	Invalid bool    `json:"invalid,omitempty"`
	// Action is what the environment was handed when it differs from
	// Text (an act reply with a text of its own).
	Action string `json:"action,omitempty"`
}

// TaskInfo names a task: its environment, its ID and its instruction
// (empty where the environment keeps it from the agent: a simulated
// user's private goal).
type TaskInfo struct {
	Env         string `json:"env"`
	ID          string `json:"id"`
	Instruction string `json:"instruction"`
}

// BeginTaskParams open a test episode.
type BeginTaskParams struct {
	Task TaskInfo `json:"task"`
	// Instructions are the environment's instructions as the harness's
	// own prompt opens with them (the action syntax, the tools).
	Instructions string `json:"instructions"`
	// Observation is the episode's first observation.
	Observation string `json:"observation"`
	// MaxSteps is the episode's step limit.
	MaxSteps int `json:"max_steps"`
	// FewShots are the solved examples of this environment the run's own
	// prompt shows every method (none under prompts: release): the
	// method's few-shot budget, to show or leave out.
	FewShots []Trajectory `json:"few_shots"`
	// Sampling are the run's request settings for acting in this
	// environment, under the OpenAI field names: send them with the
	// model calls that choose an action.
	Sampling map[string]any `json:"sampling"`
	// HidesInstruction says the environment keeps the instruction from
	// the agent (Task.Instruction is empty; the user's words arrive as
	// observations).
	HidesInstruction bool   `json:"hides_instruction"`
	GatewayScope     string `json:"gateway_scope,omitempty"`
}

// Experience is what a method shows its model for a task: the exemplar
// trajectories and the rules (skills, insights) of its prompt.
type Experience struct {
	Exemplars []Trajectory `json:"exemplars,omitempty"`
	Rules     []string     `json:"rules,omitempty"`
}

// BeginTaskResult may declare the experience the method shows for the
// task; on the embedded sim backbone the method's acting calls are read
// with it, as the built-in agents' prompts are.
type BeginTaskResult struct {
	Experience *Experience `json:"experience,omitempty"`
}

// ActParams ask for the next action.
type ActParams struct {
	Env  string `json:"env"`
	Task string `json:"task"`
	// Step is the number of actions taken so far.
	Step int `json:"step"`
	// Observation is the latest observation; Turns the whole episode so
	// far, oldest first, Observation last.
	Observation  string `json:"observation"`
	Turns        []Turn `json:"turns"`
	GatewayScope string `json:"gateway_scope,omitempty"`
}

// ActResult is the next action: Action is handed to the environment,
// Text (when set) is what the episode's transcript keeps of the turn
// (thoughts with the action); Stop ends the episode without an action.
type ActResult struct {
	Action *string `json:"action,omitempty"`
	Text   string  `json:"text,omitempty"`
	Stop   bool    `json:"stop,omitempty"`
}

// Outcome is how an episode ended.
type Outcome struct {
	// Score is the environment's metric in [0, 1].
	Score   float64 `json:"score"`
	Steps   int     `json:"steps"`
	Invalid int     `json:"invalid_actions"`
	// End says why it stopped: done, max_steps, agent_stop or an error.
	End string `json:"end"`
}

// EndTaskParams close a test episode.
type EndTaskParams struct {
	Env          string  `json:"env"`
	Task         string  `json:"task"`
	Outcome      Outcome `json:"outcome"`
	Trajectory   []Turn  `json:"trajectory"`
	GatewayScope string  `json:"gateway_scope,omitempty"`
}

// LearnParams carry one batch of a stage's training trajectories.
type LearnParams struct {
	// Batch counts the learn requests of this session (0 first).
	Batch        int          `json:"batch"`
	Trajectories []Trajectory `json:"trajectories"`
	GatewayScope string       `json:"gateway_scope,omitempty"`
}

// ScopeParams are the params of a request that carries nothing else
// (end_stage, and save of a lifelong method).
type ScopeParams struct {
	GatewayScope string `json:"gateway_scope,omitempty"`
}

// StateParams hand a lifelong method's saved state back (load).
type StateParams struct {
	State        json.RawMessage `json:"state"`
	GatewayScope string          `json:"gateway_scope,omitempty"`
}
