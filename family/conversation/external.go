package conversation

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/memharness/memharness/backbone"
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/llm/gateway"
	"github.com/memharness/memharness/methods/external"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/runrecord"
)

// externalMethod runs an external method (docs/PROTOCOL.md) on a
// conversation as it runs on a user's behaviour history: the conversation
// is the user (its sample ID), its turns are the records of its past
// (history, then prepare and save on its first question), and each
// question is a predict request of kind "text" whose target is the
// question. The reply's three forms keep their meaning: a window of turns
// and a memory for this family's answer prompt, a prompt of the method's
// own, or its own answer.
type externalMethod struct {
	x        *external.Method
	env      predict.Env
	prepared map[string]bool
}

// turnRecords are c's turns as protocol records: text as the answer
// prompt shows the turn, its token cost under the run's counter (what a
// budget counts, so a window the method chooses is the built-in one's),
// the session's date as time, the session's ID as scene, the turn's text
// as context, and its speaker and dia_id as attributes.
func turnRecords(c *conv, env predict.Env) []external.Record {
	out := make([]external.Record, len(c.turns))
	for i, t := range c.turns {
		text := renderTurn(t)
		attrs := map[string]string{"speaker": t.Speaker}
		if t.DiaID != "" {
			attrs["dia_id"] = t.DiaID
		}
		out[i] = external.Record{Index: i, Text: text, Tokens: env.TokenCounter().Count(text), Time: t.Date,
			Scene: c.Sessions[c.session[i]].ID, Context: t.Text, Attrs: attrs}
	}
	return out
}

func (m *externalMethod) Context(ctx context.Context, c *conv, q memqa.Question) (view, error) {
	if !m.prepared[c.SampleID] {
		if _, err := m.x.PrepareRecords(ctx, m.env, c.SampleID, "", turnRecords(c, m.env)); err != nil {
			return view{}, err
		}
		m.prepared[c.SampleID] = true
	}
	n := len(c.turns)
	res, err := m.x.Ask(ctx, m.env, external.PredictParams{
		User: c.SampleID, Instance: q.ID, HistoryLength: n, Prepared: n, Recent: []external.Record{},
		Scene:  external.QuestionScene,
		Target: external.Target{Index: n, Time: q.Date, Scene: external.QuestionScene, Context: q.Question},
		Question: external.Question{Field: external.FieldAnswer, Kind: external.KindText, Text: q.Question,
			Allowed: []string{}},
	})
	if err != nil {
		return view{}, err
	}
	switch {
	case res.HistoryFrom != nil:
		from := *res.HistoryFrom
		if from < 0 || from > n {
			return view{}, fmt.Errorf("external method %s: history_from %d for %s is outside 0..%d", m.x.Name(), from, q.ID, n)
		}
		return view{Turns: c.turns[from:], Memory: memoryLines(res.Memory)}, nil
	case res.Prompt != nil:
		return view{Prompt: res.Prompt}, nil
	case res.Answer != nil:
		return view{Answer: res.Answer}, nil
	}
	return view{}, fmt.Errorf("external method %s: the predict reply for %s has none of history_from, prompt and answer", m.x.Name(), q.ID)
}

// Estimate is what a plan counts for the method: every turn (the most a
// window shows; the method's choice is not known before the run).
func (m *externalMethod) Estimate(c *conv, _ memqa.Question) view { return view{Turns: c.turns} }

// memoryLines are a memory block's non-empty lines, list markers dropped:
// the entries the answer prompt shows.
func memoryLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- ")); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// startExternal serves each external method a model gateway of its own
// over the run's model stack (and each mcp_memory method one for every
// server it starts) and starts its first child before the first
// question (a child that cannot start fails the run before anything is
// paid for); it returns what the manifest records of them.
func startExternal(ctx context.Context, methods []method, dir string, cfg *config.Config, back *backbone.Backbone) ([]runrecord.ExternalMethod, error) {
	var out []runrecord.ExternalMethod
	for _, m := range methods {
		if x, ok := m.(*mcpMethod); ok {
			// Each server it starts as a child gets a gateway of its own.
			x.m.ServeGateway(gateway.Options{Model: back.Model, Embedder: back.Embedder, ModelName: back.ModelName})
			continue
		}
		x, ok := m.(*externalMethod)
		if !ok {
			continue
		}
		gw, err := gateway.Start(ctx, gateway.Options{Model: back.Model, Embedder: back.Embedder, Method: x.x.GatewayName(), ModelName: back.ModelName})
		if err != nil {
			return nil, fmt.Errorf("method %s: %w", x.x.Name(), err)
		}
		x.x.ServeGateway(gw)
		d, err := x.x.Start(ctx, external.Launch{Dir: dir, Family: external.FamilyConversation,
			Run: external.RunInfo{Name: cfg.Name, Task: cfg.Task, Seed: cfg.Seed, Language: cfg.Prompt.Language}})
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// closeMethods ends what the methods hold beyond a call (children, their
// gateways), however the run ended.
func closeMethods(ms []method) {
	for _, m := range ms {
		if c, ok := m.(io.Closer); ok {
			_ = c.Close()
		}
	}
}

// Close ends the method's children and its gateway.
func (m *externalMethod) Close() error { return m.x.Close() }
