package conversation

import (
	"testing"

	"github.com/memharness/memharness/llm"
	study "github.com/memharness/memharness/reports/memqa"
	"github.com/memharness/memharness/runstore"
)

// answerPaths keeps, per sample, the answering calls and the retrieval
// made for the question: not the judges', not a memory's construction
// (model calls of other purposes, a server's writes under units of their
// own), and for a sample journalled twice only its last line.
func TestAnswerPaths(t *testing.T) {
	call := func(unit string, i int, purpose string, prompt int, ms int64) runstore.Call {
		return runstore.Call{Unit: runstore.SampleUnit(unit), Index: i,
			CallRecord: llm.CallRecord{Purpose: purpose, Usage: llm.Usage{PromptTokens: prompt}, LatencyNS: ms * 1e6}}
	}
	tool := func(unit string, i int, toolUnit string, ms int64) runstore.Call {
		return runstore.Call{Unit: runstore.SampleUnit(unit), Index: i,
			CallRecord: llm.CallRecord{Tool: &llm.ToolCall{Method: "m", Name: "t", Unit: toolUnit, LatencyNS: ms * 1e6}}}
	}
	calls := []runstore.Call{
		// The conversation's first question: the memory's writes and a
		// construction call, the search, the answer and the judge.
		tool("m/c1:0", 0, "m/c1/write/1", 7),
		call("m/c1:0", 1, "mem0.extract", 900, 50),
		tool("m/c1:0", 2, "m/c1:0", 3),
		call("m/c1:0", 3, PurposeAnswer, 120, 20),
		call("m/c1:0", 4, "memqa.judge.locomo", 80, 9),
		// A later draw of the second question: its search is under the
		// question's unit, without the draw.
		tool("m/c1:1#r1", 0, "m/c1:1", 4),
		call("m/c1:1#r1", 1, PurposeAnswer, 100, 10),
		// A question that failed, then was answered on resume.
		call("m/c1:2", 0, PurposeAnswer, 500, 99),
		call("m/c1:2", 0, PurposeAnswer, 110, 11),
		call("m/c1:2", 1, PurposeAnswer, 5, 1),
		// A saved state's calls belong to no sample.
		{Unit: "file:memory/m/c1.json", CallRecord: llm.CallRecord{Purpose: PurposeAnswer, Usage: llm.Usage{PromptTokens: 1}}},
	}
	got := answerPaths(calls)
	want := map[string]study.AnswerPath{
		"m/c1:0":    {Calls: 1, PromptTokens: 120, AnswerMS: 20, Searches: 1, SearchMS: 3},
		"m/c1:1#r1": {Calls: 1, PromptTokens: 100, AnswerMS: 10, Searches: 1, SearchMS: 4},
		"m/c1:2":    {Calls: 2, PromptTokens: 115, AnswerMS: 12},
	}
	if len(got) != len(want) {
		t.Errorf("paths for %d samples, want %d: %v", len(got), len(want), got)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: %+v, want %+v", id, got[id], w)
		}
	}
}
