package predict

import (
	"context"
	"fmt"
	"maps"
	"strings"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
)

// base holds what every baseline shares: its name, history budget, sampling
// parameters and prompt templates.
type base struct {
	name   string
	budget int // history budget in tokens; 0 = no history
	params llm.Params
	parser string // Spec.Parser
	// own are the spec's templates (they beat Env.Prompts); fallback is the
	// default language, used when neither the spec nor Env names templates.
	own, fallback *Prompts
}

func newBase(s Spec) (base, error) {
	b := base{name: s.Name, params: s.ParamsFor(PurposePredict), parser: s.Parser}
	if b.name == "" {
		b.name = s.Kind
	}
	switch {
	case s.HistoryTokens < 0:
		b.budget = 0
	case s.HistoryTokens > 0:
		b.budget = s.HistoryTokens
	case s.Kind == KindLongContext:
		b.budget = DefaultLongContextTokens
	default:
		b.budget = DefaultHistoryTokens
	}
	var err error
	if s.Language != "" || len(s.Templates) > 0 {
		if b.own, err = LoadPrompts(s.Language, s.Templates...); err != nil {
			return base{}, fmt.Errorf("method %s: %w", b.name, err)
		}
	} else if b.fallback, err = LoadPrompts(DefaultLanguage); err != nil {
		return base{}, err
	}
	return b, nil
}

func (b base) Name() string { return b.name }

func (b base) prompts(env Env) *Prompts {
	switch {
	case b.own != nil:
		return b.own
	case env.Prompts != nil:
		return env.Prompts
	default:
		return b.fallback
	}
}

// view is one composed prediction prompt and what it shows.
type view struct {
	prompt string
	hint   hint.Predict
	out    Outcome // only the History*/Memory* fields are set
	// promptOnly sends no structured view: the embedded backbone's generic
	// reader reads the prompt text (a method built outside this package
	// with no reader of its own).
	promptOnly bool
}

func (v view) requestHint() any {
	if v.promptOnly {
		return nil
	}
	return v.hint
}

// compose renders the prompt for inst with history[w.Start:] visible,
// extra records (already shown elsewhere in the prompt, e.g. retrieved ones,
// all older than the window) and a memory block appended at the end.
func (b base) compose(env Env, p *Prompts, inst behavior.Instance, w Window, extra []behavior.Event, memoryBlock string) (view, error) {
	visible := inst.History[w.Start:]
	hist, err := p.HistoryBlock(visible, w.Tokens)
	if err != nil {
		return view{}, err
	}
	q, err := p.Question(inst, hist)
	if err != nil {
		return view{}, err
	}
	shown := make([]hint.Event, 0, len(extra)+len(visible))
	for _, e := range extra {
		shown = append(shown, hintEvent(e, true))
	}
	for _, e := range visible {
		shown = append(shown, hintEvent(e, true))
	}
	v := view{
		prompt: WithMemory(q, memoryBlock),
		hint: hint.Predict{
			Field:   inst.Question.Field,
			Kind:    inst.Question.Kind,
			Classes: inst.Question.Classes,
			Visible: shown,
			Target:  hintEvent(inst.Target, false),
			Memory:  memoryBlock,
		},
	}
	v.out.HistoryRecords = len(visible)
	v.out.HistoryTokens = w.Tokens
	if memoryBlock != "" {
		v.out.MemoryTokens = env.counter().Count(memoryBlock)
	}
	return v, nil
}

// hintEvent is what a prompt shows of a record; the target's outcomes are
// what is being predicted, so they are left out.
func hintEvent(e behavior.Event, withOutcomes bool) hint.Event {
	h := hint.Event{Scene: e.Scene, Attrs: ShownAttrs(e)}
	if withOutcomes {
		h.Outcomes = e.Outcomes
	}
	return h
}

// ShownAttrs is e's attributes less the identifiers its rendered text does
// not show (OmniBehavior's product_id): the sim reads attributes as its
// parse of the record, so an ID the prompt leaves out must not reach it.
// Other attributes are shown or derived from what is shown (a duration
// band from the duration).
func ShownAttrs(e behavior.Event) map[string]string {
	var out map[string]string
	for k, v := range e.Attrs {
		if isIDKey(k) && !strings.Contains(e.Context, v) && !strings.Contains(e.Result, v) {
			if out == nil {
				out = maps.Clone(e.Attrs)
			}
			delete(out, k)
		}
	}
	if out == nil {
		return e.Attrs
	}
	return out
}

func isIDKey(k string) bool {
	k = strings.ToLower(k)
	return k == "id" || strings.HasSuffix(k, "_id")
}

// AnswerParser returns the answer parser for a question under a
// Spec.Parser choice.
func AnswerParser(q behavior.Question, choice string) func(string) (string, bool) {
	switch {
	case q.Kind == behavior.MultiClass:
		return func(s string) (string, bool) { return ParseRating(s, q.Classes) }
	case choice == ParserSource:
		return ParseBinarySource
	}
	return ParseBinary
}

// ask sends the prompt as one user message (no system prompt, as the
// reference) and redraws invalid answers up to env's attempt limit.
func (b base) ask(ctx context.Context, env Env, inst behavior.Instance, v view) (Outcome, error) {
	if env.Model == nil {
		return Outcome{}, fmt.Errorf("method %s: no model", b.name)
	}
	parse := AnswerParser(inst.Question, b.parser)
	req := llm.Request{
		Purpose:  PurposePredict,
		Messages: []llm.Message{{Role: "user", Content: v.prompt}},
		Params:   b.params,
		SampleID: inst.ID,
		// Methods share the instance (and its cached answers) but each
		// answers it once: the meter counts (method, instance).
		Unit:     b.name + "/" + inst.ID,
		Affinity: inst.User,
		Hint:     v.requestHint(),
	}
	out := v.out
	out.Prompt = v.prompt
	return Answer(ctx, env.Model, env.Draws(), b.name, req, ReplyReader(b.parser), parse, out)
}

// ReplyReader is what a parser choice reads of a reply: the release's
// evaluator parses message.content as it came, reasoning blocks included;
// our own parser reads the text without them.
func ReplyReader(choice string) func(llm.Response) string {
	if choice == ParserSource {
		return llm.Response.Reply
	}
	return func(r llm.Response) string { return r.Text }
}

// Answer sends req to model and redraws an invalid answer (one parse
// rejects) up to attempts times, each draw under its attempt number so the
// cache keeps them apart; req.Accept is set from parse over what reply
// reads of a response. It adds each call's
// counts, usage and latency to out and keeps the last reply; out.Valid and
// out.Pred are set by the first answer that parses. An answer still invalid
// after the last attempt is not an error: it is counted as invalid. The one
// answering loop of every prediction method.
func Answer(ctx context.Context, model llm.Model, attempts int, method string, req llm.Request, reply func(llm.Response) string, parse func(string) (string, bool), out Outcome) (Outcome, error) {
	req.Accept = func(r llm.Response) bool { _, ok := parse(reply(r)); return ok }
	for a := 0; a < attempts; a++ {
		if err := ctx.Err(); err != nil {
			return out, fmt.Errorf("method %s: %s: %w", method, req.SampleID, err)
		}
		req.Attempt = a
		resp, err := model.Generate(ctx, req)
		if err != nil {
			return out, fmt.Errorf("method %s: %s attempt %d: %w", method, req.SampleID, a, err)
		}
		out.Attempts = a + 1
		out.Calls++
		if resp.Cached {
			out.CachedCalls++
		}
		out.Usage = out.Usage.Add(resp.Usage)
		out.Latency += resp.Latency
		out.Raw, out.Reasoning = reply(resp), resp.Reasoning
		if label, ok := parse(reply(resp)); ok {
			out.Pred, out.Valid = label, true
			return out, nil
		}
	}
	return out, nil
}
