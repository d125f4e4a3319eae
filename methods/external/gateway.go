package external

import (
	"context"
	"fmt"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/gateway"
)

// ServeGateway hands the method the run's model gateway: the children
// started from now on get its variables (never the user's key), every
// request the harness sends them is bound to a gateway scope whose ID
// travels in the request's gateway_scope, and Close closes the gateway.
func (m *Method) ServeGateway(gw *gateway.Gateway) {
	m.mu.Lock()
	m.gw = gw
	m.gateway = gw.ChildEnvMap
	m.mu.Unlock()
}

// GatewayName is the name a gateway serving the method is started under:
// the method's name in the gateway's charset (it prefixes the purposes
// the child names).
func (m *Method) GatewayName() string {
	n := safeFileName(m.name)
	if len(n) > 64 {
		n = n[:64]
	}
	return n
}

// scopedCall sends one request to s's child while the run's gateway (if
// any) attributes the child's model calls to sc; setScope puts the
// scope's ID into params. A model error the gateway met is wrapped into
// the request's error, and fails a request the child answered anyway: a
// spending ceiling (llm.ErrStopRun) or a planner's stop must reach the
// runner, and an answer built on a failed call is not one to keep.
func (m *Method) scopedCall(ctx context.Context, s *slot, sc gateway.Scope, method string, params any, setScope func(string), out any) error {
	m.mu.Lock()
	gw := m.gw
	m.mu.Unlock()
	if gw == nil {
		return s.conn.call(ctx, method, params, out)
	}
	b := gw.Bind(ctx, sc)
	setScope(b.ID())
	err := s.conn.call(ctx, method, params, out)
	b.Release()
	merr := b.Err()
	switch {
	case merr == nil:
		return err
	case err != nil:
		return fmt.Errorf("%w; a model call it made through the gateway failed: %w", err, merr)
	default:
		return fmt.Errorf("method %s: %s: a model call the method made through the gateway failed: %w", m.name, method, merr)
	}
}

// buildScope is the scope of a construction request (history, prepare,
// save, load) of user: the build model, a stable sample ID per request.
func (m *Method) buildScope(model llm.Model, user, step string) gateway.Scope {
	return gateway.Scope{Model: model, SampleID: fmt.Sprintf("%s/%s/%s", m.name, user, step),
		Unit: m.name + "/" + user + "/" + step, Affinity: user}
}

// closeGateway closes the run's gateway once the children are gone.
func (m *Method) closeGateway() error {
	m.mu.Lock()
	gw := m.gw
	m.gw = nil
	m.mu.Unlock()
	if gw == nil {
		return nil
	}
	if err := gw.Close(); err != nil {
		return fmt.Errorf("method %s: closing the model gateway: %w", m.name, err)
	}
	return nil
}
