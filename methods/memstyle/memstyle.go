package memstyle

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/kinds"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/llm/tokens"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/runrecord"
)

// The kinds this package implements, as a config's methods[].kind names
// them.
const (
	KindMem0  = "mem0"
	KindMemOS = "memos"
	KindProEx = "proex"
)

// Defaults of the knobs (predict.MemorySpec; zero fields and a nil spec
// take these).
const (
	DefaultChunk        = 20 // history records per extraction call (Mem0, MemOS)
	DefaultMem0TopK     = 10 // memories retrieved per question (Mem0)
	DefaultMemOSTopK    = 12 // units retrieved per question, shared by the types (MemOS)
	DefaultMemOSMax     = 96 // units kept by MemOS, an equal cap per type
	DefaultProfiles     = 3  // profiles induced (ProEx)
	DefaultHoldout      = 10 // held-out practice records validating them (ProEx)
	DefaultMemoryTokens = 2000
	// DefaultMaxFacts bounds the facts of one extraction call and the units
	// of one typed call; a ProEx profile gets profileFactsFactor times as
	// many statements, as it covers every scene and field at once.
	DefaultMaxFacts    = 12
	profileFactsFactor = 4
	// UpdateNeighbours is how many similar stored memories a Mem0 update
	// decision sees.
	UpdateNeighbours = 5
	// ProfileRecordTokens is the history a ProEx induction call reads: the
	// long-context baseline's budget, the most history one prompt carries
	// in the paper's setup.
	ProfileRecordTokens = 32000
)

// knobs are the resolved settings that determine a memory; they are hashed
// into the checkpoint name.
type knobs struct {
	Kind      string `json:"kind"`
	TopK      int    `json:"top_k"`
	Chunk     int    `json:"chunk"`
	Profiles  int    `json:"profiles"`
	Holdout   int    `json:"holdout"`
	MaxMemory int    `json:"max_memory"`
	MaxFacts  int    `json:"max_facts"`
}

func resolve(kind string, ms *predict.MemorySpec) knobs {
	var s predict.MemorySpec
	if ms != nil {
		s = *ms
	}
	k := knobs{Kind: kind, TopK: s.TopK, Chunk: s.Chunk, Profiles: s.Profiles, Holdout: s.Holdout, MaxMemory: s.MaxMemory, MaxFacts: DefaultMaxFacts}
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&k.Chunk, DefaultChunk)
	switch kind {
	case KindMem0:
		def(&k.TopK, DefaultMem0TopK)
		k.MaxMemory = max(k.MaxMemory, 0) // 0: unbounded, as Mem0
		k.Profiles, k.Holdout = 0, 0
	case KindMemOS:
		def(&k.TopK, DefaultMemOSTopK)
		def(&k.MaxMemory, DefaultMemOSMax)
		k.Profiles, k.Holdout = 0, 0
	case KindProEx:
		def(&k.Profiles, DefaultProfiles)
		if k.Holdout == 0 {
			k.Holdout = DefaultHoldout
		}
		k.Holdout = max(k.Holdout, 0)
		k.MaxFacts = profileFactsFactor * DefaultMaxFacts
		k.TopK, k.Chunk, k.MaxMemory = 0, 0, 0
	}
	return k
}

// New builds a Mem0-, MemOS- or ProEx-style method (spec.Kind "mem0",
// "memos" or "proex"); spec.Memory holds the knobs (nil: the defaults).
func New(spec predict.Spec) (predict.Method, error) {
	c, err := newCommon(spec)
	if err != nil {
		return nil, err
	}
	switch spec.Kind {
	case KindMem0:
		return &mem0{common: c}, nil
	case KindMemOS:
		return &memos{common: c}, nil
	case KindProEx:
		return &proex{common: c}, nil
	}
	return nil, fmt.Errorf("memstyle: unknown method kind %q (want %s, %s or %s)", spec.Kind, KindMem0, KindMemOS, KindProEx)
}

// common is what the three methods share: prompts, budgets and the
// prediction call.
type common struct {
	name      string
	k         knobs
	budget    int // history tokens of the prediction prompt
	memTokens int // cap of the memory block
	spec      predict.Spec
	// own are the spec's prediction prompts (they beat Env.Prompts);
	// fallback is the default language's.
	own, fallback *predict.Prompts
	// texts are the construction prompts and memory blocks per language.
	texts map[string]*texts
}

func newCommon(s predict.Spec) (common, error) {
	switch s.Kind {
	case KindMem0, KindMemOS, KindProEx:
	default:
		return common{}, fmt.Errorf("memstyle: unknown method kind %q (want %s, %s or %s)", s.Kind, KindMem0, KindMemOS, KindProEx)
	}
	c := common{name: s.Name, k: resolve(s.Kind, s.Memory), spec: s, texts: map[string]*texts{}}
	if c.name == "" {
		c.name = s.Kind
	}
	switch {
	case s.HistoryTokens < 0:
		c.budget = 0
	case s.HistoryTokens > 0:
		c.budget = s.HistoryTokens
	default:
		c.budget = predict.DefaultHistoryTokens
	}
	c.memTokens = s.MemoryTokens
	if c.memTokens <= 0 {
		c.memTokens = DefaultMemoryTokens
	}
	var err error
	if s.Language != "" || len(s.Templates) > 0 {
		if c.own, err = predict.LoadPrompts(s.Language, s.Templates...); err != nil {
			return common{}, fmt.Errorf("method %s: %w", c.name, err)
		}
	} else if c.fallback, err = predict.LoadPrompts(predict.DefaultLanguage); err != nil {
		return common{}, fmt.Errorf("method %s: %w", c.name, err)
	}
	// Both languages up front: Env.Prompts may name either at run time.
	for _, lang := range predict.Languages() {
		if c.texts[lang], err = loadTexts(lang, s.Templates); err != nil {
			return common{}, fmt.Errorf("method %s: %w", c.name, err)
		}
	}
	return c, nil
}

func (c *common) Name() string { return c.name }

func (c *common) prompts(env predict.Env) *predict.Prompts {
	switch {
	case c.own != nil:
		return c.own
	case env.Prompts != nil:
		return env.Prompts
	default:
		return c.fallback
	}
}

// text returns the templates in the prediction prompts' language (English
// for a language without memstyle templates).
func (c *common) text(env predict.Env) *texts {
	if x, ok := c.texts[c.prompts(env).Lang]; ok {
		return x
	}
	return c.texts["en"]
}

func counter(env predict.Env) tokens.Counter {
	if env.Tokens == nil {
		return tokens.Approx{}
	}
	return env.Tokens
}

// practice returns the records memory may be built from: the history
// before the user's first test action.
func practice(u behavior.UserSet) []behavior.Event {
	if len(u.Instances) == 0 {
		return nil
	}
	first := u.Instances[0]
	return first.History[:first.PracticeCut]
}

// userFields lists every field the user is asked about, sorted.
func userFields(u behavior.UserSet) []string {
	var out []string
	for _, in := range u.Instances {
		if !slices.Contains(out, in.Question.Field) {
			out = append(out, in.Question.Field)
		}
	}
	slices.Sort(out)
	return out
}

// hintEvent is what a prompt shows of a record; a target's outcomes are
// what is being predicted, so they are left out.
func hintEvent(e behavior.Event, withOutcomes bool) hint.Event {
	h := hint.Event{Scene: e.Scene, Attrs: predict.ShownAttrs(e)}
	if withOutcomes {
		h.Outcomes = e.Outcomes
	}
	return h
}

func hintEvents(events []behavior.Event) []hint.Event {
	out := make([]hint.Event, len(events))
	for i, e := range events {
		out[i] = hintEvent(e, true)
	}
	return out
}

// fitLines keeps lines in order while their summed cost fits limit,
// stopping at the first that does not fit (as history windows do).
func fitLines(c tokens.Counter, lines []string, limit int) []string {
	used := 0
	for i, l := range lines {
		cost := c.Count(l + "\n")
		if used+cost > limit {
			return lines[:i]
		}
		used += cost
	}
	return lines
}

// queryText is what a question retrieves memories with: the question's
// field and text, and the scene as the prompt shows it.
func queryText(inst behavior.Instance) string {
	scene := inst.Target.RawScene
	if scene == "" {
		scene = inst.Target.Scene
	}
	return strings.Join([]string{inst.Question.Field, inst.Question.Text, scene, inst.Target.Context}, "\n")
}

// predictWith answers inst with the 8K-history prompt and block appended
// after it (the paper's protocol for every memory baseline: PraMem's
// trailing slot), redrawing invalid answers. model and purpose let ProEx
// validation use the same path with the construction model.
func (c *common) predictWith(ctx context.Context, env predict.Env, model llm.Model, purpose string, inst behavior.Instance, block string) (predict.Outcome, error) {
	if model == nil {
		return predict.Outcome{}, fmt.Errorf("method %s: no model", c.name)
	}
	p, cnt := c.prompts(env), counter(env)
	w, err := p.SelectWindow(cnt, inst.History, c.budget)
	if err != nil {
		return predict.Outcome{}, fmt.Errorf("method %s: %s: %w", c.name, inst.ID, err)
	}
	visible := inst.History[w.Start:]
	hist, err := p.HistoryBlock(visible, w.Tokens)
	if err != nil {
		return predict.Outcome{}, fmt.Errorf("method %s: %s: %w", c.name, inst.ID, err)
	}
	q, err := p.Question(inst, hist)
	if err != nil {
		return predict.Outcome{}, fmt.Errorf("method %s: %w", c.name, err)
	}
	prompt := predict.WithMemory(q, block)
	// The prompt as sent goes on the sample's record like every other
	// method's, so the viewer can show what the model read.
	out := predict.Outcome{HistoryRecords: len(visible), HistoryTokens: w.Tokens, Prompt: prompt}
	if block != "" {
		out.MemoryTokens = cnt.Count(block)
	}
	shown := make([]hint.Event, len(visible))
	for i, e := range visible {
		shown[i] = hintEvent(e, true)
	}
	parse := predict.AnswerParser(inst.Question, c.spec.Parser)
	req := llm.Request{
		Purpose:  purpose,
		Messages: []llm.Message{{Role: "user", Content: prompt}},
		Params:   c.spec.ParamsFor(purpose),
		SampleID: inst.ID,
		Unit:     c.name + "/" + inst.ID, // one answer per (method, instance)
		Affinity: inst.User,
		Hint: hint.Predict{
			Field: inst.Question.Field, Kind: inst.Question.Kind, Classes: inst.Question.Classes,
			Visible: shown, Target: hintEvent(inst.Target, false), Memory: block,
		},
	}
	return predict.Answer(ctx, model, env.Draws(), c.name, req, predict.ReplyReader(c.spec.Parser), parse, out)
}

// Entries are the Mem0-, MemOS- and ProEx-style kinds' entries.
func Entries() []predict.Entry {
	keys := []string{"history_tokens", "memory_tokens", "memory"}
	purposes := func(names ...string) []predict.Purpose {
		out := []predict.Purpose{predict.PredictPurpose()}
		for _, n := range names {
			out = append(out, predict.Purpose{Name: n, ReleaseFrom: runrecord.FromOwn,
				Source: "no released code (the memory-system baselines are the harness's): server defaults"})
		}
		return out
	}
	units := predict.Inspector{
		Columns: []predict.Column{{Heading: "stored", Key: "stored"}, {Heading: "added", Key: "added"}, {Heading: "updated", Key: "updated"}, {Heading: "invalid answers", Key: "invalid_answers"}},
		Summary: func(ms []predict.Memory) string {
			return fmt.Sprintf("mean %.1f stored units", predict.MeanMeta(ms, "stored"))
		},
		Detail: inspect,
	}
	return []predict.Entry{
		{Kind: KindMem0, RanksByEmbedding: true, Paper: []kinds.PaperRow{{Table: "PraMem Table 1", Label: "Mem0"}, {Table: "PraMem Table 3", Label: "Mem0"}}, New: New, SimReaders: simReaders, Keys: keys, Purposes: purposes("mem0.extract", "mem0.update"), Memory: units,
			About: "Mem0-style: facts extracted from the history, added or updated one by one, retrieved per question"},
		{Kind: KindMemOS, RanksByEmbedding: true, Paper: []kinds.PaperRow{{Table: "PraMem Table 1", Label: "MemOS"}, {Table: "PraMem Table 3", Label: "MemOS"}}, New: New, SimReaders: simReaders, Keys: keys, Purposes: purposes("memos.extract", "memos.consolidate"), Memory: units,
			About: "MemOS-style: typed memory units extracted and consolidated, retrieved per question"},
		{Kind: KindProEx, Paper: []kinds.PaperRow{{Table: "PraMem Table 1", Label: "ProEx"}, {Table: "PraMem Table 3", Label: "ProEx"}}, New: New, SimReaders: simReaders, Keys: keys, Purposes: purposes("proex.induce", "proex.validate"),
			About: "ProEx-style: candidate profiles induced from perspectives of the history, the validated ones kept",
			Memory: predict.Inspector{
				Columns: []predict.Column{{Heading: "profiles chosen", Key: "chosen"}, {Heading: "validation questions", Key: "validation_questions"}},
				Summary: func(ms []predict.Memory) string {
					return fmt.Sprintf("mean %.1f chosen profiles", predict.MeanMeta(ms, "chosen"))
				},
				Detail: inspect}},
	}
}

// simReaders are the readers of memstyle's construction hints and of the
// prediction path's answers, which its methods ask through.
func simReaders() []sim.Reader { return append(SimReaders(), predict.SimReaders()...) }
