package behavior

import (
	"context"
	"fmt"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/llm/gateway"
	"github.com/memharness/memharness/methods/external"
	"github.com/memharness/memharness/methods/mcpmemory"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/runrecord"
)

// startExternal starts the run's external methods before the first sample
// (a child that cannot start fails the run before anything is paid for)
// and returns what the manifest records of them. Each is served a model
// gateway of its own on loopback, over the run's model stack, so that the
// child's model calls are metered, cached, budgeted and recorded as the
// harness's own; the method closes it when it closes.
func startExternal(ctx context.Context, methods []predict.Method, dir string, cfg *config.Config, env predict.Env, modelName string) ([]runrecord.ExternalMethod, error) {
	if err := serveGateways(ctx, methods, env, modelName); err != nil {
		return nil, err
	}
	var out []runrecord.ExternalMethod
	for _, m := range methods {
		x, ok := m.(*external.Method)
		if !ok {
			continue
		}
		d, err := x.Start(ctx, external.Launch{Dir: dir, Family: "behavior",
			Run: external.RunInfo{Name: cfg.Name, Task: cfg.Task, Seed: cfg.Seed, Language: cfg.Prompt.Language}})
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// serveGateways serves each external method, and each MCP server an
// mcp_memory method starts, a model gateway of its own on loopback over
// env's model stack (each request the method sends binds the
// model it was lent, so the planner's recording model sees its child's
// calls too); the method closes it when it closes.
func serveGateways(ctx context.Context, methods []predict.Method, env predict.Env, modelName string) error {
	for _, m := range methods {
		if x, ok := m.(*mcpmemory.Method); ok {
			// A server started as a child gets a gateway of its own.
			x.ServeGateway(gateway.Options{Model: env.Model, Embedder: env.Embedder, ModelName: modelName})
			continue
		}
		x, ok := m.(*external.Method)
		if !ok {
			continue
		}
		gw, err := gateway.Start(ctx, gateway.Options{Model: env.Model, Embedder: env.Embedder, Method: x.GatewayName(), ModelName: modelName})
		if err != nil {
			return fmt.Errorf("method %s: %w", x.Name(), err)
		}
		x.ServeGateway(gw)
	}
	return nil
}
