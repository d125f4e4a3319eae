package mcpmemory

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/gateway"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeGateway has every server the method starts as a child from now on
// served a model gateway of its own (o, Method set to the method's name):
// its variables join the child's environment (never the user's key), and
// each tool call the harness makes binds the gateway to the call's scope,
// so a server that calls a model (mem0's extracts facts on every write)
// has its calls metered, cached and recorded as the harness's own. One
// gateway per server, since a server's calls are made one at a time, so
// the server never needs to name a scope. A server at url: is reached as
// it runs and is given nothing.
func (m *Method) ServeGateway(o gateway.Options) {
	o.Method = gatewayName(m.name)
	m.mu.Lock()
	m.gw = &o
	m.mu.Unlock()
}

var unsafeName = lazyre.New(`[^A-Za-z0-9._-]`)

// gatewayName is name in the gateway's charset.
func gatewayName(name string) string {
	n := unsafeName.ReplaceAllString(name, "_")
	if len(n) > 64 {
		n = n[:64]
	}
	return n
}

// scopedCall is s.call with s's gateway (if any) bound to sc meanwhile. A
// model error the gateway met fails the call even when the tool answered,
// wrapped so that a spending ceiling (llm.ErrStopRun) or a planner's stop
// reaches the runner.
//
// Each call goes into the call record (llm.LogTool), attributed to the
// method, the user and sc's unit.
func (s *server) scopedCall(ctx context.Context, sc gateway.Scope, tool string, args any) (*mcp.CallToolResult, error) {
	start := time.Now()
	if s.gw == nil {
		res, err := s.call(ctx, tool, args)
		s.record(ctx, sc, tool, args, res, err, time.Since(start))
		return res, err
	}
	b := s.gw.Bind(ctx, sc)
	res, err := s.call(ctx, tool, args)
	b.Release()
	s.record(ctx, sc, tool, args, res, err, time.Since(start))
	merr := b.Err()
	switch {
	case merr == nil:
		return res, err
	case err != nil:
		return nil, fmt.Errorf("%w; a model call it made through the gateway failed: %w", err, merr)
	default:
		return nil, fmt.Errorf("method %s: user %s: mcp server: call %s: a model call the server made through the gateway failed: %w",
			s.method, s.user, tool, merr)
	}
}

// record adds one tool call to the call record of ctx: sizes and SHA-256
// sums of the arguments and the result (the arguments carry a user's
// history, already in the record as the prompts' texts), the latency and,
// for a failed call, its cause shortened: never the server's stderr or the
// last request that a ServerError's message adds.
func (s *server) record(ctx context.Context, sc gateway.Scope, tool string, args any, res *mcp.CallToolResult, err error, took time.Duration) {
	tc := llm.ToolCall{Method: s.method, User: s.user, Unit: sc.Unit, Server: s.info, Name: tool, LatencyNS: int64(took)}
	tc.ArgumentsBytes, tc.ArgumentsSHA256 = digest(args)
	if res != nil {
		tc.ResultBytes, tc.ResultSHA256 = digest(res)
	}
	if err != nil {
		cause := err
		var se *ServerError
		if errors.As(err, &se) && se.err != nil {
			cause = se.err
		}
		msg, _, _ := strings.Cut(cause.Error(), "\n")
		tc.Error = llm.Shorten(msg, 300)
	}
	llm.LogTool(ctx, tc)
}

// digest is the size and SHA-256 of v's JSON.
func digest(v any) (int, string) {
	b, err := json.Marshal(v)
	if err != nil {
		return 0, ""
	}
	sum := sha256.Sum256(b)
	return len(b), hex.EncodeToString(sum[:])
}
