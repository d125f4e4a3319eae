package behavior

import (
	"context"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/methods/external"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/runrecord"
)

// startExternal starts the run's external methods before the first sample
// (a child that cannot start fails the run before anything is paid for)
// and returns what the manifest records of them.
func startExternal(ctx context.Context, methods []predict.Method, dir string, cfg *config.Config) ([]runrecord.ExternalMethod, error) {
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
