package conversation

import (
	"fmt"
	"strings"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/memstyle"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/releasepacks/memqarel"
	"github.com/memharness/memharness/runrecord"
)

// releaseAnswer asks a method's question with the mem0 answer template
// that matches the method (prompts: release): RAG over the conversation
// with rag.py's PROMPT, Mem0- and MemOS-style memories with prompts.py's
// ANSWER_PROMPT, every other method (full context, truncation, summary,
// an external method's memory and turns) with openai/predict.py's
// ANSWER_PROMPT, whose memories slot holds what the method shows.
type releaseAnswer struct {
	texts    *memqarel.Answers
	template string
}

// answerTemplate is the mem0 answer template of a method kind.
func answerTemplate(kind string) string {
	switch kind {
	case predict.KindRAG:
		return memqarel.AnswerRAG
	case memstyle.KindMem0, memstyle.KindMemOS:
		return memqarel.AnswerMemories
	}
	return memqarel.AnswerFullContext
}

// openReleaseAnswers reads mem0's answer templates for each method when
// the run's prompts are release (nil entries otherwise), and records in
// the manifest which template each method's answers used. A memory
// method with history_tokens is refused: mem0's memories template has no
// place for turns.
func openReleaseAnswers(cfg *config.Config, env family.Env, pin memqarel.Packs, names []string, man *runrecord.Manifest) ([]*releaseAnswer, error) {
	out := make([]*releaseAnswer, len(cfg.Methods))
	if cfg.PromptsLabel() != config.PromptsRelease {
		return out, nil
	}
	texts, err := memqarel.OpenAnswers(releaseDir(cfg, env.Getenv, memqarel.NameMem0Eval), pin.Mem0)
	if err != nil {
		return nil, fmt.Errorf("answer prompts release: %w (fetch them with `bench data fetch %s`, or name a checkout in prompt.release_dirs)", err, memqarel.NameMem0Eval)
	}
	man.Prompts, man.PromptsPack = config.PromptsRelease, texts.Source
	man.PromptsSHA256 = map[string]string{}
	if man.Provenance == nil {
		man.Provenance = map[string]runrecord.Provenance{}
	}
	for i, spec := range cfg.Methods {
		tmpl := answerTemplate(spec.Kind)
		if tmpl == memqarel.AnswerMemories && spec.HistoryTokens > 0 {
			return nil, fmt.Errorf("methods[%d] %s: history_tokens %d under prompts: release: mem0's memories template (%s) shows memories only; drop history_tokens or use prompts: own",
				i, names[i], spec.HistoryTokens, memqarel.AnswerFile(tmpl))
		}
		out[i] = &releaseAnswer{texts: texts, template: tmpl}
		file := memqarel.AnswerFile(tmpl)
		for _, f := range pin.Mem0OrDefault().Files {
			if f.Path == file {
				man.PromptsSHA256[file] = f.SHA256
			}
		}
		man.Provenance[names[i]+"/answer"] = runrecord.Provenance{Prompt: runrecord.FromSource, Sampling: runrecord.FromSource, Parser: runrecord.FromSource,
			Note: releaseNote(tmpl)}
	}
	return out, nil
}

// releaseNote says which mem0 template a method's answers used and what
// the harness supplies where mem0's scripts read their own files.
func releaseNote(tmpl string) string {
	file := memqarel.AnswerFile(tmpl)
	switch tmpl {
	case memqarel.AnswerRAG:
		return "mem0 " + file + " PROMPT (RAG) with its system message; CONTEXT is the retrieved turns as clean_chat_history lines, runs of consecutive turns one chunk, chunks joined by \"\\n<->\\n\" in conversation order; reply stripped"
	case memqarel.AnswerMemories:
		return "mem0 " + file + " ANSWER_PROMPT (Mem0 memories), as memzero/search.py fills it: one store per speaker, speaker_a's search under speaker 1 and speaker_b's under speaker 2, each entry \"timestamp: memory\" (the session date of the chunk that last wrote it) in its search's order"
	}
	return "mem0 " + file + " ANSWER_PROMPT (full context); memories is what the method shows: its memory entries, then its turns as rag.py's clean_chat_history lines"
}

// request is the answering request for q over v with the template.
func (r *releaseAnswer) request(c *conv, q memqa.Question, v view) (llm.Request, error) {
	var req llm.Request
	var err error
	switch r.template {
	case memqarel.AnswerRAG:
		req, err = r.texts.RAGRequest(q.Question, ragContext(v.Turns))
	case memqarel.AnswerMemories:
		s1, s2 := speakers(c, v.Speakers)
		req, err = r.texts.MemoriesRequest(q.Question, s1, s2)
	default:
		var b strings.Builder
		for _, m := range v.Memory {
			b.WriteString(m + "\n")
		}
		b.WriteString(chatHistory(v.Turns))
		req, err = r.texts.FullContextRequest(q.Question, b.String())
	}
	if err != nil {
		return req, fmt.Errorf("question %s: %w", q.ID, err)
	}
	req.Purpose = PurposeAnswer
	return req, nil
}

// chatHistory is rag.py's clean_chat_history: "timestamp | speaker:
// text\n" per turn, the timestamp being the session's date.
func chatHistory(turns []shownTurn) string {
	var b strings.Builder
	for _, t := range turns {
		fmt.Fprintf(&b, "%s | %s: %s\n", t.Date, t.Speaker, t.Text)
	}
	return b.String()
}

// ragContext is rag.py's search result: the retrieved chunks joined by
// "\n<->\n"; a run of turns consecutive in the conversation is one chunk.
func ragContext(turns []shownTurn) string {
	var chunks []string
	for lo := 0; lo < len(turns); {
		hi := lo + 1
		for hi < len(turns) && turns[hi].Index == turns[hi-1].Index+1 {
			hi++
		}
		chunks = append(chunks, chatHistory(turns[lo:hi]))
		lo = hi
	}
	return strings.Join(chunks, "\n<->\n")
}

// speakers fills the memories template's two sides as memzero/search.py
// does: speaker 1 is speaker_a, speaker 2 speaker_b, each named by its
// user id ("<speaker>_<n>") cut at its first "_", each side the entries
// its own store's search returned, in the search's order, as
// "<timestamp>: <memory>" (stores[0] is speaker_a's, stores[1]
// speaker_b's, as the memory methods return them). A side without a store
// has no entries ("[]").
func speakers(c *conv, stores []speakerMemory) (memqarel.Speaker, memqarel.Speaker) {
	side := func(i int, name string) memqarel.Speaker {
		s := memqarel.Speaker{Name: strings.SplitN(name, "_", 2)[0], Memories: []string{}}
		if i < len(stores) {
			for _, e := range stores[i].Entries {
				s.Memories = append(s.Memories, e.Date+": "+e.Text)
			}
		}
		return s
	}
	return side(0, c.SpeakerA), side(1, c.SpeakerB)
}

// releaseTitle names the answer templates in the report title under
// prompts: release ("" under our own wording, whose reports are as they
// were).
func releaseTitle(cfg *config.Config) string {
	if cfg.PromptsLabel() != config.PromptsRelease {
		return ""
	}
	seen := map[string]bool{}
	var parts []string
	for _, spec := range cfg.Methods {
		n := methodName(spec.Name, spec.Kind)
		f := memqarel.AnswerFile(answerTemplate(spec.Kind))
		if !seen[n] {
			seen[n] = true
			parts = append(parts, n+": "+f)
		}
	}
	return "answer prompts: mem0 release (" + strings.Join(parts, ", ") + ")"
}
