// Package sqlwire is the protocol between dbbench and its SQL engine
// process (cmd/bench-sql): one JSON request per line on the engine's stdin,
// one JSON response per line on its stdout. The engine runs untrusted SQL
// in a process of its own so that a statement can be stopped whatever the
// engine is doing (go-mysql-server cannot be interrupted while planning)
// and its memory bounded, and so that the bench binary does not link the
// engine (whose init costs about half a second on every command).
package sqlwire

// Operations.
const (
	OpStart = "start" // create database DB and make it current
	OpExec  = "exec"  // run Stmt
)

// Request is one line to the engine.
type Request struct {
	Op      string `json:"op"`
	DB      string `json:"db,omitempty"`
	Stmt    string `json:"stmt,omitempty"`
	MaxRows int    `json:"max_rows,omitempty"`
	// TimeoutNS bounds the statement inside the engine (best effort: the
	// caller kills the process when it overruns).
	TimeoutNS int64 `json:"timeout_ns,omitempty"`
	// MemoryLimit is the engine's soft heap target in bytes (the caller
	// enforces the hard ceiling).
	MemoryLimit int64 `json:"memory_limit,omitempty"`
}

// Cell kinds: the Python type mysql-connector would return.
const (
	KindNull     = "null"
	KindBool     = "bool"
	KindInt      = "int"   // int64
	KindUint     = "uint"  // uint64
	KindBigInt   = "big"   // digits beyond 64 bits
	KindFloat    = "float" // strconv 'g' -1: exact round trip
	KindDecimal  = "dec"   // decimal digits as Python's Decimal prints them
	KindString   = "str"
	KindBytes    = "bytes" // base64 in V
	KindDate     = "date"  // YYYY-MM-DD
	KindDateTime = "time"  // RFC 3339 with nanoseconds
)

// Cell is one value of a result row.
type Cell struct {
	K string `json:"k"`
	V string `json:"v,omitempty"`
}

// Error is an engine error in MySQL's numbering.
type Error struct {
	Num   uint16 `json:"num"`
	State string `json:"state,omitempty"`
	Msg   string `json:"msg"`
}

// Response is one line from the engine.
type Response struct {
	HasRows   bool     `json:"has_rows,omitempty"`
	Rows      [][]Cell `json:"rows,omitempty"`
	Truncated bool     `json:"truncated,omitempty"`
	Err       *Error   `json:"err,omitempty"`
	// Timeout is set when the engine itself stopped the statement.
	Timeout bool `json:"timeout,omitempty"`
}
