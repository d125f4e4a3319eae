package mcpmemory

import (
	"context"
	"fmt"
	"strings"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/methods/predict"
)

// PlanMemory is a user's memory as `bench plan` (and the plan a run
// stores) sees it, without starting the user's server or writing the
// history to it: the records the run would write. The note names what the
// plan cannot see: the model calls a server makes through its gateway.
func (m *Method) PlanMemory(u behavior.UserSet) (predict.Memory, string) {
	n := 0
	if len(u.Instances) > 0 {
		n = u.Instances[0].PracticeCut
	}
	note := fmt.Sprintf("%s: the plan starts no MCP server and writes no history; its memory block stands in with the user's latest top_k records, "+
		"and model calls the server would make through its gateway are not counted", m.name)
	return predict.Memory{Meta: map[string]any{"stored": n, "write_tool": m.c.Write.Tool, "search_tool": m.c.Search.Tool}}, note
}

// PlanPredict sends the question's requests as Predict does, with the
// user's latest top_k practice records (those that fit memory_tokens) in
// place of what the server's search would return: about the size of the
// block a search that finds top_k records puts into the prompt.
func (m *Method) PlanPredict(ctx context.Context, env predict.Env, _ predict.Memory, inst behavior.Instance) (predict.Outcome, error) {
	practice := inst.History[:inst.PracticeCut]
	if len(practice) > m.topK {
		practice = practice[len(practice)-m.topK:]
	}
	p := m.ev.Prompts(env)
	texts := make([]string, 0, len(practice))
	for _, e := range practice {
		text, err := p.Record(e)
		if err != nil {
			return predict.Outcome{}, err
		}
		texts = append(texts, strings.TrimRight(text, "\n"))
	}
	block, err := m.block(env, texts)
	if err != nil {
		return predict.Outcome{}, err
	}
	return m.ev.Predict(ctx, env, inst, block, "")
}
