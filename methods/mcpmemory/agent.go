package mcpmemory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/atomicfile"
	"github.com/memharness/memharness/llm/gateway"
	"github.com/memharness/memharness/methods/agent"
)

// AgentEntry describes the kind as an agent method of a lifelong run
// (registered in lifelong.DefaultMethods): the same server mapping as the
// prediction kind, with the server as the method's experience store.
func AgentEntry() agent.Entry {
	return agent.Entry{
		Kind: Kind,
		About: "any MCP memory server (stdio command or streamable-HTTP url) as the experience store: each successful training trajectory " +
			"written through its write tool, the trajectories its search tool returns for a task shown as exemplars",
		New:        NewAgent,
		Keys:       []string{"top_k"},
		Options:    Options{},
		Check:      checkAgent,
		NoEmbedder: true,
		SimReaders: agent.SimReaders,
		// A command server calls the backbone through the gateway it is
		// served.
		GatewayPurposes: true,
		Memory: agent.Inspector{Summary: func(dir string) (string, bool) {
			st, ok, err := loadAgentState(filepath.Join(dir, "state"))
			if err != nil || !ok {
				return "", false
			}
			return fmt.Sprintf("%d trajectories written to the MCP server (its store is not copied)", len(st.Records)), true
		}},
	}
}

// DefaultAgentTopK is the number of trajectories shown per task when
// top_k is not set (Synapse's count in its code).
const DefaultAgentTopK = 3

// AgentMethod is the mcp_memory kind as an agent method. Learn writes each
// successful trajectory of a batch to the server (one write call each, in
// stream order); Agent searches the server for the task and shows the
// trajectories it returns as exemplars, and any memory text that is not a
// written trajectory (a server that rewrites what it stores) as rules.
//
// The harness keeps the list of trajectories written, in order, as the
// method's saved state, never a copy of the server's store: a command
// server is started on first use and, after a resume or when it was let
// go, the list is written to a fresh server again, which rebuilds the
// store deterministically. A url server keeps its own store across runs,
// so a resumed run writes to it only what it learns from then on.
type AgentMethod struct {
	name string
	c    compiled
	topK int

	mu      sync.Mutex
	ns      string             // the {user} of the method's calls; set by the first Learn, Agent or Restore
	written []agent.Trajectory // written (or to be written) to the server, in order
	byText  map[string]int     // a written record's text → its index in written
	srv     *server
	synced  int // records of written the running server holds
	// base is the context servers are started under: the run's (the first
	// Learn's or Restore's), never an episode's, whose end would stop a
	// server the next episode needs.
	base context.Context
}

// NewAgent builds the agent kind from its spec.
func NewAgent(s agent.Spec) (agent.Method, error) {
	o, err := agent.OptionsOf[Options](s)
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
	k := s.TopK
	if k <= 0 {
		k = DefaultAgentTopK
	}
	name := s.Name
	if name == "" {
		name = Kind
	}
	return &AgentMethod{name: name, c: c, topK: k, byText: map[string]int{}}, nil
}

func checkAgent(s agent.Spec) []string {
	o, err := agent.OptionsOf[Options](s)
	if err != nil {
		return []string{err.Error()}
	}
	_, errs := compile(o)
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Field + ": " + e.Msg
	}
	return out
}

// Name implements agent.Method.
func (m *AgentMethod) Name() string { return m.name }

// namespace is the {user} of the method's calls: its name, and for a
// method learning one environment alone (a lifelong run's self-learn
// cell, whose state lives in self/<env>/state) the environment too, so
// methods sharing a url server never share memories.
func (m *AgentMethod) namespace(env agent.Env) string {
	if env.Dir != "" {
		parent := filepath.Dir(filepath.Clean(env.Dir))
		if filepath.Base(filepath.Dir(parent)) == "self" {
			return m.name + "/self/" + filepath.Base(parent)
		}
	}
	return m.name
}

// recordText is what one trajectory is stored as: its environment and
// task, then its messages, one per line with the role in front.
func recordText(t agent.Trajectory) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] task: %s", t.Env, strings.TrimSpace(t.Task))
	for _, msg := range t.Messages {
		fmt.Fprintf(&b, "\n%s: %s", msg.Role, strings.TrimSpace(msg.Content))
	}
	return strings.TrimSpace(b.String())
}

// Learn implements agent.Method: each successful trajectory is written to
// the server, oldest first.
func (m *AgentMethod) Learn(ctx context.Context, env agent.Env, batch []agent.Trajectory) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ns == "" {
		m.ns = m.namespace(env)
	}
	if m.base == nil {
		m.base = ctx
	}
	for _, t := range batch {
		if !t.Success {
			continue
		}
		text := recordText(t)
		if _, ok := m.byText[text]; !ok {
			m.byText[text] = len(m.written)
		}
		m.written = append(m.written, t)
	}
	_, err := m.server(ctx, env)
	return err
}

// server returns the running server holding every written record,
// starting one and writing the records it lacks first. m.mu is held.
func (m *AgentMethod) server(ctx context.Context, env agent.Env) (*server, error) {
	if m.srv != nil && m.srv.dead.Load() {
		m.srv = nil
	}
	if m.srv == nil {
		base := m.base
		if base == nil {
			base = ctx
		}
		// A command server is served a model gateway of its own over the
		// run's models, as the prediction kind's are: each tool call binds
		// it to the call's scope (the build model while writing, the
		// acting model while searching), so a server that calls a model
		// on a write (mem0's extraction) is metered and recorded too.
		// (A method handed no model, as in a unit test, serves none.)
		var gwo *gateway.Options
		if env.Model != nil {
			gwo = &gateway.Options{Model: env.Model, Embedder: env.Embedder, Method: gatewayName(m.name)}
		}
		srv, err := startServer(base, m.c, m.name, m.ns, gwo)
		if err != nil {
			return nil, err
		}
		m.srv = srv
		if m.c.Server.URL == "" {
			m.synced = 0 // a fresh child holds nothing
		}
	}
	for m.synced < len(m.written) {
		i := m.synced
		t := m.written[i]
		args := m.c.write.fill(map[string]any{"user": m.ns, "text": recordText(t), "index": i + 1,
			"scene": t.Env, "time": strconv.Itoa(i + 1)})
		// A write is construction: the build model, one unit per record.
		unit := fmt.Sprintf("%s/%s/write/%d", m.name, m.ns, i+1)
		sc := gateway.Scope{Model: env.Builder(), SampleID: unit, Unit: unit, Affinity: m.ns}
		if _, err := m.srv.scopedCall(ctx, sc, m.c.Write.Tool, args); err != nil {
			return nil, fmt.Errorf("%w\n  (trajectory %s, record %d of %d)", err, t.ID, i+1, len(m.written))
		}
		m.synced++
	}
	return m.srv, nil
}

// EndStage implements agent.Method; every record is written by Learn.
func (m *AgentMethod) EndStage(context.Context, agent.Env) error { return nil }

// Agent implements agent.Method: the task's retrieval key searches the
// server, and what it returns is shown in the acting prompt.
func (m *AgentMethod) Agent(ctx context.Context, env agent.Env, s envs.Suite, t envs.Task) (envs.Agent, error) {
	return agent.RetrieveThenAct(ctx, s, t, func(ctx context.Context, query string) (envs.Agent, error) {
		ex, rules, err := m.retrieve(ctx, env, s.Name(), t.ID, query)
		if err != nil {
			return nil, err
		}
		pr, shots := env.Prompts.For(s.Name())
		return agent.NewAgent(agent.AgentConfig{
			Model: env.Model, Suite: s, Exemplars: ex, Rules: rules,
			Sampling: env.Sampling.For(agent.SampleAct, s.Name()), Method: m.name,
			Prompter: pr, FewShots: shots,
		}), nil
	})
}

// retrieve searches the server for query and splits the memories it
// returns (the first or last top_k, per search.take) into written
// trajectories and other texts.
func (m *AgentMethod) retrieve(ctx context.Context, env agent.Env, suite, task, query string) ([]agent.Trajectory, []string, error) {
	m.mu.Lock()
	if m.ns == "" {
		m.ns = m.namespace(env)
	}
	if len(m.written) == 0 && m.srv == nil {
		m.mu.Unlock()
		return nil, nil, nil // nothing learned yet: no server to ask
	}
	srv, err := m.server(ctx, env)
	m.mu.Unlock()
	if err != nil {
		return nil, nil, err
	}
	args := m.c.search.fill(map[string]any{"user": m.ns, "query": query, "scene": suite, "k": m.topK})
	unit := m.name + "/" + suite + "/" + task + "/search"
	res, err := srv.scopedCall(ctx, gateway.Scope{Model: env.Model, SampleID: unit, Unit: unit, Affinity: m.ns}, m.c.Search.Tool, args)
	if err != nil {
		return nil, nil, err
	}
	texts, err := readResult(m.c, res)
	if err != nil {
		return nil, nil, srv.fail("read the result of "+m.c.Search.Tool, err)
	}
	if len(texts) > m.topK {
		if m.c.Search.Take == "last" {
			texts = texts[len(texts)-m.topK:]
		} else {
			texts = texts[:m.topK]
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var ex []agent.Trajectory
	var rules []string
	for _, text := range texts {
		if i, ok := m.byText[strings.TrimSpace(text)]; ok {
			ex = append(ex, m.written[i])
		} else {
			rules = append(rules, text)
		}
	}
	return ex, rules, nil
}

// agentState is the method's saved state: the records written, in order.
type agentState struct {
	Namespace string             `json:"namespace"`
	Records   []agent.Trajectory `json:"records"`
}

const agentStateFile = "mcp_memory.json"

// Save implements agent.Method.
func (m *AgentMethod) Save(_ context.Context, env agent.Env) error {
	if env.Dir == "" {
		return errors.New("mcp_memory: env.Dir is empty")
	}
	m.mu.Lock()
	st := agentState{Namespace: m.ns, Records: m.written}
	data, err := json.Marshal(st)
	m.mu.Unlock()
	if err != nil {
		return fmt.Errorf("mcp_memory: save: %w", err)
	}
	if err := os.MkdirAll(env.Dir, 0o755); err != nil {
		return fmt.Errorf("mcp_memory: save: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(env.Dir, agentStateFile), data); err != nil {
		return fmt.Errorf("mcp_memory: save: %w", err)
	}
	return nil
}

func loadAgentState(dir string) (agentState, bool, error) {
	var st agentState
	path := filepath.Join(dir, agentStateFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return st, false, nil
	}
	if err != nil {
		return st, false, fmt.Errorf("mcp_memory: restore: %w", err)
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return st, false, fmt.Errorf("mcp_memory: restore: %s: %w", path, err)
	}
	return st, true, nil
}

// Restore implements agent.Method: the records written before are
// written again to the server the method starts on its next use.
func (m *AgentMethod) Restore(ctx context.Context, env agent.Env) (bool, error) {
	st, ok, err := loadAgentState(env.Dir)
	if !ok || err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.srv != nil {
		m.srv.close()
		m.srv = nil
	}
	m.ns = st.Namespace
	m.base = ctx
	m.written = st.Records
	m.byText = map[string]int{}
	for i, t := range st.Records {
		if _, ok := m.byText[recordText(t)]; !ok {
			m.byText[recordText(t)] = i
		}
	}
	m.synced = 0
	if m.c.Server.URL != "" {
		m.synced = len(m.written) // the url server kept them
	}
	return true, nil
}

// Close stops the method's server.
func (m *AgentMethod) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.srv != nil {
		m.srv.close()
		m.srv = nil
	}
	return nil
}
