package external

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/atomicfile"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/gateway"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/runrecord"
)

// FamilyLifelong is the family an agent method's init names.
const FamilyLifelong = "lifelong"

// AgentOptions are the kind's own keys in a lifelong.methods[] block:
// those of the behaviour side less children and chunk_records (one child
// plays a method's episodes one after another).
type AgentOptions struct {
	Command      []string          `yaml:"command"`
	Dir          string            `yaml:"dir"`
	Env          map[string]string `yaml:"env"`
	URL          string            `yaml:"url"`
	Timeout      string            `yaml:"timeout"`
	StartTimeout string            `yaml:"start_timeout"`
	Options      map[string]any    `yaml:"options"`
}

// AgentEntry is the kind's entry among the agent method kinds.
func AgentEntry() agent.Entry {
	return agent.Entry{
		Kind:       Kind,
		About:      "an agent method of one's own in any language: a child process (command:) or an HTTP service (url:) speaking docs/PROTOCOL.md",
		New:        NewAgent,
		Options:    AgentOptions{},
		SimReaders: agent.SimReaders,
		// A child calls the backbone through the gateway it is served.
		GatewayPurposes: true,
	}
}

// AgentMethod is an external method as a lifelong agent method: the
// harness plays the episodes and asks the child for each action; the
// child learns at each stage's batches and keeps its state through save
// and load.
type AgentMethod struct {
	core *Method

	// mu orders the session's requests (one child, one request at a time).
	mu     sync.Mutex
	served bool // the gateway was started (or could not be: gwErr)
	gwErr  error
	learnN int
}

// NewAgent builds an external agent method from its spec; nothing starts
// until the first request.
func NewAgent(s agent.Spec) (agent.Method, error) {
	o, err := agent.OptionsOf[AgentOptions](s)
	if err != nil {
		return nil, err
	}
	name := s.Name
	if name == "" {
		name = s.Kind
	}
	core, err := newCore(name, Options{Command: o.Command, Dir: o.Dir, Env: o.Env, URL: o.URL, Timeout: o.Timeout,
		StartTimeout: o.StartTimeout, Options: o.Options})
	if err != nil {
		return nil, err
	}
	return &AgentMethod{core: core}, nil
}

// Name implements agent.Method.
func (m *AgentMethod) Name() string { return m.core.name }

// Describe is what the manifest records of the method (its version once
// a session has started).
func (m *AgentMethod) Describe() runrecord.ExternalMethod { return m.core.Describe() }

// Close ends the child and the gateway.
func (m *AgentMethod) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.core.Close()
}

// session starts the child (and the model gateway it is handed) at the
// first request. m.mu is held.
func (m *AgentMethod) session(ctx context.Context, env agent.Env) (*slot, error) {
	if !m.served {
		m.served = true
		gw, err := gateway.Start(context.Background(), gateway.Options{Model: env.Model, Embedder: env.Embedder,
			Method: m.core.GatewayName()})
		if err != nil {
			m.gwErr = fmt.Errorf("method %s: %w", m.core.name, err)
		} else {
			m.core.ServeGateway(gw)
		}
		launch := Launch{Family: FamilyLifelong, Run: RunInfo{Seed: env.Seed}}
		if env.Dir != "" {
			// The method's folder of the run (env.Dir is its state/).
			launch.Dir = filepath.Dir(env.Dir)
		}
		m.core.mu.Lock()
		m.core.launch = launch
		m.core.mu.Unlock()
	}
	if m.gwErr != nil {
		return nil, m.gwErr
	}
	s := m.core.slots[0]
	if err := m.core.ensure(ctx, s); err != nil {
		return nil, err
	}
	return s, nil
}

// request sends one request under scope sc; setScope puts the scope's ID
// into params.
func (m *AgentMethod) request(ctx context.Context, env agent.Env, sc gateway.Scope, method string, params any, setScope func(string), out any) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.session(ctx, env)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return m.core.scopedCall(ctx, s, sc, method, params, setScope, out)
}

// buildScope is the scope of a learning request: the build model, a
// sample ID that names the request and its content, so a re-run draws the
// same answers.
func (m *AgentMethod) buildScope(env agent.Env, step string) gateway.Scope {
	return gateway.Scope{Model: env.Builder(), SampleID: m.core.name + "/" + step, Unit: m.core.name + "/" + step}
}

// Learn implements agent.Method: one learn request per batch.
func (m *AgentMethod) Learn(ctx context.Context, env agent.Env, batch []agent.Trajectory) error {
	h := fnv.New64a()
	for _, t := range batch {
		fmt.Fprintf(h, "%s\x00%s\x00", t.Env, t.ID)
	}
	p := LearnParams{Batch: m.learnN, Trajectories: trajectories(batch)}
	m.learnN++
	sc := m.buildScope(env, fmt.Sprintf("learn/%016x", h.Sum64()))
	return m.request(ctx, env, sc, MethodLearn, &p, func(id string) { p.GatewayScope = id }, nil)
}

// EndStage implements agent.Method.
func (m *AgentMethod) EndStage(ctx context.Context, env agent.Env) error {
	p := ScopeParams{}
	sc := m.buildScope(env, fmt.Sprintf("end_stage/%d", m.learnN))
	return m.request(ctx, env, sc, MethodEndStage, &p, func(id string) { p.GatewayScope = id }, nil)
}

// stateFile is where the harness keeps the method's state in the run.
func (m *AgentMethod) stateFile(env agent.Env) (string, error) {
	if env.Dir == "" {
		return "", fmt.Errorf("method %s: no state directory", m.core.name)
	}
	return filepath.Join(env.Dir, "external."+safeFileName(m.core.name)+".state.json"), nil
}

// Save implements agent.Method: the state the method returns is kept in
// its folder of the run, beside the built-in kinds' states.
func (m *AgentMethod) Save(ctx context.Context, env agent.Env) error {
	path, err := m.stateFile(env)
	if err != nil {
		return err
	}
	p := ScopeParams{}
	var res SaveResult
	if err := m.request(ctx, env, m.buildScope(env, fmt.Sprintf("save/%d", m.learnN)), MethodSave, &p,
		func(id string) { p.GatewayScope = id }, &res); err != nil {
		return err
	}
	if len(res.State) == 0 {
		res.State = json.RawMessage("null")
	}
	if err := os.MkdirAll(env.Dir, 0o755); err != nil {
		return err
	}
	if err := atomicfile.Write(path, res.State); err != nil {
		return fmt.Errorf("method %s: keeping its state: %w", m.core.name, err)
	}
	return nil
}

// Restore implements agent.Method: the kept state is handed back with
// load (false when none was kept).
func (m *AgentMethod) Restore(ctx context.Context, env agent.Env) (bool, error) {
	path, err := m.stateFile(env)
	if err != nil {
		return false, err
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("method %s: reading its state: %w", m.core.name, err)
	}
	if !json.Valid(b) {
		return false, fmt.Errorf("method %s: its kept state %s is not JSON", m.core.name, path)
	}
	p := StateParams{State: b}
	if err := m.request(ctx, env, m.buildScope(env, "load"), MethodLoad, &p, func(id string) { p.GatewayScope = id }, nil); err != nil {
		return false, err
	}
	return true, nil
}

// Agent implements agent.Method: the episode's agent, which opens the
// task with the child at its first step.
func (m *AgentMethod) Agent(_ context.Context, env agent.Env, s envs.Suite, t envs.Task) (envs.Agent, error) {
	return &externalAgent{m: m, env: env, suite: s, task: t}, nil
}

// externalAgent plays one episode by asking the child for each action.
type externalAgent struct {
	m     *AgentMethod
	env   agent.Env
	suite envs.Suite
	task  envs.Task
	began bool
	// view is the shared agent's configuration with the experience the
	// method declared: the sim reads the child's acting calls through it.
	view agent.AgentConfig
}

func (a *externalAgent) sampleID(step string) string {
	return fmt.Sprintf("%s/%s/%s/%s", a.m.core.name, a.suite.Name(), a.task.ID, step)
}

// begin opens the task with its first observation.
func (a *externalAgent) begin(ctx context.Context, first string) error {
	_, shots := a.env.Prompts.For(a.suite.Name())
	hidden := envs.HidesInstruction(a.suite)
	info := TaskInfo{Env: a.suite.Name(), ID: a.task.ID, Instruction: a.task.Instruction}
	if hidden {
		info.Instruction = ""
	}
	sampling := a.env.Sampling.For(agent.SampleAct, a.suite.Name())
	p := BeginTaskParams{Task: info, Instructions: agent.Instructions(a.suite), Observation: first,
		MaxSteps: a.suite.MaxSteps(), FewShots: trajectories(shots), Sampling: openAIParams(sampling), HidesInstruction: hidden}
	var res BeginTaskResult
	sc := gateway.Scope{Model: a.env.Model, Purpose: agent.PurposeAct, SampleID: a.sampleID("begin"),
		Affinity: a.suite.Name() + "/" + a.task.ID}
	if err := a.m.request(ctx, a.env, sc, MethodBeginTask, &p, func(id string) { p.GatewayScope = id }, &res); err != nil {
		return err
	}
	a.view = agent.AgentConfig{Model: a.env.Model, Suite: a.suite, Method: a.m.core.name, Sampling: sampling}
	if res.Experience != nil {
		a.view.Exemplars = fromProtocol(res.Experience.Exemplars)
		a.view.Rules = res.Experience.Rules
	}
	a.began = true
	return nil
}

// Act implements envs.Agent.
func (a *externalAgent) Act(ctx context.Context, t envs.Task, turns []envs.Turn) (string, error) {
	r, err := a.Reply(ctx, t, turns)
	return r.Text, err
}

// Reply implements envs.ReplyAgent: the child's action, and the text the
// transcript keeps of the turn.
func (a *externalAgent) Reply(ctx context.Context, t envs.Task, turns []envs.Turn) (envs.Reply, error) {
	if len(turns) == 0 {
		return envs.Reply{}, fmt.Errorf("method %s: %s/%s: an episode without a first observation", a.m.core.name, a.suite.Name(), t.ID)
	}
	if !a.began {
		if err := a.begin(ctx, turns[0].Text); err != nil {
			return envs.Reply{}, err
		}
	}
	view, step := agent.SimView(a.view, t, turns)
	p := ActParams{Env: a.suite.Name(), Task: t.ID, Step: step, Observation: turns[len(turns)-1].Text, Turns: protocolTurns(turns)}
	// The child's calls are acting calls of this step, as the shared
	// agent's are: the same purpose and sample, and on the sim the same
	// structured view (the task, the episode, the declared experience).
	sc := gateway.Scope{Model: viewModel{Model: a.env.Model, view: view}, Purpose: agent.PurposeAct,
		SampleID: a.sampleID(fmt.Sprint(step)), Affinity: a.suite.Name() + "/" + t.ID}
	var res ActResult
	if err := a.m.request(ctx, a.env, sc, MethodAct, &p, func(id string) { p.GatewayScope = id }, &res); err != nil {
		return envs.Reply{}, err
	}
	switch {
	case res.Stop:
		return envs.Reply{}, envs.ErrStop
	case res.Action == nil:
		return envs.Reply{}, fmt.Errorf("external method %s: the act reply for %s/%s step %d has neither action nor stop",
			a.m.core.name, a.suite.Name(), t.ID, step)
	}
	text := res.Text
	if text == "" {
		text = *res.Action
	}
	return envs.Reply{Text: text, Action: *res.Action}, nil
}

// EndEpisode implements agent.EpisodeEnder: end_task with the outcome
// and the whole episode.
func (a *externalAgent) EndEpisode(ctx context.Context, tr envs.Transcript) error {
	if !a.began {
		return nil // the child never saw the task
	}
	p := EndTaskParams{Env: a.suite.Name(), Task: a.task.ID, Trajectory: protocolTurns(tr.Turns),
		Outcome: Outcome{Score: tr.Score, Steps: tr.Steps, Invalid: tr.Invalid, End: tr.End}}
	sc := gateway.Scope{Model: a.env.Model, SampleID: a.sampleID("end"),
		Affinity: a.suite.Name() + "/" + a.task.ID}
	return a.m.request(ctx, a.env, sc, MethodEndTask, &p, func(id string) { p.GatewayScope = id }, nil)
}

// viewModel attaches the step's structured view to the child's calls
// that carry none (all of them: a request over HTTP has no hint), for the
// embedded sim; an endpoint never sees it.
type viewModel struct {
	llm.Model
	view agent.Act
}

func (v viewModel) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	if req.Hint == nil {
		req.Hint = v.view
	}
	return v.Model.Generate(ctx, req)
}

// trajectories are recorded episodes as the protocol sends them.
func trajectories(ts []agent.Trajectory) []Trajectory {
	out := make([]Trajectory, len(ts))
	for i, t := range ts {
		msgs := make([]Message, len(t.Messages))
		for j, m := range t.Messages {
			msgs[j] = Message{Role: m.Role, Content: m.Content}
		}
		out[i] = Trajectory{ID: t.ID, Env: t.Env, Task: t.Task, Messages: msgs, Success: t.Success, Difficulty: t.Difficulty}
	}
	return out
}

// fromProtocol are trajectories a method declared, as the harness keeps them.
func fromProtocol(ts []Trajectory) []agent.Trajectory {
	out := make([]agent.Trajectory, len(ts))
	for i, t := range ts {
		msgs := make([]llm.Message, len(t.Messages))
		for j, m := range t.Messages {
			msgs[j] = llm.Message{Role: m.Role, Content: m.Content}
		}
		out[i] = agent.Trajectory{ID: t.ID, Env: t.Env, Task: t.Task, Messages: msgs, Success: t.Success, Difficulty: t.Difficulty}
	}
	return out
}

func protocolTurns(turns []envs.Turn) []Turn {
	out := make([]Turn, len(turns))
	for i, t := range turns {
		out[i] = Turn{Role: t.Role, Text: t.Text, Reward: t.Reward, Invalid: t.Invalid, Action: t.Action}
	}
	return out
}

// openAIParams are request settings under the OpenAI field names a child
// sends them with (extra fields merged in, as the harness's client does).
func openAIParams(p llm.Params) map[string]any {
	out := map[string]any{}
	if p.Temperature != nil {
		out["temperature"] = *p.Temperature
	}
	if p.TopP != nil {
		out["top_p"] = *p.TopP
	}
	if p.MaxTokens > 0 {
		out["max_tokens"] = p.MaxTokens
	}
	if p.Seed != nil {
		out["seed"] = *p.Seed
	}
	if p.Stop != nil {
		out["stop"] = p.Stop
	}
	if p.ReasoningEffort != "" {
		out["reasoning_effort"] = p.ReasoningEffort
	}
	for k, v := range p.Extra {
		out[k] = v
	}
	return out
}
