package mcpmemory

import (
	"context"
	"fmt"

	"github.com/memharness/memharness/internal/lazyre"
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
func (s *server) scopedCall(ctx context.Context, sc gateway.Scope, tool string, args any) (*mcp.CallToolResult, error) {
	if s.gw == nil {
		return s.call(ctx, tool, args)
	}
	b := s.gw.Bind(ctx, sc)
	res, err := s.call(ctx, tool, args)
	b.Release()
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
