package miniwob

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/memharness/memharness/envs"
)

// goldTimeout bounds the scratch episode the oracle plays to read a task.
const goldTimeout = time.Minute

// Gold implements envs.Oracle. It plays a scratch episode of t with the same
// seed (episodes are deterministic per seed) and returns one model turn in
// Synapse syntax: for our own pages, the page's scripted solution
// (wobGold); for official pages, a Go solver keyed by the page name that
// reads the generated utterance. Pages without a solver return an error.
func (s *Suite) Gold(t envs.Task) ([]string, error) {
	d, ok := s.byID[t.ID]
	if !ok {
		return nil, fmt.Errorf("miniwob: unknown task %q", t.ID)
	}
	solve, hasSolver := officialSolvers[d.Page]
	if !s.embedded && !hasSolver {
		return nil, fmt.Errorf("no scripted solution for official page %s", d.Page)
	}
	ctx, cancel := context.WithTimeout(context.Background(), goldTimeout)
	defer cancel()
	ep, err := s.openEpisode(ctx, d)
	if err != nil {
		return nil, err
	}
	defer ep.Close()
	if s.embedded {
		var code string
		err := ep.within(ctx, s.cfg.ActionTimeout, "gold", func(c context.Context) error {
			var err error
			code, err = chromedp.Run(c, callJS[string](jsGold))
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("miniwob: %s: %w", t.ID, err)
		}
		if code == "" {
			return nil, fmt.Errorf("miniwob: %s: page defines no wobGold", t.ID)
		}
		return []string{code}, nil
	}
	turns, err := solve(ep.Utterance())
	if err != nil {
		return nil, fmt.Errorf("miniwob: %s: %w (utterance %q)", t.ID, err, ep.Utterance())
	}
	return turns, nil
}
