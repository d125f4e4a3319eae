package external

import (
	"encoding/json"
	"fmt"
)

// ProtocolVersion is the protocol version the harness speaks; a method
// reporting another major version at init is refused.
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
