package sim

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/tokens"
)

// Name is reported as the Model and Endpoint of every sim response.
const Name = "sim"

// Config tunes the sim backbone. The zero value is the documented default.
type Config struct {
	// Threshold is the binary decision threshold on P(yes) (0 means 0.5).
	Threshold float64
	// Latency is slept per call (honouring the context), for kill/resume tests.
	Latency time.Duration
	// PersistentInvalidRate is the fraction of samples whose answers are
	// invalid on every attempt (0 means 0.005; negative disables it).
	PersistentInvalidRate float64
	// Seed varies the surface forms; estimates do not depend on it.
	Seed uint64
}

// Sim is the heuristic reader. It is safe for concurrent use.
type Sim struct {
	cfg     Config
	readers Readers
}

var _ llm.Model = (*Sim)(nil)

// New returns a Sim with cfg that answers each request whose hint type has
// a reader in readers with that reader, and every other request with the
// generic prompt reader. readers is copied: adding to it later does not
// change this Sim.
func New(cfg Config, readers Readers) *Sim { return &Sim{cfg: cfg, readers: readers.clone()} }

// Threshold is the binary decision threshold on P(yes).
func (s *Sim) Threshold() float64 {
	if s.cfg.Threshold == 0 {
		return defaultThresh
	}
	return s.cfg.Threshold
}

func (s *Sim) persistRate() float64 {
	switch {
	case s.cfg.PersistentInvalidRate == 0:
		return defaultPersist
	case s.cfg.PersistentInvalidRate < 0:
		return 0
	}
	return s.cfg.PersistentInvalidRate
}

// Generate implements llm.Model.
func (s *Sim) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	if err := s.sleep(ctx); err != nil {
		return llm.Response{}, fmt.Errorf("sim: %s: %w", req.Purpose, err)
	}
	raw, err := s.answer(req)
	if err != nil {
		return llm.Response{}, err
	}
	// The same split the OpenAI client applies to a server's raw content.
	text, reasoning := llm.SplitThink(raw)
	var prompt int
	for _, m := range req.Messages {
		prompt += tokens.Approx{}.Count(m.Content)
	}
	return llm.Response{
		Text:      text,
		Content:   raw,
		Reasoning: reasoning,
		Usage:     llm.Usage{PromptTokens: prompt, CompletionTokens: max(1, tokens.Approx{}.Count(raw))},
		// The configured latency, not the wall clock: sim sample logs must be
		// byte-identical across runs.
		Latency:  s.cfg.Latency,
		Model:    Name,
		Endpoint: Name,
	}, nil
}

func (s *Sim) sleep(ctx context.Context) error {
	if s.cfg.Latency <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(s.cfg.Latency)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// answer dispatches on the hint's type: the reader registered for it, or
// the generic prompt reader when none is.
func (s *Sim) answer(req llm.Request) (string, error) {
	if req.Hint == nil {
		return readPrompt(req), nil
	}
	r, ok := s.readers.lookup(req.Hint)
	if !ok {
		// A hint type of a method the sim was not taught: read the prompt
		// text alone.
		return readPrompt(req), nil
	}
	return r.answer(s, req, req.Hint)
}

func itoa(i int) string { return strconv.Itoa(i) }
