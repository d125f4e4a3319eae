package lifemem_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/methods/agent/lifemem"
)

// embedLog records every text embedded.
type embedLog struct {
	mu    sync.Mutex
	texts []string
}

func (q *embedLog) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	q.mu.Lock()
	q.texts = append(q.texts, texts...)
	q.mu.Unlock()
	return embed.Hash{}.Embed(ctx, texts)
}

func (q *embedLog) take() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.texts
	q.texts = nil
	return out
}

// TestHiddenGoalNeverKeysRetrieval: τ-bench's instruction is the simulated
// customer's private goal; LifeMem's retrieval must key on the customer's
// first message, and the goal must reach neither the embedder nor any
// model request.
func TestHiddenGoalNeverKeysRetrieval(t *testing.T) {
	ctx := context.Background()
	e, err := all.Find("taubench-retail")
	if err != nil {
		t.Fatal(err)
	}
	s, err := e.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	train, test, err := envs.EmbeddedExperience(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	q := &embedLog{}
	backbone := newSim(sim.Config{})
	var mu sync.Mutex
	var leaked []string
	model := llm.ModelFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		for _, m := range req.Messages {
			if strings.Contains(m.Content, "PRIVATE GOAL") {
				mu.Lock()
				leaked = append(leaked, req.Purpose)
				mu.Unlock()
			}
		}
		return backbone.Generate(ctx, req)
	})
	m, err := lifemem.New(lifemem.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	env := agent.Env{Model: model, Embedder: q, Seed: 1, Dir: t.TempDir()}
	if err := m.Learn(ctx, env, train); err != nil {
		t.Fatal(err)
	}
	if err := m.EndStage(ctx, env); err != nil {
		t.Fatal(err)
	}
	q.take()
	// The marked goal stands for one worded otherwise than what the
	// scripted customer says (it speaks from the task's record).
	task := test[0]
	task.Instruction = "PRIVATE GOAL " + task.Instruction
	a, err := m.Agent(ctx, env, s, task)
	if err != nil {
		t.Fatal(err)
	}
	if got := q.take(); len(got) > 0 {
		t.Fatalf("retrieved before the conversation started, with %q", got)
	}
	tr, err := envs.Run(ctx, s, task, a, envs.Options{Seed: 1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	opening := envs.RetrievalKey(s, task, tr.Turns[0].Text)
	got := q.take()
	if len(got) == 0 || got[0] != opening {
		t.Fatalf("retrieval queries %q; want the customer's first message %q first", got, opening)
	}
	for _, g := range got {
		if strings.Contains(g, "PRIVATE GOAL") {
			t.Fatalf("the private goal reached the embedder: %q", g)
		}
	}
	if len(leaked) > 0 {
		t.Fatalf("the private goal reached model requests %v", leaked)
	}
}
