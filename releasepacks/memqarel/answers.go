package memqarel

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memharness/memharness/internal/pyfmt"
	"github.com/memharness/memharness/internal/pysrc"
	"github.com/memharness/memharness/internal/pystr"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/releasepacks/lifememrel"
)

// The answer templates of mem0's LoCoMo evaluation, one per kind of
// method it ran (files of Mem0Source).
const (
	// AnswerRAG is evaluation/src/rag.py PROMPT, sent as the user message
	// after a fixed system message, for retrieval over the conversation.
	AnswerRAG = "rag.PROMPT"
	// AnswerFullContext is evaluation/src/openai/predict.py ANSWER_PROMPT,
	// sent as one system message, for the whole conversation in context.
	AnswerFullContext = "openai/predict.ANSWER_PROMPT"
	// AnswerMemories is evaluation/prompts.py ANSWER_PROMPT, sent as one
	// system message, for Mem0's memories of both speakers
	// (evaluation/src/memzero/search.py fills it).
	AnswerMemories = "prompts.ANSWER_PROMPT"
)

const (
	ragPath     = "evaluation/src/rag.py"
	predictPath = "evaluation/src/openai/predict.py"
	promptsPath = "evaluation/prompts.py"
)

// AnswerFile is the pinned file an answer template is read from.
func AnswerFile(template string) string {
	switch template {
	case AnswerRAG:
		return ragPath
	case AnswerFullContext:
		return predictPath
	case AnswerMemories:
		return promptsPath
	}
	return ""
}

// Answers holds mem0's answer templates, read from the pinned pack.
type Answers struct {
	// Source is the pack's repository@commit.
	Source                      string
	rag, ragSystem, full, memos string
}

// OpenAnswers reads mem0's answer templates from a fetched copy (or a
// checkout) of its evaluation, every file checked against the pin (zero
// pin: Mem0Source()). Each template must hold exactly the Jinja variables
// mem0's code renders it with.
func OpenAnswers(dir string, pin lifememrel.Source) (*Answers, error) {
	if pin.Name == "" {
		pin = Mem0Source()
	}
	t, err := lifememrel.Open(dir, pin)
	if err != nil {
		return nil, err
	}
	a := &Answers{Source: t.Source.Pin()}
	if a.rag, err = jinjaTemplate(t, ragPath, "", "PROMPT", "CONTEXT", "QUESTION"); err != nil {
		return nil, err
	}
	if a.full, err = jinjaTemplate(t, predictPath, "", "ANSWER_PROMPT", "memories", "question"); err != nil {
		return nil, err
	}
	if a.memos, err = jinjaTemplate(t, promptsPath, "", "ANSWER_PROMPT",
		"question", "speaker_1_memories", "speaker_1_user_id", "speaker_2_memories", "speaker_2_user_id"); err != nil {
		return nil, err
	}
	if a.ragSystem, err = ragSystemMessage(t); err != nil {
		return nil, err
	}
	return a, nil
}

func jinjaTemplate(t *lifememrel.Tree, path, scope, name string, vars ...string) (string, error) {
	f := t.Py(path)
	if f == nil {
		return "", fmt.Errorf("%s: not in the pack's pin", path)
	}
	v, ok := f.Lookup(scope, name)
	if !ok || v.Kind != pysrc.Str || v.FString {
		return "", fmt.Errorf("%s: no module-level string %s", path, name)
	}
	got, err := jinjaVariables(v.Str)
	if err != nil {
		return "", fmt.Errorf("%s line %d %s: %w", path, v.Line, name, err)
	}
	slices.Sort(vars)
	if !slices.Equal(got, vars) {
		return "", fmt.Errorf("%s line %d %s: Jinja variables %v, want %v", path, v.Line, name, got, vars)
	}
	return v.Str, nil
}

// ragSystemMessage is the system message RAGManager.generate_response
// sends: the string after "content" in the message whose role is
// "system".
func ragSystemMessage(t *lifememrel.Tree) (string, error) {
	const scope = "RAGManager.generate_response"
	lits := t.Py(ragPath).LiteralsIn(scope)
	for i := 0; i+2 < len(lits); i++ {
		if lits[i].Str == "system" && lits[i+1].Str == "content" && lits[i+2].Kind == pysrc.Str && !lits[i+2].FString {
			return lits[i+2].Str, nil
		}
	}
	return "", fmt.Errorf("%s: %s sends no system message with a literal content", ragPath, scope)
}

// Speaker is one speaker's side of the memories template: the name
// mem0's search.py renders (its user id up to the first "_") and the
// memory lines it lists as JSON.
type Speaker struct {
	Name     string
	Memories []string
}

// RAGRequest is rag.py's generate_response: PROMPT rendered with CONTEXT
// and QUESTION as the user message after the fixed system message,
// temperature 0 and nothing else.
func (a *Answers) RAGRequest(question, context string) (llm.Request, error) {
	p, err := renderJinja(a.rag, map[string]string{"CONTEXT": context, "QUESTION": question})
	if err != nil {
		return llm.Request{}, fmt.Errorf("%s PROMPT (%s): %w", ragPath, a.Source, err)
	}
	return llm.Request{Messages: []llm.Message{{Role: "system", Content: a.ragSystem}, {Role: "user", Content: p}},
		Params: llm.Params{Temperature: temperature(0)}}, nil
}

// FullContextRequest is predict.py's answer_question: ANSWER_PROMPT
// rendered with memories and question as one system message, temperature
// 0.0 and nothing else.
func (a *Answers) FullContextRequest(question, memories string) (llm.Request, error) {
	p, err := renderJinja(a.full, map[string]string{"memories": memories, "question": question})
	if err != nil {
		return llm.Request{}, fmt.Errorf("%s ANSWER_PROMPT (%s): %w", predictPath, a.Source, err)
	}
	return llm.Request{Messages: []llm.Message{{Role: "system", Content: p}}, Params: llm.Params{Temperature: temperature(0)}}, nil
}

// MemoriesRequest is memzero/search.py's answer_question: prompts.py
// ANSWER_PROMPT rendered with each speaker's name and memories
// (json.dumps(lines, indent=4)) as one system message, temperature 0.0
// and nothing else.
func (a *Answers) MemoriesRequest(question string, s1, s2 Speaker) (llm.Request, error) {
	p, err := renderJinja(a.memos, map[string]string{
		"speaker_1_user_id": s1.Name, "speaker_2_user_id": s2.Name,
		"speaker_1_memories": dumpsIndent4(s1.Memories), "speaker_2_memories": dumpsIndent4(s2.Memories),
		"question": question,
	})
	if err != nil {
		return llm.Request{}, fmt.Errorf("%s ANSWER_PROMPT (%s): %w", promptsPath, a.Source, err)
	}
	return llm.Request{Messages: []llm.Message{{Role: "system", Content: p}}, Params: llm.Params{Temperature: temperature(0)}}, nil
}

// ReadAnswer is the answer as mem0's code takes it from the reply:
// rag.py strips it (str.strip); predict.py and search.py keep the content
// as it is.
func ReadAnswer(template, content string) string {
	if template == AnswerRAG {
		return pystr.Strip(content)
	}
	return content
}

// dumpsIndent4 is json.dumps(lines, indent=4) of a list of strings
// (ensure_ascii on, as json.dumps defaults).
func dumpsIndent4(lines []string) string {
	if len(lines) == 0 {
		return "[]"
	}
	b := []byte("[\n")
	for i, l := range lines {
		b = append(b, "    "...)
		b = pyfmt.AppendJSONStringASCII(b, l)
		if i < len(lines)-1 {
			b = append(b, ',')
		}
		b = append(b, '\n')
	}
	return string(append(b, ']'))
}

// jinjaVariables lists the variables of a template that uses only
// {{ name }} expressions, sorted and without repeats; any other Jinja
// syntax (statements, comments, filters) is an error, since renderJinja
// could not render it as Jinja does.
func jinjaVariables(tmpl string) ([]string, error) {
	var out []string
	_, err := walkJinja(tmpl, func(name string) string {
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
		return ""
	})
	slices.Sort(out)
	return out, err
}

// renderJinja is jinja2.Template(tmpl).render(**vars) for a template of
// {{ name }} expressions: each replaced by its value (no escaping, as
// Template's autoescape is off), and one trailing newline dropped, as
// Jinja's keep_trailing_newline defaults to False. A variable without a
// value is an error (Jinja would render it empty; mem0's code always
// passes every one, so a missing one is ours).
func renderJinja(tmpl string, vars map[string]string) (string, error) {
	var missing []string
	s, err := walkJinja(tmpl, func(name string) string {
		v, ok := vars[name]
		if !ok {
			missing = append(missing, name)
		}
		return v
	})
	if err != nil {
		return "", err
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("no value for Jinja variable(s) %v", missing)
	}
	if strings.HasSuffix(s, "\r\n") {
		s = s[:len(s)-2]
	} else if strings.HasSuffix(s, "\n") || strings.HasSuffix(s, "\r") {
		s = s[:len(s)-1]
	}
	return s, nil
}

func walkJinja(tmpl string, value func(name string) string) (string, error) {
	var b strings.Builder
	rest := tmpl
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 || i+1 >= len(rest) {
			b.WriteString(rest)
			return b.String(), nil
		}
		switch rest[i+1] {
		case '%', '#':
			return "", fmt.Errorf("Jinja %q at offset %d: only {{ name }} expressions are read", rest[i:i+2], len(tmpl)-len(rest)+i)
		case '{':
		default:
			b.WriteString(rest[:i+1])
			rest = rest[i+1:]
			continue
		}
		end := strings.Index(rest[i+2:], "}}")
		if end < 0 {
			return "", fmt.Errorf("Jinja expression at offset %d is not closed", len(tmpl)-len(rest)+i)
		}
		name := strings.TrimSpace(rest[i+2 : i+2+end])
		if !isIdent(name) {
			return "", fmt.Errorf("Jinja expression {{%s}}: only a plain variable name is read", rest[i+2:i+2+end])
		}
		b.WriteString(rest[:i])
		b.WriteString(value(name))
		rest = rest[i+2+end+2:]
	}
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && !(r >= 'a' && r <= 'z') && !(r >= 'A' && r <= 'Z') && (i == 0 || !(r >= '0' && r <= '9')) {
			return false
		}
	}
	return true
}
