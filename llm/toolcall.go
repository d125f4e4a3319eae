package llm

import "context"

// ToolCall is one call a method made to a tool of a process or service it
// uses as its memory (an MCP server's write or search tool), journalled
// beside the model calls of the sample or memory it served. It is no model
// call: a Meter books none of it, so usage.json is what the model calls
// alone make it. Arguments and result are kept as sizes and SHA-256 sums,
// enough to compare two runs' calls without copying a user's history (or
// whatever else a server returns) into the journal a second time.
type ToolCall struct {
	// Method and User say whose call it was; Unit is the sample or
	// construction step it served (as a model call's sample ID).
	Method string `json:"method"`
	User   string `json:"user,omitempty"`
	Unit   string `json:"unit,omitempty"`
	// Server is the server's name and version from its handshake; Name
	// the tool.
	Server string `json:"server,omitempty"`
	Name   string `json:"name"`
	// ArgumentsBytes and ArgumentsSHA256 describe the arguments' JSON as
	// sent; ResultBytes and ResultSHA256 the result's JSON as received
	// (none for a call that failed).
	ArgumentsBytes  int    `json:"arguments_bytes"`
	ArgumentsSHA256 string `json:"arguments_sha256"`
	ResultBytes     int    `json:"result_bytes,omitempty"`
	ResultSHA256    string `json:"result_sha256,omitempty"`
	// LatencyNS is the time the call took.
	LatencyNS int64 `json:"latency_ns"`
	// Error is why the call failed (the connection, a timeout, or the
	// tool's own error report), shortened; never the server's stderr.
	Error string `json:"error,omitempty"`
}

// LogTool adds a tool call to the context's CallLog, if any, so it is
// journalled with the work it served.
func LogTool(ctx context.Context, t ToolCall) {
	logCall(ctx, CallRecord{Tool: &t})
}
