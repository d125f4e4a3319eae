package external

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/gateway"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/runrecord"
)

// Kind is the kind name a config's methods[].kind selects.
const Kind = "external"

// Defaults of the kind's settings.
const (
	DefaultTimeout      = 120 * time.Second
	DefaultStartTimeout = 10 * time.Minute
	DefaultChildren     = 1
	DefaultChunkRecords = 200
	// stderrLines is how many of a child's last stderr lines an error shows.
	stderrLines = 20
)

// Options are the kind's own keys in a method block.
type Options struct {
	// Command is the child's argument vector (command: [python3, m.py]).
	Command []string `yaml:"command"`
	// Dir is the child's working directory (the harness's when empty).
	Dir string `yaml:"dir"`
	// Env are variables added to the child's environment, which holds only
	// PATH, HOME, LANG, LC_*, TMPDIR, TZ, USER and PYTHON* of the
	// harness's.
	Env map[string]string `yaml:"env"`
	// URL reaches a method running as an HTTP service (instead of Command).
	URL string `yaml:"url"`
	// Timeout bounds each request ("120s" when empty).
	Timeout string `yaml:"timeout"`
	// StartTimeout bounds the start and init ("10m" when empty): a method
	// may load a model or an index first.
	StartTimeout string `yaml:"start_timeout"`
	// Children is how many children run at once (1 when unset); each user
	// is served by one of them.
	Children int `yaml:"children"`
	// ChunkRecords is how many history records one history request
	// carries (200 when unset).
	ChunkRecords int `yaml:"chunk_records"`
	// Options are the method's own settings, passed through as written.
	Options map[string]any `yaml:"options"`
}

// Launch is what the run tells a method before its first request.
type Launch struct {
	// Dir is the run directory: the children's stderr is kept in
	// Dir/external/<method>.stderr.log.
	Dir    string
	Family string
	Run    RunInfo
}

// Method is an external method as a predict.Method.
type Method struct {
	name    string
	opts    Options
	parser  string
	eval    predict.Evaluator
	timeout time.Duration
	start   time.Duration
	script  string // the script file the command names, "" when none
	sum     string

	mu      sync.Mutex
	launch  Launch
	gateway GatewayEnv
	gw      *gateway.Gateway // the run's model gateway (ServeGateway), nil when none
	version string
	slots   []*slot
	tails   []*tailWriter
	tap     func(out bool, line []byte) // see child.tap
}

// slot is one child (or service session) and the users it holds.
type slot struct {
	mu     sync.Mutex
	conn   conn
	loaded map[string]bool
	err    error // the start failed
}

// New builds an external method from its spec.
func New(s predict.Spec) (predict.Method, error) {
	o, err := predict.OptionsOf[Options](s)
	if err != nil {
		return nil, err
	}
	name := s.Name
	if name == "" {
		name = s.Kind
	}
	m, err := newCore(name, o)
	if err != nil {
		return nil, err
	}
	ev, err := predict.NewEvaluator(s)
	if err != nil {
		return nil, err
	}
	m.parser, m.eval = s.Parser, ev.WithPredictHint()
	return m, nil
}

// newCore checks a method block's keys and builds the session machinery
// both families share (children, gateway, version); the behaviour side
// adds its answer path.
func newCore(name string, o Options) (*Method, error) {
	var err error
	switch {
	case len(o.Command) == 0 && o.URL == "":
		return nil, fmt.Errorf("method %s: kind external needs command: [program, args...] or url:", name)
	case len(o.Command) > 0 && o.URL != "":
		return nil, fmt.Errorf("method %s: command and url both set; an external method is one or the other", name)
	case o.Children < 0 || o.ChunkRecords < 0:
		return nil, fmt.Errorf("method %s: children and chunk_records must not be negative", name)
	}
	if err := checkEnv(name, o.Env); err != nil {
		return nil, err
	}
	timeout := DefaultTimeout
	if o.Timeout != "" {
		if timeout, err = time.ParseDuration(o.Timeout); err != nil || timeout <= 0 {
			return nil, fmt.Errorf("method %s: timeout %q: want a positive duration such as 30s", name, o.Timeout)
		}
	}
	start := DefaultStartTimeout
	if o.StartTimeout != "" {
		if start, err = time.ParseDuration(o.StartTimeout); err != nil || start <= 0 {
			return nil, fmt.Errorf("method %s: start_timeout %q: want a positive duration such as 5m", name, o.StartTimeout)
		}
	}
	o.Children = max(o.Children, DefaultChildren)
	if o.ChunkRecords == 0 {
		o.ChunkRecords = DefaultChunkRecords
	}
	if o.Options == nil {
		o.Options = map[string]any{}
	}
	m := &Method{name: name, opts: o, timeout: timeout, start: start}
	if m.script, m.sum, err = scriptOf(o.Command, o.Dir); err != nil {
		return nil, fmt.Errorf("method %s: %w", name, err)
	}
	m.slots = make([]*slot, o.Children)
	for i := range m.slots {
		m.slots[i] = &slot{loaded: map[string]bool{}}
	}
	return m, nil
}

// scriptOf finds the script file a command runs (the first argument after
// the program that names a file, or the program itself when it is a path)
// and its SHA-256.
func scriptOf(argv []string, dir string) (string, string, error) {
	var cands []string
	if len(argv) > 1 {
		cands = append(cands, argv[1:]...)
	}
	if len(argv) > 0 && strings.ContainsRune(argv[0], '/') {
		cands = append(cands, argv[0])
	}
	for _, c := range cands {
		if strings.HasPrefix(c, "-") {
			continue
		}
		p := c
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			return "", "", err
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", "", err
		}
		return c, hex.EncodeToString(h.Sum(nil)), nil
	}
	return "", "", nil
}

// Name is the method's name in the config.
func (m *Method) Name() string { return m.name }

// UseGateway sets the hook through which the run's model gateway adds its
// endpoint's variables to every child started from now on.
func (m *Method) UseGateway(g GatewayEnv) {
	m.mu.Lock()
	m.gateway = g
	m.mu.Unlock()
}

// Start tells the method about the run, starts its first child and
// returns what the manifest records of it (the version it reported at
// init and the script's SHA-256).
func (m *Method) Start(ctx context.Context, l Launch) (runrecord.ExternalMethod, error) {
	m.mu.Lock()
	m.launch = l
	m.mu.Unlock()
	s := m.slots[0]
	s.mu.Lock()
	err := m.ensure(ctx, s)
	s.mu.Unlock()
	if err != nil {
		return runrecord.ExternalMethod{}, err
	}
	return m.Describe(), nil
}

// Describe is what the manifest records of the method.
func (m *Method) Describe() runrecord.ExternalMethod {
	m.mu.Lock()
	defer m.mu.Unlock()
	return runrecord.ExternalMethod{Name: m.name, Command: m.opts.Command, Dir: m.opts.Dir, URL: m.opts.URL,
		Version: m.version, ProtocolVersion: ProtocolVersion, Script: m.script, ScriptSHA256: m.sum}
}

// Close ends every child (shutdown, then their process groups are
// killed), then the model gateway the method was served.
func (m *Method) Close() error {
	for _, s := range m.slots {
		s.mu.Lock()
		if s.conn != nil {
			s.conn.close()
		}
		s.mu.Unlock()
	}
	m.mu.Lock()
	var errs []error
	for _, t := range m.tails {
		errs = append(errs, t.Close())
	}
	m.tails = nil
	m.mu.Unlock()
	// The gateway outlives the children: a child's last calls are answered.
	errs = append(errs, m.closeGateway())
	return errors.Join(errs...)
}

// ensure starts s's child and opens its session (s locked).
func (m *Method) ensure(ctx context.Context, s *slot) error {
	if s.conn != nil {
		return nil
	}
	if s.err != nil {
		return s.err
	}
	m.mu.Lock()
	l, gateway := m.launch, m.gateway
	m.mu.Unlock()
	if l.Family == "" {
		l.Family = "behavior"
	}
	var c conn
	if m.opts.URL != "" {
		c = newService(m.name, m.opts.URL, m.timeout, m.start)
	} else {
		var logPath string
		if l.Dir != "" {
			dir := filepath.Join(l.Dir, "external")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			logPath = filepath.Join(dir, safeFileName(m.name)+".stderr.log")
		}
		tail, err := newTail(logPath, stderrLines)
		if err != nil {
			return fmt.Errorf("method %s: %w", m.name, err)
		}
		m.mu.Lock()
		m.tails = append(m.tails, tail)
		m.mu.Unlock()
		ch, err := startChild(m.name, m.opts.Command, m.opts.Dir, childEnv(os.Environ(), m.opts.Env, gateway), m.timeout, m.start, tail)
		if err != nil {
			// A method that cannot start stops the run, as one that breaks.
			s.err = &ChildError{Method: m.name, Command: m.opts.Command, Request: "(none: starting)", Err: err}
			return s.err
		}
		ch.tap = m.tap
		c = ch
	}
	var res InitResult
	err := c.call(ctx, MethodInit, InitParams{ProtocolVersion: ProtocolVersion, Method: m.name, Family: l.Family,
		Run: l.Run, Options: m.opts.Options}, &res)
	if err == nil {
		err = checkVersion(res.ProtocolVersion)
	}
	if err != nil {
		// init failing (the method's error reply, or a version it does
		// not share) stops the run: no request of it could succeed.
		var broken *ChildError
		if !errors.As(err, &broken) {
			c.close()
			err = &ChildError{Method: m.name, Command: m.opts.Command, URL: m.opts.URL, Request: "init", Err: err}
		}
		s.err = err
		return err
	}
	m.mu.Lock()
	m.version = cleanVersion(res.Version)
	m.mu.Unlock()
	s.conn = c
	return nil
}

// checkVersion accepts a protocol version of the harness's major version.
func checkVersion(v string) error {
	major, _, _ := strings.Cut(ProtocolVersion, ".")
	got, _, _ := strings.Cut(v, ".")
	if got != major {
		return fmt.Errorf("the method speaks protocol version %q; this harness speaks %s", v, ProtocolVersion)
	}
	return nil
}

var unprintable = lazyre.New(`[^\p{L}\p{N}\p{P}\p{S} ]`)

// cleanVersion keeps a reported version readable in titles: one line,
// printable characters, at most 80 of them.
func cleanVersion(v string) string {
	v = unprintable.ReplaceAllString(strings.TrimSpace(v), " ")
	if r := []rune(v); len(r) > 80 {
		v = string(r[:80]) + "…"
	}
	return v
}

func safeFileName(s string) string {
	return regexp.MustCompile(`[^A-Za-z0-9._-]`).ReplaceAllString(s, "_")
}

// slotFor is the child serving user: the same one for every request of
// the user, so the user's state is where its requests go.
func (m *Method) slotFor(user string) *slot {
	h := fnv.New32a()
	h.Write([]byte(user))
	return m.slots[int(h.Sum32()%uint32(len(m.slots)))]
}

// stateName is the checkpoint holding a user's saved state.
func (m *Method) stateName() string { return "external." + safeFileName(m.name) + ".state" }

// records are events as the protocol sends them, numbered from first.
func records(env predict.Env, p *predict.Prompts, events []behavior.Event, first int) ([]Record, error) {
	out := make([]Record, len(events))
	for i, e := range events {
		text, err := p.Record(e)
		if err != nil {
			return nil, err
		}
		cost, err := p.RecordCost(env.TokenCounter(), e)
		if err != nil {
			return nil, err
		}
		scene := e.RawScene
		if scene == "" {
			scene = e.Scene
		}
		out[i] = Record{Index: first + i, Text: text, Tokens: cost, Time: e.Time, Scene: scene, Context: e.Context,
			Result: e.Result, Attrs: predict.ShownAttrs(e), Outcomes: e.Outcomes}
	}
	return out, nil
}

// PrepareUser sends the user's past (the records before the first test
// action) in chunks, asks the method to build its memory and keeps the
// state it saves in the run's checkpoints.
func (m *Method) PrepareUser(ctx context.Context, env predict.Env, u behavior.UserSet) (predict.Memory, error) {
	var past []behavior.Event
	if len(u.Instances) > 0 {
		past = u.Instances[0].History[:u.Instances[0].PracticeCut]
	}
	recs, err := records(env, m.eval.Prompts(env), past, 0)
	if err != nil {
		return predict.Memory{}, err
	}
	return m.PrepareRecords(ctx, env, u.User, u.Profile, recs)
}

// restore hands a user's saved state to a child that does not hold it (a
// resumed run, or a merged shard's). s is locked.
func (m *Method) restore(ctx context.Context, env predict.Env, s *slot, user string) error {
	if s.loaded[user] {
		return nil
	}
	var state json.RawMessage
	ok := false
	if env.Checkpoints != nil {
		var err error
		if ok, err = env.Checkpoints.Load(user, m.stateName(), &state); err != nil {
			return fmt.Errorf("method %s: reading the saved state of user %s: %w", m.name, user, err)
		}
	}
	if !ok {
		return fmt.Errorf("method %s: user %s has a stored memory but no saved state (checkpoint %s); "+
			"delete the user's memory file in the run directory to rebuild it", m.name, user, m.stateName())
	}
	lp := LoadParams{User: user, State: state}
	if err := m.scopedCall(ctx, s, m.buildScope(env.Builder(), user, MethodLoad), MethodLoad, &lp,
		func(id string) { lp.GatewayScope = id }, nil); err != nil {
		return err
	}
	s.loaded[user] = true
	return nil
}

// Predict asks the method about one test instance and answers it the way
// the method's reply says: the harness's answer prompt over the window and
// memory it chose, its own prompt, or its own answer.
func (m *Method) Predict(ctx context.Context, env predict.Env, _ predict.Memory, inst behavior.Instance) (predict.Outcome, error) {
	p := m.eval.Prompts(env)
	recent, err := records(env, p, inst.History[inst.PracticeCut:], inst.PracticeCut)
	if err != nil {
		return predict.Outcome{}, err
	}
	target := Target{Index: len(inst.History), Time: inst.Target.Time, Scene: inst.Target.Scene,
		Context: inst.Target.Context, Attrs: predict.ShownAttrs(inst.Target)}
	params := PredictParams{User: inst.User, Instance: inst.ID, HistoryLength: len(inst.History), Prepared: inst.PracticeCut,
		Recent: recent, Scene: inst.Target.Scene, Target: target,
		Question: Question{Field: inst.Question.Field, Kind: inst.Question.Kind, Text: inst.Question.Text,
			Allowed: allowed(inst.Question)}}
	parse := predict.AnswerParser(inst.Question, m.parser)
	var out predict.Outcome
	for a := 0; a < env.Draws(); a++ {
		params.Attempt = a
		res, err := m.ask(ctx, env, params)
		if err != nil {
			return out, err
		}
		switch {
		case res.HistoryFrom != nil:
			return m.eval.PredictFrom(ctx, env, inst, *res.HistoryFrom, res.Memory)
		case res.Prompt != nil:
			req := llm.Request{Purpose: predict.PurposePredict, Messages: []llm.Message{{Role: "user", Content: *res.Prompt}},
				Params: m.eval.Params(), SampleID: inst.ID, Unit: m.name + "/" + inst.ID, Affinity: inst.User}
			out.Prompt = *res.Prompt
			return predict.Answer(ctx, env.Model, env.Draws(), m.name, req, predict.ReplyReader(m.parser), parse, out)
		case res.Answer != nil:
			out.Attempts, out.Raw = a+1, *res.Answer
			if label, ok := parse(*res.Answer); ok {
				out.Pred, out.Valid = label, true
				return out, nil
			}
		default:
			return out, fmt.Errorf("external method %s: the predict reply for %s has none of history_from, prompt and answer", m.name, inst.ID)
		}
	}
	return out, nil // invalid after the last attempt: counted invalid, as for every kind
}

// ask sends one predict request to the user's child.
func (m *Method) ask(ctx context.Context, env predict.Env, params PredictParams) (PredictResult, error) {
	s := m.slotFor(params.User)
	s.mu.Lock()
	defer s.mu.Unlock()
	var res PredictResult
	if err := m.ensure(ctx, s); err != nil {
		return res, err
	}
	if err := m.restore(ctx, env, s, params.User); err != nil {
		return res, err
	}
	// Each attempt is its own draw: the attempt joins the sample ID after
	// the first, so a re-asked child gets a fresh answer, the same one on
	// a re-run.
	sample := params.Instance
	if params.Attempt > 0 {
		sample = fmt.Sprintf("%s#%d", params.Instance, params.Attempt)
	}
	sc := gateway.Scope{Model: env.Model, Purpose: predict.PurposePredict, SampleID: sample,
		Unit: m.name + "/" + params.Instance, Affinity: params.User}
	if err := m.scopedCall(ctx, s, sc, MethodPredict, &params, func(id string) { params.GatewayScope = id }, &res); err != nil {
		return res, err
	}
	if res.HistoryFrom != nil && (*res.HistoryFrom < 0 || *res.HistoryFrom > params.HistoryLength) {
		return res, fmt.Errorf("external method %s: history_from %d for %s is outside 0..%d", m.name, *res.HistoryFrom, params.Instance, params.HistoryLength)
	}
	return res, nil
}

// allowed are the answers a question accepts.
func allowed(q behavior.Question) []string {
	if len(q.Classes) > 0 {
		return q.Classes
	}
	return []string{"1", "0"}
}

// MemoryInOwnProcess says the method's memory lives in its child (built
// from the requests the harness sent it), so a planner never lends one
// user's rehearsed memory to another user of it: the child would hold no
// state for that user.
func (m *Method) MemoryInOwnProcess() bool { return true }
