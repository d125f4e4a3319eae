// Package memqarel reads the conversational-memory benchmarks' LLM-judge
// prompts from their pinned sources at run time (mem0's LoCoMo judge,
// LongMemEval's per-question-type judge) and builds the judge request and
// reads its reply the way each source's code does. Our own wording, with
// the same fields and the same reply protocol, is the offline default.
// It also reads mem0's answer templates (answers.go) for prompts: release,
// and the English Punkt model of nltk_data (punkt.go) that mem0's BLEU-1
// tokenises with.
//
// The sources' sentences are never part of this repository; only where
// they live (repository, commit, file, variable name) and how the code
// fills and sends them.
package memqarel

import "github.com/memharness/memharness/releasepacks/lifememrel"

// Fetch names (`bench data fetch NAME`) and the cache folders they fill.
const (
	NameMem0Eval        = "mem0-eval"
	NameLongMemEvalEval = "longmemeval-eval"
)

// Pinned commits. mem0's evaluation folder moved after b3ede5b, the
// commit the Mem0 paper's scripts ran at; LongMemEval's evaluate_qa.py is
// read at the repository's head when pinned.
const (
	mem0Commit        = "b3ede5b7c0ac0e847b03786a603c107ac943b3ee"
	longMemEvalCommit = "9e0b455f4ef0e2ab8f2e582289761153549043fc"
)

// Mem0Source is mem0's evaluation at b3ede5b: the judge (prompt, request,
// label reading), the extract_json it reads replies with, and the answer
// templates of its RAG, full-context and Mem0 runs. Digests from
// a git checkout of that commit.
func Mem0Source() lifememrel.Source {
	return lifememrel.Source{
		Name: NameMem0Eval, Repository: "github.com/mem0ai/mem0", Owner: "mem0ai", Repo: "mem0",
		Files: []lifememrel.File{
			{Path: "evaluation/metrics/llm_judge.py", Commit: mem0Commit, SHA256: "ac2e242f6ea0b817ba1b229ff9e5271f6846b7b8a9aefa8a5a5a81ea58df3b3c", Size: 4872},
			{Path: "mem0/memory/utils.py", Commit: mem0Commit, SHA256: "766c878e0d17679a2e43477c6faf67e7a210076d0c1400af971550e23ef92262", Size: 10178},
			// The answer templates (answers.go): Mem0's memories, RAG, full context.
			{Path: promptsPath, Commit: mem0Commit, SHA256: "407bea1c1453dc6832c234bb1ed936d401d796fabcc0b28337a47ba63517d3ba", Size: 7266},
			{Path: ragPath, Commit: mem0Commit, SHA256: "a3a1da3a97ae50acbc75207e59723b3d0c8a806c81b3321f0a7cf8874ce0cc07", Size: 6340},
			{Path: predictPath, Commit: mem0Commit, SHA256: "41e1f6ba7ac7d5662571cc4fbb8bcbda6c73287e433cd777af39d68acb57585a", Size: 5144},
		},
	}
}

// LongMemEvalSource is LongMemEval's judge script.
func LongMemEvalSource() lifememrel.Source {
	return lifememrel.Source{
		Name: NameLongMemEvalEval, Repository: "github.com/xiaowu0162/LongMemEval", Owner: "xiaowu0162", Repo: "LongMemEval",
		Files: []lifememrel.File{
			{Path: "src/evaluation/evaluate_qa.py", Commit: longMemEvalCommit, SHA256: "ecce9c4c79dc89d99534ac17b383a5cbb5b9f0c69ee98adaf0684742e3d95251", Size: 7436},
		},
	}
}

// Sources lists the pack's sources.
func Sources() []lifememrel.Source {
	return []lifememrel.Source{Mem0Source(), LongMemEvalSource(), NLTKPunktSource()}
}

// Find returns the source fetched under name.
func Find(name string) (lifememrel.Source, bool) {
	for _, s := range Sources() {
		if s.Name == name {
			return s, true
		}
	}
	return lifememrel.Source{}, false
}

// Names lists the fetch names.
func Names() []string {
	var out []string
	for _, s := range Sources() {
		out = append(out, s.Name)
	}
	return out
}
