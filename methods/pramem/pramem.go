package pramem

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/kinds"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/runrecord"
)

// Defaults: the released code's CLI values (spec §4.5).
const (
	DefaultRounds         = 80
	DefaultQ              = 1
	DefaultM              = 7
	DefaultT              = 5
	DefaultSupport        = 3
	DefaultPoolSize       = 100
	DefaultMinHist        = 10
	DefaultPracticeTokens = 12000
	InitEmpty             = "empty"
	InitPaper             = "paper"
)

// Stages are PraMem's call stages in round order; each is sent under
// Purpose(stage), whose request settings come from Spec.Sampling.
func Stages() []string {
	return []string{"trial", "reflect", "scenes", "generalize", "perturb", "perturb_judge", "review"}
}

// stateVersion changes whenever a checkpoint's meaning changes, so old
// checkpoints are never resumed by incompatible code.
// 2: text-question targets of the release's draw get the release's
// text-question input, skip check1, and questionless ones are dropped.
const stateVersion = 2

// config is a resolved PraMemSpec.
type config struct {
	rounds, q, n, m, t, support, poolSize, minHist, practiceTokens       int
	init, sections                                                       string
	evalRound                                                            int
	noTrial, noReflection, noConsensus, noGroundedness, noGeneralization bool
	leak, noopGrounding, fallback, releaseSampling                       bool
	// sourceParsers reads the practice replies as the release does
	// (methods[].parser: source).
	sourceParsers bool
	memoryDir     string
	seed          int64
	// stageParams are the request settings per stage.
	stageParams map[string]llm.Params
	// ns namespaces the checkpoints: a hash of everything that determines
	// the construction (not sections or eval_round, which only choose what
	// is shown of it).
	ns string
}

func orDefault(v, d int) int {
	if v > 0 {
		return v
	}
	return d
}

func resolve(s predict.Spec, sp *stagePrompts) (config, error) {
	ps := predict.PraMemSpec{}
	if s.PraMem != nil {
		ps = *s.PraMem
	}
	c := config{
		rounds: orDefault(ps.Rounds, DefaultRounds), q: orDefault(ps.Q, DefaultQ), n: max(ps.N, 0),
		m: orDefault(ps.M, DefaultM), t: orDefault(ps.T, DefaultT), support: orDefault(ps.Support, DefaultSupport),
		poolSize: orDefault(ps.PoolSize, DefaultPoolSize), minHist: orDefault(ps.MinHist, DefaultMinHist),
		practiceTokens: orDefault(ps.PracticeTokens, DefaultPracticeTokens),
		init:           ps.Init, sections: ps.Sections, evalRound: ps.EvalRound,
		noTrial: ps.NoTrial, noReflection: ps.NoReflection, noConsensus: ps.NoConsensus,
		noGroundedness: ps.NoGroundedness, noGeneralization: ps.NoGeneralization,
		leak: ps.ReproduceReleaseLeak, noopGrounding: ps.ReleaseNoopGrounding, fallback: ps.FallbackTruncation,
		releaseSampling: ps.ReleaseSampling, sourceParsers: s.Parser == predict.ParserSource,
		memoryDir: ps.MemoryDir, seed: drawSeed, stageParams: map[string]llm.Params{},
	}
	if s.Params.Seed != nil {
		c.seed = int64(*s.Params.Seed)
	}
	for _, st := range Stages() {
		c.stageParams[st] = s.ParamsFor(Purpose(st))
	}
	switch c.init {
	case "":
		c.init = InitEmpty
	case InitEmpty, InitPaper:
	default:
		return c, fmt.Errorf("pramem: init %q: want %s or %s", c.init, InitEmpty, InitPaper)
	}
	switch c.sections {
	case "":
		c.sections = SectionsBoth
	case SectionsBoth, SectionsPattern, SectionsBias:
	default:
		return c, fmt.Errorf("pramem: sections %q: want %s, %s or %s", c.sections, SectionsBoth, SectionsPattern, SectionsBias)
	}
	switch {
	case c.q != 1:
		return c, fmt.Errorf("pramem: q = %d: only one practice target per round is implemented (the reference's default)", c.q)
	case c.evalRound < 0:
		return c, fmt.Errorf("pramem: eval_round %d is negative", c.evalRound)
	case c.minHist < 0 || ps.MinHist < 0:
		return c, fmt.Errorf("pramem: min_history %d is negative", ps.MinHist)
	}
	key, err := json.Marshal(struct {
		V                                                              int
		Rounds, Q, N, M, T, Support, PoolSize, MinHist, PracticeTokens int
		Init                                                           string
		NoTrial, NoReflection, NoConsensus, NoGround, NoGeneral        bool
		Leak, Noop                                                     bool
		ReleaseSampling                                                bool `json:",omitempty"`
		SourceParsers                                                  bool `json:",omitempty"`
		Seed                                                           int64
		Params                                                         map[string]llm.Params
		Prompts                                                        string
	}{stateVersion, c.rounds, c.q, c.n, c.m, c.t, c.support, c.poolSize, c.minHist, c.practiceTokens, c.init,
		c.noTrial, c.noReflection, c.noConsensus, c.noGroundedness, c.noGeneralization, c.leak, c.noopGrounding,
		c.releaseSampling, c.sourceParsers, c.seed, c.stageParams, sp.digest})
	if err != nil {
		return c, fmt.Errorf("pramem: hash of the construction knobs: %w", err)
	}
	sum := sha256.Sum256(key)
	c.ns = "pramem-" + hex.EncodeToString(sum[:])[:12]
	return c, nil
}

// Purpose is the call purpose of a stage.
func Purpose(stage string) string { return "pramem." + stage }

// method is PraMem: per-user experiential memory built by practice rounds,
// appended after the 8K-truncation prompt at evaluation.
type method struct {
	eval predict.Evaluator
	sp   *stagePrompts
	// own is true when the spec names its own language or templates; else
	// the practice prompts follow Env.Prompts' language.
	own       bool
	templates []string
	cfg       config
}

// Kind is the name a config's methods[].kind gives PraMem.
const Kind = "pramem"

// New builds PraMem from a spec of kind "pramem" (knobs in spec.PraMem; nil
// means the paper's defaults as the released code sets them).
func New(s predict.Spec) (predict.Method, error) {
	if s.Kind == "" {
		s.Kind = Kind
	}
	if s.Kind != Kind {
		return nil, fmt.Errorf("pramem: spec of kind %q", s.Kind)
	}
	ev, err := predict.NewEvaluator(s)
	if err != nil {
		return nil, err
	}
	ev = ev.WithPredictHint()
	sp, err := loadStagePrompts(s.Language, s.Templates)
	if err != nil {
		return nil, fmt.Errorf("method %s: %w", ev.Name(), err)
	}
	cfg, err := resolve(s, sp)
	if err != nil {
		return nil, fmt.Errorf("method %s: %w", ev.Name(), err)
	}
	return &method{eval: ev, sp: sp, own: s.Language != "" || len(s.Templates) > 0, templates: s.Templates, cfg: cfg}, nil
}

func (m *method) Name() string { return m.eval.Name() }

// stage returns the practice templates for env: the spec's own, or the
// embedded ones of the language env's prediction prompts use.
func (m *method) stage(env predict.Env) (*stagePrompts, config, error) {
	lang := m.eval.Prompts(env).Lang
	if m.own || lang == m.sp.lang {
		return m.sp, m.cfg, nil
	}
	sp, err := loadStagePrompts(lang, nil)
	if err != nil {
		return nil, config{}, err
	}
	cfg := m.cfg
	// Different prompts build a different memory: namespace them apart.
	sum := sha256.Sum256([]byte(cfg.ns + "/" + sp.digest))
	cfg.ns = "pramem-" + hex.EncodeToString(sum[:])[:12]
	return sp, cfg, nil
}

// progress is the per-user checkpoint "<ns>-progress", saved after every
// round (the round record itself is "<ns>-round-<i>").
type progress struct {
	Version   int       `json:"version"`
	Items     []int     `json:"practice_items"`
	Completed int       `json:"completed_rounds"`
	Memory    ExpMemory `json:"memory"`
	// SnapshotTokens[i] is the evaluation block's memory tokens after round
	// i+1 (sections "both").
	SnapshotTokens []int          `json:"snapshot_tokens"`
	Events         map[string]int `json:"events"`
	Errors         map[int]string `json:"round_errors,omitempty"`
	Calls          int            `json:"calls"`
	Usage          llm.Usage      `json:"usage"`
	Seconds        float64        `json:"construction_seconds"`
}

func roundName(ns string, i int) string { return fmt.Sprintf("%s-round-%03d", ns, i) }

// PrepareUser builds (or resumes, or loads) the user's memory and returns
// its evaluation block as Text.
func (m *method) PrepareUser(ctx context.Context, env predict.Env, u behavior.UserSet) (predict.Memory, error) {
	sp, cfg, err := m.stage(env)
	if err != nil {
		return predict.Memory{}, err
	}
	if cfg.memoryDir != "" {
		mem, err := loadMemoryFile(cfg.memoryDir, u.User)
		if errors.Is(err, errNoMemory) && cfg.fallback {
			return predict.Memory{Meta: map[string]any{"missing_memory": true}}, nil
		}
		if err != nil {
			return predict.Memory{}, fmt.Errorf("method %s: user %s: %w", m.Name(), u.User, err)
		}
		return m.memory(env, sp, cfg, mem, map[string]any{"memory_dir": cfg.memoryDir})
	}
	if len(u.Instances) == 0 {
		return predict.Memory{}, nil
	}
	if env.Builder() == nil {
		return predict.Memory{}, fmt.Errorf("method %s: no model", m.Name())
	}
	pr, err := m.build(ctx, env, sp, cfg, u)
	if err != nil {
		return predict.Memory{}, fmt.Errorf("method %s: user %s: %w", m.Name(), u.User, err)
	}
	final := pr.Memory
	done := pr.Completed
	if cfg.evalRound > 0 && cfg.evalRound < pr.Completed {
		var rec Round
		ok, err := loadCheckpoint(env, u.User, roundName(cfg.ns, cfg.evalRound-1), &rec)
		if err != nil || !ok {
			return predict.Memory{}, fmt.Errorf("method %s: user %s: snapshot after round %d: %v", m.Name(), u.User, cfg.evalRound, orMissing(err))
		}
		final, done = rec.After, cfg.evalRound
	}
	mem, err := m.memory(env, sp, cfg, final, map[string]any{
		"rounds":               done,
		"rounds_built":         pr.Completed,
		"practice_items":       len(pr.Items),
		"construction_seconds": pr.Seconds,
		"snapshot_tokens":      pr.SnapshotTokens[:done],
		"events":               pr.Events,
		"round_errors":         len(pr.Errors),
		"checkpoint":           cfg.ns,
	})
	if err != nil {
		return mem, err
	}
	mem.Calls, mem.Usage = pr.Calls, pr.Usage
	return mem, nil
}

func orMissing(err error) error {
	if err == nil {
		return errors.New("checkpoint missing")
	}
	return err
}

// memory wraps an experiential memory as the runner's Memory.
func (m *method) memory(env predict.Env, sp *stagePrompts, cfg config, mem ExpMemory, meta map[string]any) (predict.Memory, error) {
	block, err := sp.evalBlock(mem, cfg.sections)
	if err != nil {
		return predict.Memory{}, err
	}
	raw, err := json.Marshal(mem.normalize())
	if err != nil {
		return predict.Memory{}, fmt.Errorf("pramem: %w", err)
	}
	meta["memory_json"] = string(raw)
	meta["user_exp"], meta["model_exp"], meta["proposal"] = len(mem.UserExp), len(mem.ModelExp), len(mem.Proposal)
	return predict.Memory{Text: block, Tokens: env.TokenCounter().Count(block), Meta: meta}, nil
}

// memoryCheckpoints is a no-op store for runs without persistence.
type memoryCheckpoints struct{}

func (memoryCheckpoints) Load(string, string, any) (bool, error) { return false, nil }
func (memoryCheckpoints) Save(string, string, any) error         { return nil }

func checkpoints(env predict.Env) predict.Checkpoints {
	if env.Checkpoints == nil {
		return memoryCheckpoints{}
	}
	return env.Checkpoints
}

func loadCheckpoint(env predict.Env, user, name string, v any) (bool, error) {
	ok, err := checkpoints(env).Load(user, name, v)
	if err != nil {
		return false, fmt.Errorf("pramem: checkpoint %s: %w", name, err)
	}
	return ok, nil
}

// build runs the practice rounds not yet in the checkpoints, up to the
// rounds needed (all of them, or eval_round's), saving each round and then
// the progress, so a crash loses at most the round in flight.
func (m *method) build(ctx context.Context, env predict.Env, sp *stagePrompts, cfg config, u behavior.UserSet) (progress, error) {
	// Methods that differ only in eval_round (or the sections evaluated)
	// share cfg.ns: the first builds, the others resume from its rounds.
	defer env.LockCheckpoints(u.User, cfg.ns)()
	var pr progress
	ok, err := loadCheckpoint(env, u.User, cfg.ns+"-progress", &pr)
	if err != nil {
		return pr, err
	}
	p := m.eval.Prompts(env)
	first := u.Instances[0]
	pool := first.History[:first.PracticeCut]
	book := newQuestionBook(u)
	if !ok || pr.Version != stateVersion {
		items, err := samplePractice(pool, book, cfg.minHist, cfg.poolSize, cfg.rounds, cfg.seed, u.User, cfg.releaseSampling)
		if err != nil {
			return pr, err
		}
		init, err := sp.initMemory(cfg.init, first.Profile)
		if err != nil {
			return pr, err
		}
		pr = progress{Version: stateVersion, Items: items, Memory: init, SnapshotTokens: []int{}, Events: map[string]int{}}
	}
	if pr.Events == nil {
		pr.Events = map[string]int{}
	}
	total := len(pr.Items)
	want := total
	if cfg.evalRound > 0 {
		want = min(cfg.evalRound, total)
	}
	// The leak reproduction reads past the pool: from the user's whole
	// timeline when the dataset gives it, else the longest history.
	full := u.Timeline
	for _, in := range u.Instances {
		if len(in.History) > len(full) {
			full = in.History
		}
	}
	leak := leakOffset(pool, first.Target)
	// The runner's method carries this build's templates and namespace.
	bm := &method{eval: m.eval, sp: sp, own: m.own, cfg: cfg}
	rr := &roundRunner{m: bm, env: env, sp: sp, user: u.User, total: total}
	for i := pr.Completed; i < want; i++ {
		start := time.Now()
		it, err := bm.buildItem(env, p, sp, u, pool, full, pr.Items[i], leak, book)
		if err != nil {
			return pr, err
		}
		rec, err := rr.run(ctx, i, it, pr.Memory)
		if err != nil {
			return pr, err
		}
		if err := checkpoints(env).Save(u.User, roundName(cfg.ns, i), rec); err != nil {
			return pr, fmt.Errorf("pramem: checkpoint round %d: %w", i, err)
		}
		block, err := sp.evalBlock(rec.After, SectionsBoth)
		if err != nil {
			return pr, err
		}
		pr.Memory = rec.After
		pr.Completed = i + 1
		pr.SnapshotTokens = append(pr.SnapshotTokens, env.TokenCounter().Count(block))
		for _, e := range rec.Events {
			pr.Events[e]++
		}
		if rec.Error != "" {
			if pr.Errors == nil {
				pr.Errors = map[int]string{}
			}
			pr.Errors[i] = rec.Error
		}
		pr.Calls += rec.Calls
		pr.Usage = pr.Usage.Add(rec.Usage)
		pr.Seconds += time.Since(start).Seconds()
		if err := checkpoints(env).Save(u.User, cfg.ns+"-progress", pr); err != nil {
			return pr, fmt.Errorf("pramem: checkpoint progress: %w", err)
		}
	}
	return pr, nil
}

// Predict answers inst with the 8K-truncated prompt and the memory block
// appended after it. A user without memory is an error unless
// fallback_truncation, which answers with the plain prompt.
func (m *method) Predict(ctx context.Context, env predict.Env, mem predict.Memory, inst behavior.Instance) (predict.Outcome, error) {
	if mem.Text == "" {
		if !m.cfg.fallback {
			return predict.Outcome{}, fmt.Errorf("method %s: %s: no PraMem memory for user %s (set fallback_truncation to answer without one)", m.Name(), inst.ID, inst.User)
		}
		return m.eval.Predict(ctx, env, inst, "", "")
	}
	return m.eval.Predict(ctx, env, inst, mem.Text, plainEntries(mem.Text))
}

// Entry is PraMem's kind entry: its constructor, the pramem block it
// reads, its practice stages' call purposes and what `bench memory` shows
// of its memories.
func Entry() predict.Entry {
	purposes := []predict.Purpose{predict.PredictPurpose()}
	for _, st := range Stages() {
		// The practice client sends the cap as max_completion_tokens and no
		// sampling field (z_5's --temperature is parsed, never sent).
		purposes = append(purposes, predict.Purpose{Name: Purpose(st), ReleaseFrom: runrecord.FromSource,
			Release: llm.Params{Extra: map[string]any{"max_completion_tokens": 16000}},
			Own:     llm.Params{MaxTokens: 16000},
			Source:  "z_5_practice_with_self_check.py --max_tokens default, sent by utils/use_my_api.py as max_completion_tokens"})
	}
	return predict.Entry{Kind: Kind, New: New, Provenance: provenance,
		// Table 2 is PraMem's ablation study: its variants are this kind's
		// switches.
		Paper:      []kinds.PaperRow{{Table: "PraMem Table 1", Label: "PraMem"}, {Table: "PraMem Table 2", Label: "PraMem"}, {Table: "PraMem Table 3", Label: "PraMem"}},
		SimReaders: func() []sim.Reader { return append(SimReaders(), predict.SimReaders()...) }, Keys: []string{"history_tokens", "pramem"}, Purposes: purposes,
		About: "practice rounds build an experience memory (patterns and bias alerts) shown after the truncated history",
		Memory: predict.Inspector{
			Columns: []predict.Column{{Heading: "rounds", Key: "rounds"}, {Heading: "experiences", Key: "user_exp"}, {Heading: "bias alerts", Key: "model_exp"}, {Heading: "pending", Key: "proposal"}},
			Summary: func(ms []predict.Memory) string {
				if len(ms) == 0 {
					return ""
				}
				return fmt.Sprintf("mean %.1f experiences and %.1f bias alerts after %d rounds",
					predict.MeanMeta(ms, "user_exp"), predict.MeanMeta(ms, "model_exp"), predict.MetaInt(ms[0].Meta, "rounds"))
			},
			Detail:   inspect,
			Snapshot: snapshot,
		}}
}

// provenance says where each practice stage's prompt, request settings
// and reply parser come from, and the practice input and draw.
func provenance(s predict.Spec, release bool, sampling func(string) string) map[string]runrecord.Provenance {
	prompt := runrecord.FromOwn
	if release {
		prompt = runrecord.FromSource
	}
	out := map[string]runrecord.Provenance{}
	for _, st := range Stages() {
		// The practice replies are read as the release reads them
		// under parser "source", else by our own parsers (more
		// lenient with JSON); the trial reply is not parsed.
		p := runrecord.FromOwn
		if s.Parser == predict.ParserSource {
			p = runrecord.FromSource
		}
		if st == "trial" {
			p = runrecord.FromNone
		}
		pv := runrecord.Provenance{Prompt: prompt, Sampling: sampling(Purpose(st)), Parser: p}
		if st == "scenes" {
			pv.Note = "not sent when the practice input shows no current scene (a text-question target), as the release"
		}
		out[st] = pv
	}
	// The practice input (the trial's and the reflection's task):
	// the release's z_2 shape, with its text-question prompt for a
	// search or customer-service target, or ours.
	input := runrecord.Provenance{Prompt: prompt, Sampling: runrecord.FromNone, Parser: runrecord.FromNone,
		Note: "text-question targets (search keyword, next customer-service message) as the release: its text-question prompt, no scene"}
	if !release {
		input.Note = "a text-question target, drawn only by the release's draw, shows the yes/no prompt's history and its scene without a question line"
	}
	out["practice_input"] = input
	draw := runrecord.Provenance{Prompt: runrecord.FromNone, Sampling: runrecord.FromOwn, Parser: runrecord.FromNone}
	if s.PraMem != nil && s.PraMem.ReleaseSampling {
		draw.Sampling = runrecord.FromSource
		draw.Note = "the release's draw made deterministic (seeds 42, 1024 as one process); the release's own draw, reseeded per forked worker, cannot be reproduced"
	}
	out["practice_draw"] = draw
	return out
}
