package lifelong

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/memharness/memharness/datasets/pyrandom"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

// PaperOrder returns the ten stream environments in the paper's similarity
// order (registry names): the built-in environments with a Table 2
// category, in registry order.
func PaperOrder() []string { return builtInNames(true) }

// PaperOOD returns the out-of-distribution environments of §6.2: the
// built-in environments outside Table 2's categories.
func PaperOOD() []string { return builtInNames(false) }

func builtInNames(inStream bool) []string {
	var names []string
	for _, e := range all.Entries() {
		if (e.Category != "") == inStream {
			names = append(names, e.Name)
		}
	}
	return names
}

// Stream kinds.
const (
	StreamSimilarity = "similarity"
	StreamRandom     = "random"
	StreamBuffer     = "buffer"
)

// KindLifeMem is LifeMem's method kind, whose release prompts a lifelong
// run checks (the other agent kinds are known only by their entries, see
// Methods).
const KindLifeMem = "lifemem"

// DefaultBatch is LifeMem's unit of ingestion: memory is initialised from,
// and evolves by, batches of 5 trajectories; the buffer stream's per-env
// cache has the same size.
const DefaultBatch = 5

// Config is the `lifelong:` block of a LifeMem config. The YAML shape
// (configs/paper/lifemem_*.yaml):
//
//	lifelong:
//	  stream: similarity          # similarity | random | buffer
//	  envs: [alfworld, ...]       # stream environments in stream order (default: the paper's ten)
//	  ood: [fever, taubench-airline]   # zero-shot after the full stream (default: none)
//	  self_learn: false           # also learn and test each environment alone
//	  seed: 0                     # 0: the config's top-level seed
//	  batch: 5                    # trajectories per Learn call / buffer cache size
//	  tasks_per_env: 0            # first N test tasks per environment (0: all)
//	  max_steps: {alfworld: 20}   # per-environment step limit (default: the suite's)
//	  orders: 3                   # run the stream under 3 seeded orders (a sweep variant each)
//	  named_orders: [similarity, random, buffer]   # the paper's streams as orders
//	  methods:
//	    - {name: react, kind: react}
//	    - {name: lifemem, kind: lifemem, top_k: 2, split_size: 50, tau: 0.95}
//	    - {name: lifemem_no_skills, kind: lifemem, no_skills: true}
//
// Unknown keys are errors (DecodeConfig uses KnownFields).
type Config struct {
	// Stream is the task stream: similarity (one stage per environment, in
	// Envs order), random (one seeded shuffle) or buffer (the shuffle
	// committed through a per-environment cache of Batch trajectories).
	Stream string `yaml:"stream" json:"stream"`
	// Envs are the stream's environments in stream order (default: the
	// paper's ten).
	Envs []string `yaml:"envs" json:"envs"`
	// OOD environments are evaluated zero-shot after the full stream.
	OOD []string `yaml:"ood" json:"ood,omitempty"`
	// SelfLearn adds Table 6's reference row: each environment learned and
	// tested alone by a fresh method.
	SelfLearn bool `yaml:"self_learn" json:"self_learn,omitempty"`
	// Seed of the stream's shuffles and the methods (0: the top-level seed).
	Seed int64 `yaml:"seed" json:"seed,omitempty"`
	// Batch is the trajectories per Learn call and the buffer cache size (5).
	Batch int `yaml:"batch" json:"batch"`
	// TasksPerEnv keeps the first N test tasks of each environment (0: all).
	TasksPerEnv int `yaml:"tasks_per_env" json:"tasks_per_env,omitempty"`
	// MaxSteps overrides an environment's step limit ({env: steps}).
	MaxSteps map[string]int `yaml:"max_steps" json:"max_steps,omitempty"`
	// TrainDir holds LifeMem's training trajectories as train_<env>.jsonl
	// ({task, messages} lines); it is read when the run uses official data
	// (dataset.path), whose test sets come from the environments' own splits.
	TrainDir string `yaml:"train_dir" json:"train_dir,omitempty"`
	// Methods are the agent methods, each learning the stream on its own.
	Methods []MethodSpec `yaml:"methods" json:"methods"`
	// AllowPartialStream lets a run on a real endpoint go on when an
	// environment of its stream cannot run here (it is left out and named
	// in the titles); without it such a run refuses to start, since OP and
	// BwT over fewer environments mean something else. The sim backbone
	// always runs partial, with a warning. (--allow-partial-stream)
	AllowPartialStream bool `yaml:"allow_partial_stream" json:"allow_partial_stream,omitempty"`
	// TestSize keeps the first N test tasks of an environment, in file
	// order (the paper's per-environment test-set sizes; see
	// each environment entry's PaperTestSize). Environments not listed run
	// their whole test split.
	TestSize map[string]int `yaml:"test_size" json:"test_size,omitempty"`
	// Sampling overrides the sampling settings of one request purpose
	// (act, customer, reflect, abstract, construction, skills) in every
	// environment, key by key over the defaults: the sources' (prompts:
	// release; the paper's where sampling_source is paper) or the
	// harness's (prompts: own). "stop: []" sends no stop list. See the
	// agent sampling section below for the defaults.
	Sampling map[string]llm.Params `yaml:"sampling" json:"sampling,omitempty"`
	// SamplingEnv overrides one environment's purposes the same way
	// ({env: {purpose: settings}}), over Sampling.
	SamplingEnv map[string]map[string]llm.Params `yaml:"sampling_env" json:"sampling_env,omitempty"`
	// SamplingSource chooses, under prompts: release, between the
	// sources' code defaults ("code", the default) and the settings a
	// paper states where they differ ("paper"; --profile paper sets it).
	// The manifest's provenance names the one that ran.
	SamplingSource string `yaml:"sampling_source" json:"sampling_source,omitempty"`
	// TestShuffle reorders an environment's test split before TestSize
	// cuts it, as Python's random.Random(seed).shuffle(list(range(size)))
	// does (ReAct's and ExpeL's FEVER selection: size 7405, seed 233).
	TestShuffle map[string]PyShuffle `yaml:"test_shuffle" json:"test_shuffle,omitempty"`
	// Orders runs the stream under this many seeded orders, each its own
	// run (a sweep variant setting order 1..K; see Order), so the report
	// can say how far the order moves OP and BwT. 0 or 1: one order.
	Orders int `yaml:"orders,omitempty" json:"orders,omitempty"`
	// NamedOrders runs the stream as each of these streams (similarity,
	// random, buffer: the paper's Table 5 streams), each its own run (a
	// sweep variant setting stream), and reports them as orders; with
	// Orders, every named stream runs under that many seeded orders.
	NamedOrders []string `yaml:"named_orders,omitempty" json:"named_orders,omitempty"`
	// Order is which seeded order of the stream this run learns (set by
	// the expansion of orders; 0 or 1: the stream as configured). Order
	// k >= 2 draws its own seed from seed and k: a random or buffer stream
	// another global shuffle, a similarity stream another order of the
	// environments (one stage each, easy→hard within, so BwT stays
	// defined). Episodes keep the run's seed, so a task is played with the
	// same randomness in every order.
	Order int `yaml:"order,omitempty" json:"order,omitempty"`
}

// MethodSpec is one method of a lifelong run with its knobs (agent.Spec:
// the spec sits beside the agent methods' entries).
type MethodSpec = agent.Spec

// DecodeConfig reads a `lifelong:` block (the block's content, not the
// whole file) strictly: unknown keys are errors. The result has its
// defaults applied and is validated.
func DecodeConfig(r io.Reader) (Config, error) {
	dec := yaml.NewDecoder(r)
	dec.KnownFields(true)
	var c Config
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return Config{}, fmt.Errorf("lifelong config: %w", err)
	}
	c = c.WithDefaults()
	if err := c.Validate(); err != nil {
		return Config{}, err
	}
	return c, nil
}

// LoadConfigFile reads the `lifelong:` block of a whole config file (other
// top-level keys are the bench config's business and are ignored here).
// Errors name the file.
func LoadConfigFile(path string) (Config, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("lifelong config: %w", err)
	}
	var top map[string]yaml.Node
	if err := yaml.Unmarshal(src, &top); err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	node, ok := top["lifelong"]
	if !ok {
		return Config{}, fmt.Errorf("%s: no lifelong: block", path)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	if err := enc.Encode(&node); err != nil {
		return Config{}, fmt.Errorf("%s: lifelong: %w", path, err)
	}
	c, err := DecodeConfig(&buf)
	if err != nil {
		// yaml's line numbers are relative to the block; give the block's.
		return Config{}, fmt.Errorf("%s (lifelong: block at line %d): %w", path, node.Line, err)
	}
	return c, nil
}

// WithDefaults fills the zero fields: similarity stream, the paper's ten
// environments and batches of 5.
func (c Config) WithDefaults() Config {
	if c.Stream == "" {
		c.Stream = StreamSimilarity
	}
	if len(c.Envs) == 0 {
		c.Envs = PaperOrder()
	}
	if c.Batch == 0 {
		c.Batch = DefaultBatch
	}
	return c
}

var safeName = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// Known lists the agent method kinds and environments a run can build, so
// that validation accepts kinds registered beyond the built-ins (nil means
// the built-ins). bench fills it from the run's registries.
type Known struct {
	Methods *Methods
	Envs    []string
}

func (k Known) methods() *Methods {
	if k.Methods == nil {
		return DefaultMethods()
	}
	return k.Methods
}

func (k Known) envs() []string {
	if k.Envs == nil {
		return append(PaperOrder(), PaperOOD()...)
	}
	return k.Envs
}

// Validate reports every problem of the config at once, each naming its
// field, against the built-in kinds and environments.
func (c Config) Validate() error { return c.ValidateKnown(Known{}) }

// ValidateKnown is Validate against the kinds and environments of k.
func (c Config) ValidateKnown(k Known) error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("lifelong."+format, args...)) }
	switch c.Stream {
	case StreamSimilarity, StreamRandom, StreamBuffer:
	default:
		bad("stream: %q is not one of similarity, random, buffer", c.Stream)
	}
	known := k.envs()
	seen := map[string]string{}
	check := func(field string, list []string) {
		for i, e := range list {
			switch {
			case !slices.Contains(known, e):
				bad("%s[%d]: unknown environment %q (known: %s)", field, i, e, strings.Join(known, ", "))
			case seen[e] != "":
				bad("%s[%d]: %q is already listed in %s", field, i, e, seen[e])
			default:
				seen[e] = field
			}
		}
	}
	check("envs", c.Envs)
	check("ood", c.OOD)
	for _, e := range validateSampling(c, known) {
		bad("%s", e)
	}
	if len(c.Envs) == 0 {
		bad("envs: empty")
	}
	if c.Batch < 1 {
		bad("batch: %d, want >= 1", c.Batch)
	}
	for _, e := range validateOrders(c) {
		bad("%s", e)
	}
	if c.TasksPerEnv < 0 {
		bad("tasks_per_env: %d, want >= 0", c.TasksPerEnv)
	}
	for _, e := range sortedKeys(c.MaxSteps) {
		if seen[e] == "" {
			bad("max_steps.%s: not an environment of envs or ood", e)
		}
		if c.MaxSteps[e] < 1 {
			bad("max_steps.%s: %d, want >= 1", e, c.MaxSteps[e])
		}
	}
	if len(c.Methods) == 0 {
		bad("methods: empty; list at least one method")
	}
	names := map[string]int{}
	for i, m := range c.Methods {
		field := fmt.Sprintf("methods[%d]", i)
		if !safeName.MatchString(m.Name) {
			bad("%s.name: %q must be a non-empty, filesystem-safe name (letters, digits, . _ -)", field, m.Name)
		} else if j, dup := names[m.Name]; dup {
			bad("%s.name: %q repeats methods[%d]", field, m.Name, j)
		} else {
			names[m.Name] = i
		}
		for _, e := range validateMethod(m, k.methods()) {
			bad("%s.%s", field, e)
		}
	}
	return errors.Join(errs...)
}

// validateMethod checks one method's knobs against its kind's entry: a
// shared knob set on a kind that does not read it is reported, as are the
// kind's own checks.
func validateMethod(m MethodSpec, reg *Methods) []string {
	e, err := reg.Lookup(m.Kind)
	if err != nil {
		return []string{fmt.Sprintf("kind: %q is not one of %s", m.Kind, strings.Join(reg.Ordered(), ", "))}
	}
	var out []string
	if e.Options == nil {
		// A spec decoded without the config's checker (DecodeConfig) keeps
		// unknown keys here; a kind without options of its own has none.
		for _, k := range sortedKeys(m.Options) {
			out = append(out, fmt.Sprintf("%s: unknown field (kind %s takes no options of its own)", k, m.Kind))
		}
	}
	if m.TopK < 0 {
		out = append(out, fmt.Sprintf("top_k: %d, want >= 0", m.TopK))
	}
	for _, k := range []struct {
		key string
		set bool
	}{
		{"top_k", m.TopK != 0}, {"split_size", m.SplitSize != 0}, {"tau", m.Tau != 0},
		{"no_skills", m.NoSkills}, {"no_trajectories", m.NoTrajectories},
	} {
		if k.set && !slices.Contains(e.Keys, k.key) {
			msg := fmt.Sprintf("%s: not read by kind %s", k.key, m.Kind)
			if by := readers(reg, k.key); len(by) > 0 {
				msg += " (only " + strings.Join(by, ", ") + ")"
			}
			out = append(out, msg)
		}
	}
	if e.Check != nil {
		out = append(out, e.Check(m)...)
	}
	return out
}

// readers are the kinds of reg that read a knob.
func readers(reg *Methods, key string) []string {
	var out []string
	for _, e := range reg.Entries() {
		if slices.Contains(e.Keys, key) {
			out = append(out, e.Kind)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestSet cuts tasks, the test split of env in file order, to the
// configured size.
func (c Config) TestSet(env string, tasks []envs.Task) []envs.Task {
	if sh, ok := c.TestShuffle[env]; ok && sh.Size > 0 {
		var out []envs.Task
		idx := make([]int, sh.Size)
		for i := range idx {
			idx[i] = i
		}
		// idxs = list(range(size)); random.Random(seed).shuffle(idxs)
		pyrandom.New(int64(sh.Seed)).Shuffle(sh.Size, func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		for _, i := range idx {
			if i < len(tasks) {
				out = append(out, tasks[i])
			}
		}
		tasks = out
	}
	if n := c.TestSize[env]; n > 0 && len(tasks) > n {
		return tasks[:n]
	}
	return tasks
}

// PyShuffle names a Python shuffle of list(range(Size)) by
// random.Random(Seed).
type PyShuffle struct {
	Size int    `yaml:"size" json:"size"`
	Seed uint64 `yaml:"seed" json:"seed"`
}

// DescribeTestSet says where env's test set of n tasks (cut from a split of
// whole tasks) comes from, against paper (the environment entry's
// PaperTestSize; zero when the paper gives none): the paper's, an
// assumption, a size the config chose, or the whole split because the
// paper's is unknown. official is false on the embedded suites.
func (c Config) DescribeTestSet(env string, paper envs.TestSetSize, n, whole int, official bool) TestSetRecord {
	r := TestSetRecord{Env: env, Tasks: n}
	if !official {
		r.Status, r.Note = "embedded", fmt.Sprintf("the test split of the embedded suite written by us (%d tasks), not the paper's tasks", whole)
		if n < whole {
			r.Note += fmt.Sprintf("; lifelong.test_size keeps %d", n)
		}
		return r
	}
	known := paper.Size > 0
	size := c.TestSize[env]
	switch {
	case size > 0 && known && size == paper.Size && paper.Known:
		r.Status, r.Note = "paper", paper.Note
	case size > 0 && known && size == paper.Size:
		r.Status, r.Note = "assumed", paper.Note
	case size > 0:
		r.Status, r.Note = "config", fmt.Sprintf("first %d of the test split, set by lifelong.test_size (the paper gives no size)", size)
		if known {
			r.Note = fmt.Sprintf("first %d of the test split, set by lifelong.test_size (paper: %d, %s)", size, paper.Size, paper.Note)
		}
	default:
		r.Status, r.Note = "unknown", fmt.Sprintf("the whole test split (%d tasks): the paper's test set for this environment is not recoverable", whole)
		if known {
			r.Status = "whole"
			r.Note = fmt.Sprintf("the whole test split (%d tasks); the paper's is %d (%s) — set lifelong.test_size.%s", whole, paper.Size, paper.Note, env)
		}
	}
	if size > 0 && n < size {
		r.Note += fmt.Sprintf("; ⚠ only %d tasks in the file", n)
	}
	if c.TasksPerEnv > 0 && n > c.TasksPerEnv {
		r.Tasks = c.TasksPerEnv
		r.Note += fmt.Sprintf("; ⚠ lifelong.tasks_per_env runs only the first %d of these %d", c.TasksPerEnv, n)
	}
	return r
}
