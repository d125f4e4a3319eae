package predict

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/tokens"
)

// DefaultMaxAttempts is how many draws an answer gets before it is counted
// invalid (the reference's 5).
const DefaultMaxAttempts = 5

// Env is what the runner lends a method: the model stack, an embedder (RAG
// only), the token counter for budgets, and the prompt templates.
type Env struct {
	Model    llm.Model
	Embedder llm.Embedder
	// Tokens counts tokens for budgets; nil means tokens.Approx.
	Tokens tokens.Counter
	// Prompts renders prompts; nil means the spec's or the default "zh".
	Prompts *Prompts
	// MaxAttempts bounds redraws of invalid answers; 0 means 5.
	MaxAttempts int
	// BuildModel, when set, serves memory construction (PraMem practice,
	// summaries, Mem0 extraction) while Model serves evaluation: the PraMem
	// paper builds memory with one backbone and evaluates with two.
	BuildModel llm.Model
	// Checkpoints persists a method's intermediate per-user state (e.g. the
	// memory after every practice round) so construction resumes where it
	// stopped; nil means no persistence.
	Checkpoints Checkpoints
}

// Checkpoints stores named JSON states per user, scoped to one method.
type Checkpoints interface {
	// Load reads the state called name of user into v; false when absent.
	Load(user, name string, v any) (bool, error)
	// Save writes the state atomically.
	Save(user, name string, v any) error
}

// ExclusiveCheckpoints is what a Checkpoints shared by methods that run at
// once may offer: a lock on one user's states under one name, so that
// methods sharing a construction (one checkpoint namespace, e.g. PraMem's
// evolution snapshots) build it once, each resuming where the last
// stopped, rather than side by side (calls sent twice, journalled once).
type ExclusiveCheckpoints interface {
	Checkpoints
	// Lock holds user's states under name until the returned func runs.
	Lock(user, name string) (unlock func())
}

// LockCheckpoints locks user's states under name when env's checkpoints
// offer a lock (ExclusiveCheckpoints); otherwise it does nothing.
func (e Env) LockCheckpoints(user, name string) (unlock func()) {
	if x, ok := e.Checkpoints.(ExclusiveCheckpoints); ok {
		return x.Lock(user, name)
	}
	return func() {}
}

// Builder returns the model for memory construction.
func (e Env) Builder() llm.Model {
	if e.BuildModel != nil {
		return e.BuildModel
	}
	return e.Model
}

func (e Env) counter() tokens.Counter {
	if e.Tokens == nil {
		return tokens.Approx{}
	}
	return e.Tokens
}

func (e Env) maxAttempts() int {
	if e.MaxAttempts <= 0 {
		return DefaultMaxAttempts
	}
	return e.MaxAttempts
}

// Memory is one user's memory, built once before the user's first test
// action and reused for every instance of that user. The runner stores it as
// JSON so a resumed run does not rebuild it; Predict reads Text only.
type Memory struct {
	Text   string         `json:"text"`
	Tokens int            `json:"tokens"`
	Calls  int            `json:"calls"`
	Usage  llm.Usage      `json:"usage"`
	Meta   map[string]any `json:"meta,omitempty"`
}

// Outcome is the result of one prediction.
type Outcome struct {
	// Pred is the parsed label ("1"/"0", "1".."5"); empty when !Valid.
	Pred  string `json:"pred"`
	Valid bool   `json:"valid"`
	// Attempts is how many draws were made (1..MaxAttempts).
	Attempts int `json:"attempts"`
	// Prompt is the prompt as sent (the run store keeps it compressed).
	Prompt string `json:"prompt,omitempty"`
	// Raw and Reasoning are from the last draw.
	Raw         string        `json:"raw"`
	Reasoning   string        `json:"reasoning,omitempty"`
	Calls       int           `json:"calls"`
	CachedCalls int           `json:"cached_calls"`
	Usage       llm.Usage     `json:"usage"`
	Latency     time.Duration `json:"latency_ns"`
	// What the prompt showed.
	HistoryRecords int `json:"history_records"`
	HistoryTokens  int `json:"history_tokens"`
	MemoryTokens   int `json:"memory_tokens"`
}

// Method is a behaviour-prediction method as the bench runner drives it.
type Method interface {
	Name() string
	// PrepareUser builds per-user memory from history before the user's
	// first test action only (u.Instances[i].History[:PracticeCut]);
	// memoryless methods return Memory{}.
	PrepareUser(ctx context.Context, env Env, u behavior.UserSet) (Memory, error)
	// Predict answers one instance. Invalid answers are redrawn; a transport
	// error is returned so the runner can retry the sample later.
	Predict(ctx context.Context, env Env, mem Memory, inst behavior.Instance) (Outcome, error)
}

// CloseMethods closes the methods that hold resources beyond a call (an
// io.Closer, such as a memory server process per user); whoever builds
// methods closes them when done with them, however the work ended.
func CloseMethods(ms []Method) {
	for _, m := range ms {
		if c, ok := m.(io.Closer); ok {
			_ = c.Close()
		}
	}
}

// Kinds of the foundation baselines.
const (
	KindLongContext = "long_context"
	KindTruncation  = "truncation"
	KindRAG         = "rag"
	KindSummary     = "summary"
)

// Defaults of the baselines (spec §1.7 and §5).
const (
	DefaultLongContextTokens = 32000
	DefaultHistoryTokens     = 8000
	DefaultRAGMemoryTokens   = 2000
	DefaultDocSize           = 8
	DefaultTopK              = 5
	DefaultChunkTokens       = 4096
	DefaultSummaryTokens     = 1000
	RetrieverEmbedding       = "embedding"
	RetrieverBM25            = "bm25"
)

// New builds the method a spec describes.
func New(s Spec) (Method, error) {
	b, err := newBase(s)
	if err != nil {
		return nil, err
	}
	switch s.Kind {
	case KindLongContext, KindTruncation:
		return &historyOnly{base: b}, nil
	case KindRAG:
		return newRAG(b, s)
	case KindSummary:
		return newSummary(b, s), nil
	default:
		return nil, fmt.Errorf("predict: unknown method kind %q (want %s, %s, %s or %s)",
			s.Kind, KindLongContext, KindTruncation, KindRAG, KindSummary)
	}
}

// historyOnly is long_context and truncation: the history block only.
type historyOnly struct{ base }

func (m *historyOnly) PrepareUser(context.Context, Env, behavior.UserSet) (Memory, error) {
	return Memory{}, nil
}

func (m *historyOnly) Predict(ctx context.Context, env Env, _ Memory, inst behavior.Instance) (Outcome, error) {
	p := m.prompts(env)
	w, err := p.SelectWindow(env.counter(), inst.History, m.budget)
	if err != nil {
		return Outcome{}, err
	}
	v, err := m.compose(env, p, inst, w, nil, "")
	if err != nil {
		return Outcome{}, err
	}
	return m.ask(ctx, env, inst, v)
}
