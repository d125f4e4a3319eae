package mcpmemory

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm/gateway"
	"github.com/memharness/memharness/methods/predict"
)

// Kind is the name a config's methods[].kind selects.
const Kind = "mcp_memory"

// maxLive bounds the servers kept running between calls: the runner works
// through one user's instances at a time per worker, so a few suffice; a
// user whose server was let go gets a fresh one, rebuilt from the history.
const maxLive = 8

// Method is the mcp_memory kind: each user's practice history is written
// to an MCP server record by record through the write tool, and each
// question is answered with the memories the search tool returns, in the
// RAG memory block after the truncated history (the prompt RAG sends).
//
// A stdio server is started per (method, user) with a state folder of its
// own, so users never share a store; a url server is shared and kept apart
// by the {user} its arguments must carry. The harness keeps no copy of a
// server's store: a resumed run (or a user whose server was let go) starts
// a fresh server and writes the same records again, in the same order, so
// the store is rebuilt deterministically.
type Method struct {
	ev        predict.Evaluator
	name      string
	c         compiled
	topK      int
	memTokens int

	mu   sync.Mutex
	gw   *gateway.Options // see ServeGateway; nil: no gateway
	live map[string]*liveServer
	tick int
}

// liveServer is one user's server and its use count, so that a server in
// use is never let go under a call.
type liveServer struct {
	once    sync.Once
	srv     *server
	err     error
	refs    int
	used    int // tick of the last use, for letting the oldest go
	written int
}

// New builds the kind from its spec.
func New(s predict.Spec) (predict.Method, error) {
	o, err := predict.OptionsOf[Options](s)
	if err != nil {
		return nil, err
	}
	c, errs := compile(o)
	if len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.Field + ": " + e.Msg
		}
		return nil, fmt.Errorf("method %s: %s", s.Name, strings.Join(msgs, "; "))
	}
	ev, err := predict.NewEvaluator(s)
	if err != nil {
		return nil, err
	}
	topK := s.TopK
	if topK <= 0 {
		topK = predict.DefaultTopK
	}
	mem := s.MemoryTokens
	if mem <= 0 {
		mem = predict.DefaultRAGMemoryTokens
	}
	return &Method{ev: ev, name: ev.Name(), c: c, topK: topK, memTokens: mem, live: map[string]*liveServer{}}, nil
}

// Name is the method's name.
func (m *Method) Name() string { return m.name }

// PrepareUser writes the user's practice history (the records before the
// first test action) to a fresh server and keeps the server for the
// user's questions.
func (m *Method) PrepareUser(ctx context.Context, env predict.Env, u behavior.UserSet) (predict.Memory, error) {
	if len(u.Instances) == 0 {
		return predict.Memory{}, nil
	}
	first := u.Instances[0]
	return m.prepare(ctx, env, u.User, m.eventItems(env, first.History[:first.PracticeCut]))
}

// Predict searches the user's memories for the target and answers with
// the top_k of them that fit memory_tokens in the RAG memory block.
func (m *Method) Predict(ctx context.Context, env predict.Env, _ predict.Memory, inst behavior.Instance) (predict.Outcome, error) {
	scene := inst.Target.RawScene
	if scene == "" {
		scene = inst.Target.Scene
	}
	texts, err := m.search(ctx, env, inst.User, m.eventItems(env, inst.History[:inst.PracticeCut]), inst.ID,
		scene+"\n"+inst.Target.Context, scene)
	if err != nil {
		return predict.Outcome{}, err
	}
	block, err := m.block(env, texts)
	if err != nil {
		return predict.Outcome{}, err
	}
	return m.ev.Predict(ctx, env, inst, block, "")
}

// readResult turns a search result into memory texts, as c's
// search.results says.
func readResult(c compiled, res *mcp.CallToolResult) ([]string, error) {
	if c.results == nil {
		var out []string
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok && strings.TrimSpace(t.Text) != "" {
				out = append(out, t.Text)
			}
		}
		return out, nil
	}
	var doc any
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return nil, fmt.Errorf("structured content: %w", err)
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			return nil, fmt.Errorf("structured content: %w", err)
		}
	} else {
		var parts []string
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				parts = append(parts, t.Text)
			}
		}
		text := strings.Join(parts, "")
		if err := json.Unmarshal([]byte(text), &doc); err != nil {
			return nil, fmt.Errorf("no structured content, and the text content is not JSON (search.results %q needs JSON): %v; text: %s",
				c.Search.Results, err, clip(text, 200))
		}
	}
	texts, err := selectTexts(doc, c.results)
	if err != nil {
		return nil, fmt.Errorf("search.results %q: %w", c.Search.Results, err)
	}
	return texts, nil
}

// block keeps top_k memories (the first or the last the server listed)
// while they fit memory_tokens, and wraps them in the RAG memory block.
func (m *Method) block(env predict.Env, texts []string) (string, error) {
	kept := m.Keep(env, texts)
	if len(kept) == 0 {
		return "", nil
	}
	return m.ev.Prompts(env).RAGMemory(strings.Join(kept, "\n"))
}

// acquire returns the user's running server, starting one and writing
// the user's history (the items history gives, called only then) to it
// first when there is none. release must be called when the caller is
// done with it.
func (m *Method) acquire(ctx context.Context, env predict.Env, user string, history func() ([]Item, error)) (*server, int, func(), error) {
	m.mu.Lock()
	ls := m.live[user]
	if ls == nil || ls.srv != nil && ls.srv.dead.Load() {
		ls = &liveServer{}
		m.live[user] = ls
	}
	ls.refs++
	m.tick++
	ls.used = m.tick
	m.letGo()
	m.mu.Unlock()
	release := func() {
		m.mu.Lock()
		ls.refs--
		m.letGo()
		m.mu.Unlock()
	}
	ls.once.Do(func() {
		ls.srv, ls.written, ls.err = m.build(ctx, env, user, history)
	})
	if ls.err != nil {
		m.mu.Lock()
		if m.live[user] == ls {
			delete(m.live, user)
		}
		m.mu.Unlock()
		release()
		return nil, 0, nil, ls.err
	}
	return ls.srv, ls.written, release, nil
}

// letGo closes the least recently used idle servers beyond maxLive.
// m.mu is held.
func (m *Method) letGo() {
	for len(m.live) > maxLive {
		var oldest string
		for u, ls := range m.live {
			if ls.refs == 0 && ls.srv != nil && (oldest == "" || ls.used < m.live[oldest].used) {
				oldest = u
			}
		}
		if oldest == "" {
			return // every server is in use
		}
		m.live[oldest].srv.close()
		delete(m.live, oldest)
	}
}

// build starts a server for user and writes the history's items to it,
// one write call per item, oldest first.
func (m *Method) build(ctx context.Context, env predict.Env, user string, history func() ([]Item, error)) (*server, int, error) {
	items, err := history()
	if err != nil {
		return nil, 0, err
	}
	m.mu.Lock()
	gwo := m.gw
	m.mu.Unlock()
	srv, err := startServer(ctx, m.c, m.name, user, gwo)
	if err != nil {
		m.keepStderrOf(env, user, err)
		return nil, 0, err
	}
	for i, it := range items {
		args := m.c.write.fill(map[string]any{"user": user, "text": it.Text, "index": i + 1, "scene": it.Scene, "time": it.Time})
		// A write is construction: the build model, one sample per record.
		sc := gateway.Scope{Model: env.Builder(), SampleID: fmt.Sprintf("%s/%s/write/%d", m.name, user, i+1),
			Unit: fmt.Sprintf("%s/%s/write/%d", m.name, user, i+1), Affinity: user}
		if _, err := srv.scopedCall(ctx, sc, m.c.Write.Tool, args); err != nil {
			m.keepStderr(env, user, srv)
			srv.close()
			return nil, 0, fmt.Errorf("%w\n  (record %d of %d)", err, i+1, len(items))
		}
	}
	return srv, len(items), nil
}

// StderrCheckpoint is the name of the checkpoint that keeps a user's
// server's last stderr lines in the run directory.
func StderrCheckpoint(method string) string { return "mcp-stderr." + method }

// keepStderr stores the server's stderr tail with the user's checkpoints
// (checkpoints/<user>/mcp-stderr.<method>.json), so a failure's context
// outlives the process.
func (m *Method) keepStderr(env predict.Env, user string, srv *server) {
	m.saveStderr(env, user, srv.stderr.String())
}

func (m *Method) keepStderrOf(env predict.Env, user string, err error) {
	var se *ServerError
	if ok := asServerError(err, &se); ok {
		m.saveStderr(env, user, se.Stderr)
	}
}

func (m *Method) saveStderr(env predict.Env, user, text string) {
	if env.Checkpoints == nil || text == "" {
		return
	}
	_ = env.Checkpoints.Save(user, StderrCheckpoint(m.name), struct {
		Lines []string `json:"lines"`
	}{strings.Split(strings.TrimRight(text, "\n"), "\n")})
}

// Close stops every server the method still runs.
func (m *Method) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for u, ls := range m.live {
		if ls.srv != nil {
			ls.srv.close()
		}
		delete(m.live, u)
	}
	return nil
}
