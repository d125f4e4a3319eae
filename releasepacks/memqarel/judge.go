package memqarel

import (
	"errors"
	"fmt"
	"github.com/memharness/memharness/datasets/memqa"
	"strings"

	"github.com/memharness/memharness/envs/taubench"
	"github.com/memharness/memharness/internal/pysrc"
	"github.com/memharness/memharness/internal/pystr"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/releasepacks/lifememrel"
)

// Purposes of the judge calls (usage accounting, the sim's readers).
const (
	PurposeLoCoMoJudge      = "memqa.judge.locomo"
	PurposeLongMemEvalJudge = "memqa.judge.longmemeval"
)

// Models the sources' code names. They are facts about the scripts,
// recorded beside a run's own judge model; the judge backbone in the
// config decides what is called.
const (
	// Mem0JudgeModel is evaluate_llm_judge's model.
	Mem0JudgeModel = "gpt-4o-mini"
	// LongMemEval's model_zoo: the short names its command line takes and
	// the snapshots they call.
	LongMemEvalJudgeGPT4o     = "gpt-4o-2024-08-06"
	LongMemEvalJudgeGPT4oMini = "gpt-4o-mini-2024-07-18"
)

// QuestionTypes lists LongMemEval's question types (package memqa names
// them) in the order its judge script tests them, which Open checks.
func QuestionTypes() []string {
	return []string{memqa.SingleSessionUser, memqa.SingleSessionAssistant, memqa.MultiSession,
		memqa.TemporalReasoning, memqa.KnowledgeUpdate, memqa.SingleSessionPreference}
}

// Judges holds the judge templates of one wording.
type Judges struct {
	// Source says where the texts came from: "own" or repository@commit
	// per source.
	Source string
	// mem0 is the LoCoMo judge template with {question}, {gold_answer}
	// and {generated_answer} (str.format keywords).
	mem0 string
	// lme are LongMemEval's templates by template slot (see lmeSlot), each
	// with three positional {} fields: question, answer (or rubric, or
	// explanation), response.
	lme [5]string
	// strictness tells the sim's judge how strict the wording is (1
	// strict, -1 lenient), as a model would read it from the text.
	strictness int
}

// LongMemEval's templates, in the order get_anscheck_prompt assigns them.
const (
	slotFactual = iota // single-session-user, single-session-assistant, multi-session
	slotTemporal
	slotKnowledgeUpdate
	slotPreference
	slotAbstention
)

// lmeSlot is get_anscheck_prompt's choice of template. An abstention
// question takes the abstention template whatever its type (the source
// never reads the type then); otherwise an unknown type is an error, as
// the source raises NotImplementedError.
func lmeSlot(questionType string, abstention bool) (int, error) {
	if abstention {
		return slotAbstention, nil
	}
	switch questionType {
	case memqa.SingleSessionUser, memqa.SingleSessionAssistant, memqa.MultiSession:
		return slotFactual, nil
	case memqa.TemporalReasoning:
		return slotTemporal, nil
	case memqa.KnowledgeUpdate:
		return slotKnowledgeUpdate, nil
	case memqa.SingleSessionPreference:
		return slotPreference, nil
	}
	return 0, fmt.Errorf("LongMemEval judge: question type %q has no prompt (known: %s)", questionType, strings.Join(QuestionTypes(), ", "))
}

// ownLoCoMoRule is the grading rule of our LoCoMo wording, which Strict
// and Lenient replace.
const ownLoCoMoRule = "Count it as CORRECT when it names the same thing, person, place or time, " +
	"even if it is longer or worded differently (\"7 May\" and \"May 7th\" are the same date; a relative time is fine if it points to the same period); " +
	"otherwise count it as WRONG."

// Own is our wording: the same fields and the same reply protocol as the
// sources (a JSON "label" of CORRECT or WRONG for LoCoMo; yes or no for
// LongMemEval), in our own sentences.
func Own() *Judges {
	const lmeTail = "\n\nQuestion: {}\n\n%s: {}\n\nResponse: {}\n\n%s Reply with yes or no only."
	base := "Below are a question, its reference answer and a model's response. Say yes when the response gives the reference answer " +
		"(the same fact, in any wording, or every step that leads to it); say no when it gives something else or only part of what the answer needs."
	return &Judges{
		Source: "own",
		mem0: "You grade an answer about two people's past conversations.\n" +
			"Compare the generated answer with the gold answer. " + ownLoCoMoRule + "\n\n" +
			"Question: {question}\nGold answer: {gold_answer}\nGenerated answer: {generated_answer}\n\n" +
			"Give one sentence of reasoning, then the verdict. Reply with JSON only, in the form {{\"label\": \"CORRECT\"}} or {{\"label\": \"WRONG\"}}.\n",
		lme: [5]string{
			slotFactual:         base + fmt.Sprintf(lmeTail, "Reference answer", "Is the response correct?"),
			slotTemporal:        base + " For counts of days, weeks or months, an answer off by one still counts as correct." + fmt.Sprintf(lmeTail, "Reference answer", "Is the response correct?"),
			slotKnowledgeUpdate: base + " When the response mentions older information as well, it is correct as long as the latest answer it gives is the reference answer." + fmt.Sprintf(lmeTail, "Reference answer", "Is the response correct?"),
			slotPreference: "Below are a question, a rubric describing a good personalised response, and a model's response. Say yes when the response uses " +
				"what it knows about the user correctly, as the rubric describes; it need not cover every point." + fmt.Sprintf(lmeTail, "Rubric", "Does the response satisfy the rubric?"),
			slotAbstention: "Below are a question that cannot be answered from the conversation, the reason why, and a model's response. Say yes when the response " +
				"recognises that it cannot answer (for example, says the information is missing or was never given)." + fmt.Sprintf(lmeTail, "Why it cannot be answered", "Does the response recognise that the question cannot be answered?"),
		},
	}
}

// Open reads the judges' texts from fetched copies (or checkouts) of the
// two sources, every file checked against its pin.
func Open(mem0Dir, longMemEvalDir string) (*Judges, error) {
	return OpenPacks(Packs{Mem0Dir: mem0Dir, LongMemEvalDir: longMemEvalDir})
}

// Packs locates the judges' two sources: the folders they were fetched
// into (or checkouts) and the pins their files are checked against.
type Packs struct {
	Mem0Dir, LongMemEvalDir string
	// Mem0 and LongMemEval are the sources' pins (zero: Mem0Source() and
	// LongMemEvalSource()); tests put stand-in packs' pins here.
	Mem0, LongMemEval lifememrel.Source
	// Punkt is the pin of the Punkt package BLEU-1 tokenises with under
	// prompts: release (zero: NLTKPunktSource()).
	Punkt lifememrel.Source
}

// OpenPacks is Open with the packs' own pins.
func OpenPacks(p Packs) (*Judges, error) {
	if p.Mem0.Name == "" {
		p.Mem0 = Mem0Source()
	}
	if p.LongMemEval.Name == "" {
		p.LongMemEval = LongMemEvalSource()
	}
	m, err := lifememrel.Open(p.Mem0Dir, p.Mem0)
	if err != nil {
		return nil, err
	}
	l, err := lifememrel.Open(p.LongMemEvalDir, p.LongMemEval)
	if err != nil {
		return nil, err
	}
	j := &Judges{Source: m.Source.Pin() + ", " + l.Source.Pin()}
	if j.mem0, err = mem0Prompt(m); err != nil {
		return nil, err
	}
	if j.lme, err = lmeTemplates(l); err != nil {
		return nil, err
	}
	return j, nil
}

func mem0Prompt(t *lifememrel.Tree) (string, error) {
	const path = "evaluation/metrics/llm_judge.py"
	v, ok := t.Py(path).Lookup("", "ACCURACY_PROMPT")
	if !ok || v.Kind != pysrc.Str {
		return "", fmt.Errorf("%s: no module-level string ACCURACY_PROMPT", path)
	}
	fields, err := pysrc.Fields(v.Str)
	if err != nil {
		return "", fmt.Errorf("%s line %d ACCURACY_PROMPT: %w", path, v.Line, err)
	}
	if strings.Join(fields, ",") != "question,gold_answer,generated_answer" {
		return "", fmt.Errorf("%s line %d ACCURACY_PROMPT: fields %v, want question, gold_answer, generated_answer", path, v.Line, fields)
	}
	return v.Str, nil
}

func lmeTemplates(t *lifememrel.Tree) ([5]string, error) {
	const path = "src/evaluation/evaluate_qa.py"
	var out [5]string
	var got []pysrc.Assign
	for _, a := range t.Py(path).Assigns {
		if a.Scope == "get_anscheck_prompt" && a.Name == "template" {
			got = append(got, a)
		}
	}
	if len(got) != len(out) {
		return out, fmt.Errorf("%s: get_anscheck_prompt assigns template %d times, want %d (factual, temporal-reasoning, knowledge-update, single-session-preference, abstention)", path, len(got), len(out))
	}
	for i, a := range got {
		if a.Value.Kind != pysrc.Str {
			return out, fmt.Errorf("%s line %d: template is not a string literal", path, a.Line)
		}
		ps, err := pysrc.SplitFormat(a.Value.Str)
		if err != nil {
			return out, fmt.Errorf("%s line %d: %w", path, a.Line, err)
		}
		n := 0
		for _, p := range ps {
			if p.IsField {
				if p.Field != "" || p.Conv != "" || p.Spec != "" {
					return out, fmt.Errorf("%s line %d: field {%s} where three positional {} are expected", path, a.Line, p.Field)
				}
				n++
			}
		}
		if n != 3 {
			return out, fmt.Errorf("%s line %d: %d fields, want 3 positional {}", path, a.Line, n)
		}
		out[i] = a.Value.Str
	}
	// The branches must still test the types in the order the slots assume.
	var types []string
	for _, l := range t.Py(path).LiteralsIn("get_anscheck_prompt") {
		for _, q := range QuestionTypes() {
			if l.Kind == pysrc.Str && l.Str == q {
				types = append(types, q)
			}
		}
	}
	if strings.Join(types, ",") != strings.Join(QuestionTypes(), ",") {
		return out, fmt.Errorf("%s: get_anscheck_prompt tests types %v, want %v in that order", path, types, QuestionTypes())
	}
	return out, nil
}

// formatPositional is template.format(a, b, c) with plain {} fields.
func formatPositional(tmpl string, args ...string) (string, error) {
	ps, err := pysrc.SplitFormat(tmpl)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	k := 0
	for _, p := range ps {
		if !p.IsField {
			b.WriteString(p.Literal)
			continue
		}
		if k >= len(args) {
			return "", errors.New("more {} fields than arguments (IndexError in Python)")
		}
		b.WriteString(args[k])
		k++
	}
	return b.String(), nil
}

func temperature(v float64) *float64 { return &v }

// LoCoMoRequest is the request mem0's evaluate_llm_judge sends: one user
// message (the template filled with str.format), temperature 0.0 and
// response_format {"type": "json_object"}; nothing else (no max_tokens).
// The strings are as the caller's data holds them; mem0's evals.py passes
// str() of each, so a number answer arrives as its decimal text.
func (j *Judges) LoCoMoRequest(question, goldAnswer, generatedAnswer string) (llm.Request, error) {
	prompt, err := pysrc.Format(j.mem0, map[string]string{
		"question": question, "gold_answer": goldAnswer, "generated_answer": generatedAnswer,
	})
	if err != nil {
		return llm.Request{}, fmt.Errorf("LoCoMo judge prompt (%s): %w", j.Source, err)
	}
	return llm.Request{
		Purpose:  PurposeLoCoMoJudge,
		Messages: []llm.Message{{Role: "user", Content: prompt}},
		Hint:     JudgeHint{Question: question, Gold: goldAnswer, Generated: generatedAnswer, Strictness: j.strictness},
		Params: llm.Params{
			Temperature: temperature(0),
			Extra:       map[string]any{"response_format": map[string]any{"type": "json_object"}},
		},
	}, nil
}

// LongMemEvalRequest is the request LongMemEval's evaluate_qa.py sends for
// one hypothesis: the type's template (the abstention one when the
// question_id contains "_abs", whatever the type), one user message, n 1,
// temperature 0, max_tokens 10.
func (j *Judges) LongMemEvalRequest(questionType, questionID, question, answer, response string) (llm.Request, error) {
	slot, err := lmeSlot(questionType, memqa.IsAbstentionID(questionID))
	if err != nil {
		return llm.Request{}, err
	}
	prompt, err := formatPositional(j.lme[slot], question, answer, response)
	if err != nil {
		return llm.Request{}, fmt.Errorf("LongMemEval judge prompt %q (%s): %w", questionType, j.Source, err)
	}
	return llm.Request{
		Purpose:  PurposeLongMemEvalJudge,
		Messages: []llm.Message{{Role: "user", Content: prompt}},
		Hint: JudgeHint{LongMemEval: true, Abstention: slot == slotAbstention,
			Question: question, Gold: answer, Generated: response, Strictness: j.strictness},
		Params: llm.Params{Temperature: temperature(0), MaxTokens: 10, Extra: map[string]any{"n": 1}},
	}, nil
}

// ErrJudgeReply is wrapped when a judge reply cannot be read the way the
// source reads it (where the source's script would stop with an
// exception).
var ErrJudgeReply = errors.New("judge reply unreadable")

// ReadLoCoMoVerdict reads a reply as mem0's evaluate_llm_judge does:
// json.loads(extract_json(content))["label"], correct when it equals the
// string "CORRECT" (any other label, "correct" included, is wrong). A
// reply that is not JSON, not an object, or has no "label" is an error
// wrapping ErrJudgeReply: there the source raises and its run stops.
func ReadLoCoMoVerdict(content string) (bool, error) {
	js := ExtractJSON(content)
	// json.loads, not encoding/json: bare NaN and Infinity, lone
	// surrogate escapes and the recursion limit as Python has them.
	v, err := taubench.Decode([]byte(js))
	if err != nil {
		return false, fmt.Errorf("%w: not JSON (%v): %.80q", ErrJudgeReply, err, js)
	}
	obj, ok := v.(*taubench.Object)
	if !ok {
		return false, fmt.Errorf("%w: JSON is not an object: %.80q", ErrJudgeReply, js)
	}
	label, ok := obj.Get("label")
	if !ok {
		return false, fmt.Errorf("%w: no \"label\" key: %.80q", ErrJudgeReply, js)
	}
	s, isStr := label.(string)
	return isStr && s == "CORRECT", nil
}

// ExtractJSON is mem0's extract_json: the text stripped; the body of the
// first ``` block (an optional "json" tag and the white space around the
// body dropped) if one is closed; else from the first "{" to the last "}"
// when both exist in that order; else the stripped text.
func ExtractJSON(text string) string {
	text = pystr.Strip(text)
	if body, ok := fencedBody(text); ok {
		return body
	}
	start := strings.Index(text, "{")
	end := strings.LastIndex(text, "}")
	if start != -1 && end != -1 && end > start {
		return text[start : end+1]
	}
	return text
}

// fencedBody is re.search(r"```(?:json)?\s*(.*?)\s*```", text, re.DOTALL)
// group 1. Only the first ``` can open a match: any later opening's
// closing fence would close the first one too. \s is Python's Unicode
// white space.
func fencedBody(text string) (string, bool) {
	i := strings.Index(text, "```")
	if i < 0 {
		return "", false
	}
	p := i + 3
	if strings.HasPrefix(text[p:], "json") {
		p += 4
	}
	p = skipSpace(text, p)
	for e := p; e <= len(text); {
		if strings.HasPrefix(text[skipSpace(text, e):], "```") {
			return text[p:e], true
		}
		if e == len(text) {
			break
		}
		_, size := decodeRune(text[e:])
		e += size
	}
	return "", false
}

func skipSpace(s string, i int) int {
	for i < len(s) {
		r, size := decodeRune(s[i:])
		if !pystr.IsSpace(r) {
			break
		}
		i += size
	}
	return i
}

// ReadLongMemEvalVerdict reads a reply as evaluate_qa.py does: the label
// is whether "yes" occurs anywhere in the stripped, lower-cased content
// ("yesterday" and "no, yes" count; an empty reply is no). It never fails.
func ReadLongMemEvalVerdict(content string) bool {
	return strings.Contains(pystr.Lower(pystr.Strip(content)), "yes")
}

// Mem0OrDefault is the mem0 pin p reads under (Mem0Source() when unset).
func (p Packs) Mem0OrDefault() lifememrel.Source {
	if p.Mem0.Name == "" {
		return Mem0Source()
	}
	return p.Mem0
}
