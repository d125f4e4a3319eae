package mcpmemory

import (
	"context"
	"strings"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm/gateway"
	"github.com/memharness/memharness/methods/predict"
)

// Item is one record of a history as the write tool receives it: its
// text, and the scene and time the write template may name. A behaviour
// user's practice records become items through the prompts' record
// format; a family whose history is of another kind (a conversation's
// turns) hands over items of its own.
type Item struct {
	Text  string
	Scene string
	Time  string
}

// eventItems is practice as items, made when a server is built: each
// record as the prompts show it (a record as a memory stores it, without
// its line end), with its raw scene where the data kept one.
func (m *Method) eventItems(env predict.Env, practice []behavior.Event) func() ([]Item, error) {
	return func() ([]Item, error) {
		p := m.ev.Prompts(env)
		out := make([]Item, len(practice))
		for i, e := range practice {
			text, err := p.Record(e)
			if err != nil {
				return nil, err
			}
			scene := e.RawScene
			if scene == "" {
				scene = e.Scene
			}
			out[i] = Item{Text: strings.TrimRight(text, "\n"), Scene: scene, Time: e.Time}
		}
		return out, nil
	}
}

// PrepareItems writes user's history to a fresh server (one write call per
// item, oldest first, with env's build model lent to the server's
// gateway) and keeps the server for user's searches. A user whose server
// already runs is not written again.
func (m *Method) PrepareItems(ctx context.Context, env predict.Env, user string, items []Item) (predict.Memory, error) {
	return m.prepare(ctx, env, user, func() ([]Item, error) { return items, nil })
}

// prepare has user's server running, built from history when none runs,
// and reports what it holds.
func (m *Method) prepare(ctx context.Context, env predict.Env, user string, history func() ([]Item, error)) (predict.Memory, error) {
	srv, written, release, err := m.acquire(ctx, env, user, history)
	if err != nil {
		return predict.Memory{}, err
	}
	defer release()
	m.keepStderr(env, user, srv)
	return predict.Memory{Meta: map[string]any{"stored": written, "server": srv.info,
		"write_tool": m.c.Write.Tool, "search_tool": m.c.Search.Tool}}, nil
}

// Search calls the search tool of user's server for query (the template's
// {query}; scene is its {scene}) and returns the memories Keep keeps. A
// user with no running server (a resumed run, or a server let go) gets a
// fresh one with items written first, in the same order as PrepareItems
// writes them, so the store is rebuilt deterministically. unit names the
// question in the call record and in the gateway's scope.
func (m *Method) Search(ctx context.Context, env predict.Env, user string, items []Item, unit, query, scene string) ([]string, error) {
	texts, err := m.search(ctx, env, user, func() ([]Item, error) { return items, nil }, unit, query, scene)
	if err != nil {
		return nil, err
	}
	return m.Keep(env, texts), nil
}

// search is every memory the search tool returns for query, from user's
// server (built from history when none runs).
func (m *Method) search(ctx context.Context, env predict.Env, user string, history func() ([]Item, error), unit, query, scene string) ([]string, error) {
	srv, _, release, err := m.acquire(ctx, env, user, history)
	if err != nil {
		return nil, err
	}
	defer release()
	args := m.c.search.fill(map[string]any{"user": user, "query": query, "scene": scene, "k": m.topK})
	sc := gateway.Scope{Model: env.Model, SampleID: unit + "/search", Unit: m.name + "/" + unit, Affinity: user}
	res, err := srv.scopedCall(ctx, sc, m.c.Search.Tool, args)
	if err != nil {
		m.keepStderr(env, user, srv)
		return nil, err
	}
	texts, err := readResult(m.c, res)
	if err != nil {
		return nil, srv.fail("read the result of "+m.c.Search.Tool, err)
	}
	return texts, nil
}

// Keep is the memories of a search that a prompt shows: top_k of them
// (the first or the last the server listed, as search.take says), while
// they fit memory_tokens under env's token counter.
func (m *Method) Keep(env predict.Env, texts []string) []string {
	if len(texts) > m.topK {
		if m.c.Search.Take == "last" {
			texts = texts[len(texts)-m.topK:]
		} else {
			texts = texts[:m.topK]
		}
	}
	c := env.TokenCounter()
	var kept []string
	used := 0
	for _, t := range texts {
		n := c.Count(t)
		if used+n > m.memTokens {
			break
		}
		used += n
		kept = append(kept, t)
	}
	return kept
}

// TopK is the most memories a search shows (top_k, or its default).
func (m *Method) TopK() int { return m.topK }
