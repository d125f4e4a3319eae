package lifemem

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/memharness/memharness/internal/atomicfile"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/methods/retrieval"
)

// Files under agent.Env.Dir. The working file is written as the memory
// evolves; Save snapshots it so Restore returns to the last saved stage
// even when a run died half-way through the next one.
const (
	dbFile    = "lifemem.db"
	savedFile = "lifemem.saved.db"
	stateFile = "lifemem.json"
)

// LifeMem is the method. It is safe for concurrent use: Agent may be called
// from several goroutines while no Learn/EndStage runs.
type LifeMem struct {
	opts Options

	mu       sync.Mutex
	dir      string
	db       *sql.DB
	rows     []row
	byID     map[string]int
	clusters map[string]*cluster
	// member[i] is the cluster of row i.
	member []string
	st     state
}

// state is what the SQLite file does not hold: the unfinished batch, the
// clusters touched in the current stage, and the counters.
type state struct {
	Batches int                `json:"batches"`
	Stages  int                `json:"stages"`
	Pending []agent.Trajectory `json:"pending,omitempty"`
	Touched []string           `json:"touched,omitempty"`
	Count   Counters           `json:"counters"`
	Ops     map[string]OpStats `json:"ops"`
}

// Counters count what construction did, including everything a model got
// wrong (nothing is dropped silently).
type Counters struct {
	// Ingested trajectories; Duplicates were skipped because their ID was
	// already stored.
	Ingested   int `json:"ingested"`
	Duplicates int `json:"duplicates"`
	// BadLines are answer lines of an <Execution> section that parse as no
	// operation, or name an unknown trajectory.
	BadLines int `json:"bad_lines"`
	// Retried counts trajectories re-asked because an answer left them out;
	// Fallback those still left out after the last retry, placed in their
	// nearest neighbour's cluster (or a new per-environment cluster).
	Retried  int `json:"retried"`
	Fallback int `json:"fallback"`
	// Coerced counts operations repaired to fit the store: an ADD to a
	// cluster that does not exist became a NEW, a NEW of an existing name an
	// ADD.
	Coerced int `json:"coerced"`
	// SplitChecks are clusters over the size limit whose MRL was computed;
	// Splits those dissolved; SplitFailures answers that created no cluster;
	// SplitLeftover members a split left in the old cluster.
	SplitChecks   int `json:"split_checks"`
	Splits        int `json:"splits"`
	SplitFailures int `json:"split_failures"`
	SplitLeftover int `json:"split_leftover"`
	// BadSummaries lacked the "This cluster is about" opening.
	BadSummaries int `json:"bad_summaries"`
	// RuleOps applied, RuleOpsIgnored beyond the per-call bound or naming a
	// missing rule.
	RuleOps        int `json:"rule_ops"`
	RuleOpsIgnored int `json:"rule_ops_ignored"`
}

// OpStats is the model usage of one construction operation.
type OpStats struct {
	Calls            int     `json:"calls"`
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	Cost             float64 `json:"cost"`
}

// Construction operations (also the Purpose of their calls after "lifemem.").
const (
	opAssign  = "assign"
	opSummary = "summary"
	opSplit   = "split"
	opRules   = "rules"
)

// constructionPurposes are the purposes of the construction calls.
func constructionPurposes() []string {
	ops := []string{opAssign, opSummary, opSplit, opRules}
	for i, op := range ops {
		ops[i] = purposeOf(op)
	}
	return ops
}

// purposeOf is the purpose of a construction call of op.
func purposeOf(op string) string { return "lifemem." + op }

var _ agent.Method = (*LifeMem)(nil)

// New returns an empty LifeMem; its store is opened under the Env.Dir of
// the first call.
func New(opts Options) (*LifeMem, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	return &LifeMem{opts: opts.withDefaults(), st: state{Ops: map[string]OpStats{}}}, nil
}

// Name is "lifemem", with the ablation as a suffix.
func (m *LifeMem) Name() string {
	if m.opts.Ablation != "" {
		return "lifemem_" + m.opts.Ablation
	}
	return "lifemem"
}

// Close releases the store.
func (m *LifeMem) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closeLocked()
}

func (m *LifeMem) closeLocked() error {
	if m.db == nil {
		return nil
	}
	err := m.db.Close()
	m.db, m.dir = nil, ""
	if err != nil {
		return fmt.Errorf("lifemem: close: %w", err)
	}
	return nil
}

// open makes sure the store of dir is open and loaded.
func (m *LifeMem) open(ctx context.Context, dir string) error {
	if dir == "" {
		return errors.New("lifemem: agent.Env.Dir is empty; LifeMem keeps its store there")
	}
	if m.db != nil && m.dir == dir {
		return nil
	}
	if err := m.closeLocked(); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("lifemem: %w", err)
	}
	db, err := openDB(filepath.Join(dir, dbFile))
	if err != nil {
		return err
	}
	rows, clusters, err := loadAll(ctx, db)
	if err != nil {
		db.Close()
		return fmt.Errorf("lifemem: %s: %w", filepath.Join(dir, dbFile), err)
	}
	m.db, m.dir = db, dir
	m.setIndex(rows, clusters)
	return nil
}

func (m *LifeMem) setIndex(rows []row, clusters map[string]*cluster) {
	m.rows, m.clusters = rows, clusters
	m.byID = make(map[string]int, len(rows))
	m.member = make([]string, len(rows))
	for i, r := range rows {
		m.byID[r.id] = i
	}
	for name, c := range clusters {
		for _, i := range c.members {
			m.member[i] = name
		}
	}
}

// Learn buffers the trajectories and processes every full batch.
func (m *LifeMem) Learn(ctx context.Context, env agent.Env, batch []agent.Trajectory) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.open(ctx, env.Dir); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, t := range m.st.Pending {
		seen[t.ID] = true
	}
	for i, t := range batch {
		if t.ID == "" {
			t.ID = fmt.Sprintf("%s_%d", t.Env, len(m.rows)+len(m.st.Pending))
		}
		if t.Env == "" {
			return fmt.Errorf("lifemem: trajectory %d (%s) has no env", i, t.ID)
		}
		if _, dup := m.byID[t.ID]; dup || seen[t.ID] {
			m.st.Count.Duplicates++
			continue
		}
		seen[t.ID] = true
		m.st.Pending = append(m.st.Pending, t)
	}
	for len(m.st.Pending) >= m.opts.BatchSize {
		if err := m.process(ctx, env, m.st.Pending[:m.opts.BatchSize]); err != nil {
			return err
		}
		m.st.Pending = slices.Clone(m.st.Pending[m.opts.BatchSize:])
	}
	return nil
}

// EndStage commits a partial batch left in the buffer (the stage's
// evaluation must see every trajectory of the stage) and re-distils the
// rules of every cluster touched in the stage.
func (m *LifeMem) EndStage(ctx context.Context, env agent.Env) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.open(ctx, env.Dir); err != nil {
		return err
	}
	if len(m.st.Pending) > 0 {
		if err := m.process(ctx, env, m.st.Pending); err != nil {
			return err
		}
		m.st.Pending = nil
	}
	touched := slices.Clone(m.st.Touched)
	slices.Sort(touched)
	for _, name := range touched {
		if m.clusters[name] == nil {
			continue
		}
		if err := m.distil(ctx, env, name); err != nil {
			return err
		}
		if err := write(ctx, m.db, len(m.rows), nil, nil, m.rows, m.clusters, []string{name}); err != nil {
			return err
		}
	}
	m.st.Touched = nil
	m.st.Stages++
	return nil
}

// touch marks clusters as changed in this stage.
func (m *LifeMem) touch(names ...string) {
	for _, n := range names {
		if !slices.Contains(m.st.Touched, n) {
			m.st.Touched = append(m.st.Touched, n)
		}
	}
}

func (m *LifeMem) untouch(name string) {
	m.st.Touched = slices.DeleteFunc(m.st.Touched, func(s string) bool { return s == name })
}

// embedText is what LifeMem embeds for a trajectory: its task text (the
// first message of some environments is a generic instruction shared by
// all their trajectories), else the first user message.
func embedText(t agent.Trajectory) string {
	if strings.TrimSpace(t.Task) != "" {
		return t.Task
	}
	for _, msg := range t.Messages {
		if msg.Role == "user" {
			return msg.Content
		}
	}
	return t.ID
}

// embed returns unit vectors for texts.
func embedUnit(ctx context.Context, e llm.Embedder, texts []string) ([][]float32, error) {
	if e == nil {
		return nil, errors.New("lifemem: agent.Env.Embedder is nil")
	}
	vecs, err := e.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("lifemem: embed: %w", err)
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("lifemem: embedder returned %d vectors for %d texts", len(vecs), len(texts))
	}
	for i, v := range vecs {
		vecs[i] = retrieval.Normalize(v)
	}
	return vecs, nil
}

// rng returns a generator seeded from the run seed and a purpose string,
// so every random choice is reproducible and independent of the others.
func rng(seed int64, purpose string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(purpose))
	return rand.New(rand.NewPCG(uint64(seed), h.Sum64()))
}

// call sends one construction request and books its usage under op.
func (m *LifeMem) call(ctx context.Context, env agent.Env, op, sampleID string, attempt int,
	msgs []llm.Message, h any, accept func(llm.Response) bool) (string, error) {
	// Assignment and summaries go to the assignment model, splits and
	// skills to the skill model (the paper: GPT-5-mini and GPT-4.1).
	model := env.Distiller()
	if op == opAssign || op == opSummary {
		model = env.Assigner()
	}
	if model == nil {
		return "", errors.New("lifemem: agent.Env has no model")
	}
	resp, err := model.Generate(ctx, llm.Request{
		Purpose:  purposeOf(op),
		Messages: msgs,
		Params:   env.Sampling.For(agent.SampleConstruction, ""),
		SampleID: sampleID,
		Attempt:  attempt,
		Hint:     h,
		Accept:   accept,
	})
	if err != nil {
		return "", fmt.Errorf("lifemem: %s call %s: %w", op, sampleID, err)
	}
	s := m.st.Ops[op]
	s.Calls++
	s.PromptTokens += resp.Usage.PromptTokens
	s.CompletionTokens += resp.Usage.CompletionTokens
	s.Cost += resp.Usage.Cost
	m.st.Ops[op] = s
	return resp.Text, nil
}

// Save persists the state: a snapshot of the SQLite file plus the JSON of
// the buffer and counters, each written to a temporary name and renamed.
func (m *LifeMem) Save(ctx context.Context, env agent.Env) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.open(ctx, env.Dir); err != nil {
		return err
	}
	tmp := filepath.Join(env.Dir, savedFile+".tmp")
	if err := os.Remove(tmp); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("lifemem: save: %w", err)
	}
	if _, err := m.db.ExecContext(ctx, `VACUUM INTO ?`, tmp); err != nil {
		return fmt.Errorf("lifemem: save: snapshot %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, filepath.Join(env.Dir, savedFile)); err != nil {
		return fmt.Errorf("lifemem: save: %w", err)
	}
	b, err := json.MarshalIndent(m.st, "", "  ")
	if err != nil {
		return fmt.Errorf("lifemem: save state: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(env.Dir, stateFile), append(b, '\n')); err != nil {
		return fmt.Errorf("lifemem: save state: %w", err)
	}
	return nil
}

// Restore returns to the last Save under env.Dir; false when there is none.
func (m *LifeMem) Restore(ctx context.Context, env agent.Env) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if env.Dir == "" {
		return false, errors.New("lifemem: agent.Env.Dir is empty")
	}
	saved := filepath.Join(env.Dir, savedFile)
	b, err := os.ReadFile(filepath.Join(env.Dir, stateFile))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("lifemem: restore: %w", err)
	}
	if _, err := os.Stat(saved); err != nil {
		return false, fmt.Errorf("lifemem: restore: %s exists but its snapshot does not: %w", stateFile, err)
	}
	var st state
	if err := json.Unmarshal(b, &st); err != nil {
		return false, fmt.Errorf("lifemem: restore: %s: %w", filepath.Join(env.Dir, stateFile), err)
	}
	if st.Ops == nil {
		st.Ops = map[string]OpStats{}
	}
	if err := m.closeLocked(); err != nil {
		return false, err
	}
	data, err := os.ReadFile(saved)
	if err != nil {
		return false, fmt.Errorf("lifemem: restore: %w", err)
	}
	work := filepath.Join(env.Dir, dbFile)
	for _, side := range []string{"-journal", "-wal", "-shm"} {
		if err := os.Remove(work + side); err != nil && !errors.Is(err, os.ErrNotExist) {
			return false, fmt.Errorf("lifemem: restore: %w", err)
		}
	}
	if err := atomicfile.Write(work, data); err != nil {
		return false, fmt.Errorf("lifemem: restore: %w", err)
	}
	m.st = st
	if err := m.open(ctx, env.Dir); err != nil {
		return false, err
	}
	return true, nil
}
