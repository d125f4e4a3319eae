package scienceworld

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/memharness/memharness/envs"
)

// Suite is an AgentGym server with its tasks.
type Suite struct {
	cfg   Config
	proto proto

	mu   sync.Mutex
	idle []int // server environments free for the next episode
}

var (
	_ envs.Suite  = (*Suite)(nil)
	_ envs.Oracle = (*Suite)(nil)
)

// Connect returns a suite backed by the server at baseURL (overriding
// cfg.BaseURL when non-empty). Nothing is sent until the first episode.
func Connect(baseURL string, cfg Config) (*Suite, error) {
	if baseURL != "" {
		cfg.BaseURL = baseURL
	}
	cfg, spec, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	c, err := newClient(cfg)
	if err != nil {
		return nil, err
	}
	return &Suite{cfg: cfg, proto: proto{c: c, spec: spec, kind: cfg.Kind, worldType: cfg.WorldType}}, nil
}

// Name is the suite's registry name.
func (s *Suite) Name() string { return s.cfg.Name }

// Tasks lists the configured tasks.
func (s *Suite) Tasks() []envs.Task { return s.cfg.Tasks }

// MaxSteps is the paper's limit (35 for ScienceWorld).
func (s *Suite) MaxSteps() int { return s.cfg.MaxSteps }

// Config returns the suite's configuration with defaults applied.
func (s *Suite) Config() Config { return s.cfg }

// ErrNoGold is wrapped by Gold for tasks without gold actions.
var ErrNoGold = errors.New("no gold actions for task")

// Gold returns the task's recorded gold actions (after the automatic
// "look around").
func (s *Suite) Gold(t envs.Task) ([]string, error) {
	tg, ok := t.Data.(*Target)
	if !ok || tg == nil || tg.Gold == nil {
		return nil, fmt.Errorf("%s: %w", t.ID, ErrNoGold)
	}
	return append([]string(nil), tg.Gold...), nil
}

// NewEpisode resets a server environment to t. Environments are reused
// across episodes (a ScienceWorld /create starts a JVM), so the server sees
// one /create per concurrent episode, not per episode.
func (s *Suite) NewEpisode(ctx context.Context, t envs.Task, _ envs.Options) (envs.Episode, error) {
	index, err := s.cfg.Index(t)
	if err != nil {
		return nil, fmt.Errorf("agentgym: %w", err)
	}
	id, err := s.acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("agentgym %s: %w", s.cfg.Name, err)
	}
	r, err := s.proto.reset(ctx, id, index)
	if err != nil {
		s.discard(id)
		return nil, fmt.Errorf("agentgym %s: task %s (index %d): %w", s.cfg.Name, t.ID, index, err)
	}
	return newEpisode(s, t, id, r), nil
}

// acquire takes an idle server environment or creates one.
func (s *Suite) acquire(ctx context.Context) (int, error) {
	s.mu.Lock()
	if n := len(s.idle); n > 0 {
		id := s.idle[n-1]
		s.idle = s.idle[:n-1]
		s.mu.Unlock()
		return id, nil
	}
	s.mu.Unlock()
	return s.proto.create(ctx)
}

// release returns a healthy environment to the idle list.
func (s *Suite) release(id int) {
	s.mu.Lock()
	s.idle = append(s.idle, id)
	s.mu.Unlock()
}

// discard closes an environment whose state is unknown (best effort: the
// server may be the reason).
func (s *Suite) discard(id int) {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.Timeout)
	defer cancel()
	_ = s.proto.close(ctx, id)
}

// Close closes every idle server environment (on servers that define
// /close). Episodes still running are closed by their own Close.
func (s *Suite) Close(ctx context.Context) error {
	s.mu.Lock()
	ids := s.idle
	s.idle = nil
	s.mu.Unlock()
	var errs []error
	for _, id := range ids {
		if err := s.proto.close(ctx, id); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
