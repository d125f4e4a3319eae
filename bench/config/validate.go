package config

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/export"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/methods/registry"
	"github.com/memharness/memharness/metrics"
	scoring "github.com/memharness/memharness/metrics/memqa"
)

// Limits on knobs whose extreme values are always mistakes.
const (
	maxConcurrency = 4096
	maxRetries     = 100
	maxAttempts    = 100
	maxRepeats     = 1000
	// maxPrefixCacheTokens is 2^40 tokens, far beyond any server's cache.
	maxPrefixCacheTokens = 1 << 40
)

// Tasks, dataset names and languages the harness knows.
var (
	tasks     = []string{"movielens", "omnibehavior", "lifemem", "locomo", "longmemeval"}
	datasets  = []string{"movielens", "omnibehavior", "lifemem", "locomo", "longmemeval"} // lifemem: the agent environments (dataset.path = their data root)
	languages = []string{"en", "zh"}
)

// MethodKinds returns k's prediction method kinds, sorted.
func (k Known) MethodKinds() []string { return k.methods().Names() }

// validator collects field errors in a fixed order.
type validator struct{ errs []error }

func (v *validator) add(path, format string, args ...any) {
	v.errs = append(v.errs, &Error{Path: path, Msg: fmt.Sprintf(format, args...)})
}

func (v *validator) oneOf(path, val string, allowed []string) {
	if !slices.Contains(allowed, val) {
		v.add(path, "unknown value %q (want %s)", val, strings.Join(allowed, ", "))
	}
}

func (v *validator) atLeast(path string, val, lo int) {
	if val < lo {
		v.add(path, "must be at least %d, got %d", lo, val)
	}
}

func (v *validator) between(path string, val, lo, hi int) {
	if val < lo || val > hi {
		v.add(path, "must be between %d and %d, got %d", lo, hi, val)
	}
}

func (v *validator) unit(path string, val float64) {
	if math.IsNaN(val) || val < 0 || val > 1 {
		v.add(path, "must be between 0 and 1, got %v", val)
	}
}

func (v *validator) nonNegative(path string, val float64) {
	switch {
	case math.IsNaN(val) || val < 0:
		v.add(path, "must not be negative, got %v", val)
	case math.IsInf(val, 0):
		v.add(path, "must be a finite number, got %v", val)
	}
}

// maxPricePer1M bounds a price: no model costs more than this many dollars
// a million tokens, and a price past it would overflow a run's cost to
// infinity.
const maxPricePer1M = 1e6

func (v *validator) price(path string, val float64) {
	v.nonNegative(path, val)
	if val > maxPricePer1M && !math.IsInf(val, 0) {
		v.add(path, "must be at most %g US dollars per million tokens, got %v", maxPricePer1M, val)
	}
}

// Values of Config.Prompts.
const (
	PromptsOwn     = "own"
	PromptsRelease = "release"
)

func orOwn(s string) string {
	if s == "" {
		return PromptsOwn
	}
	return s
}

// PromptsLabel is the prompts setting as recorded: "own" or "release".
func (c *Config) PromptsLabel() string { return orOwn(c.Prompts) }

// Known holds the kinds a run can build, so that validation accepts kinds
// registered beyond the built-ins, with their own options; nil means the
// built-ins. bench fills it from the run's registries (Options.Known).
type Known struct {
	// Methods are the behaviour-prediction method kinds.
	Methods *registry.Registry
	// Lifelong are the agent method kinds and environments.
	Lifelong lifelong.Known
	// Tasks are the tasks the registered families run (nil: the built-in
	// ones).
	Tasks map[string]TaskShape
}

// TaskShape is what validation knows of a task from its family.
type TaskShape struct {
	// Lifelong: the task's methods are agent methods in the lifelong
	// block; otherwise they are the methods list.
	Lifelong bool
	// Datasets are the dataset names the task reads beside the built-in
	// ones (a registered family's own data).
	Datasets []string
	// Judged: the task grades its answers with a judge model, which the
	// judge section configures.
	Judged bool
	// LoCoMoCategories: the task's questions carry LoCoMo's numeric
	// categories, so report.category_names and report.count_adversarial
	// apply to it (an error on any other task).
	LoCoMoCategories bool
	// Purposes are the purposes of the task's own calls beyond its
	// methods' (answering, judging, acting), which backbone.batch.purposes
	// may name.
	Purposes []string
}

// BuiltinTasks are the tasks of the built-in families (the order of
// their names in messages is tasks').
func BuiltinTasks() map[string]TaskShape {
	return map[string]TaskShape{"movielens": {}, "omnibehavior": {},
		"lifemem":     {Lifelong: true, Purposes: append([]string{agent.PurposeAct}, lifelong.DefaultEnvPurposes()...)},
		"locomo":      {Judged: true, LoCoMoCategories: true, Purposes: []string{"memqa.answer", "memqa.judge.locomo"}},
		"longmemeval": {Judged: true, Purposes: []string{"memqa.answer", "memqa.judge.longmemeval"}}}
}

// taskNames are the tasks validation accepts, the built-in ones in their
// documented order.
func (k Known) taskNames() []string {
	if k.Tasks == nil {
		return tasks
	}
	var names, more []string
	for _, t := range tasks {
		if _, ok := k.Tasks[t]; ok {
			names = append(names, t)
		}
	}
	for _, t := range slices.Sorted(maps.Keys(k.Tasks)) {
		if !slices.Contains(tasks, t) {
			more = append(more, t)
		}
	}
	return append(names, more...)
}

func (k Known) task(name string) TaskShape {
	if k.Tasks == nil {
		return BuiltinTasks()[name]
	}
	return k.Tasks[name]
}

// MethodEntry is the entry of the prediction kind called kind (false: no
// such kind is known).
func (k Known) MethodEntry(kind string) (predict.Entry, bool) {
	e, err := k.methods().Lookup(kind)
	return e, err == nil
}

// methods is the prediction kinds' registry: k.Methods, or the built-in
// kinds when none was given (a zero Known validates as the built-ins).
func (k Known) methods() *registry.Registry {
	if k.Methods == nil {
		return registry.Default()
	}
	return k.Methods
}

// agentMethods is the agent kinds' registry: k.Lifelong.Methods, or the
// built-in kinds when none was given.
func (k Known) agentMethods() *lifelong.Methods {
	if k.Lifelong.Methods == nil {
		return lifelong.DefaultMethods()
	}
	return k.Lifelong.Methods
}

// validateAgentSampling checks lifelong.methods[].sampling: only the call
// purposes of the kind's own (agent.Entry.Purposes) are set there.
func validateAgentSampling(v *validator, methods []lifelong.MethodSpec, reg *lifelong.Methods) {
	for i, m := range methods {
		e, err := reg.Lookup(m.Kind)
		if err != nil {
			continue // the lifelong block's check names the kind
		}
		for _, purpose := range slices.Sorted(maps.Keys(m.Sampling)) {
			if !slices.ContainsFunc(e.Purposes, func(p llm.Purpose) bool { return p.Name == purpose }) {
				sends := "none of its own; the shared purposes are set in lifelong.sampling"
				if len(e.Purposes) > 0 {
					sends = strings.Join(purposeNames(e.Purposes), ", ")
				}
				v.add(fmt.Sprintf("lifelong.methods[%d].sampling.%s", i, purpose), "kind %q sends no %q calls of its own (it sends %s)", m.Kind, purpose, sends)
			}
		}
	}
}

// Validate reports every problem it finds, each as an *Error naming the
// field (joined with errors.Join), against the built-in kinds. Load places
// them at file:line.
func (c *Config) Validate() error { return c.ValidateKnown(Known{}) }

// ValidateKnown is Validate against the kinds of k.
func (c *Config) ValidateKnown(k Known) error {
	v := &validator{}
	if c.Name != "" && !safeName(c.Name) {
		v.add("name", "%q is not a safe file name (use letters, digits, '.', '_' and '-')", c.Name)
	}
	v.oneOf("task", c.Task, k.taskNames())
	c.Dataset.validate(v, k.task(c.Task).Datasets)
	c.Backbone.validate(v)
	c.Embedder.validate(v)
	c.Prompt.validate(v)
	v.oneOf("prompts", orOwn(c.Prompts), []string{PromptsOwn, PromptsRelease})
	if c.Prompt.Tokenizer != "" {
		v.file("prompt.tokenizer", c.Prompt.Tokenizer)
	}
	if c.Prompt.ReleaseDir != "" && c.Prompts != PromptsRelease {
		v.add("prompt.release_dir", "is read only with prompts: release")
	}
	v.between("eval.max_attempts", c.Eval.MaxAttempts, 1, maxAttempts)
	v.between("eval.concurrency", c.Eval.Concurrency, 1, maxConcurrency)
	v.unit("eval.max_invalid_rate", c.Eval.MaxInvalidRate)
	v.nonNegative("eval.max_cost", c.Eval.MaxCost)
	v.atLeast("eval.max_tokens", c.Eval.MaxTokens, 0)
	if c.Eval.Repeats != 0 {
		v.between("eval.repeats", c.Eval.Repeats, 1, maxRepeats)
	}
	if _, err := metrics.ParseReducer(c.Eval.Reducer, c.Eval.Draws()); err != nil {
		v.add("eval.reducer", "%v", err)
	}
	if c.Eval.MaxCost > 0 && c.Backbone.Prices == nil {
		v.add("eval.max_cost", "needs backbone.prices to price the calls")
	}
	if k.task(c.Task).Lifelong {
		// Agent methods live in the lifelong block; behaviour-prediction
		// methods do not apply.
		if c.Lifelong == nil {
			v.add("lifelong", "task %s needs a lifelong block (stream, envs, methods)", c.Task)
		} else {
			if err := c.Lifelong.WithDefaults().ValidateKnown(k.Lifelong); err != nil {
				// Each problem at its own key's line: the block's errors
				// start with the field they name ("lifelong.batch: ...").
				for _, e := range unjoin(err) {
					path, msg, ok := strings.Cut(e.Error(), ": ")
					if !ok || !strings.HasPrefix(path, "lifelong.") || strings.ContainsAny(path, " \n") {
						path, msg = "lifelong", e.Error()
					}
					v.add(path, "%s", msg)
				}
			}
			validateAgentSampling(v, c.Lifelong.Methods, k.agentMethods())
		}
		if len(c.Methods) > 0 {
			v.add("methods", "task %s takes its methods from lifelong.methods", c.Task)
		}
	} else {
		validateMethods(v, c.Methods, k.methods())
		if c.Lifelong != nil {
			v.add("lifelong", "only task lifemem reads a lifelong block")
		}
	}
	k.validateBatchPurposes(v, c)
	c.Judge.validate(v, c.Task, k.task(c.Task).Judged, c.Backbone.Kind)
	c.Report.validate(v, c.Methods, k.task(c.Task))
	return errors.Join(v.errs...)
}

func (d *Dataset) validate(v *validator, more []string) {
	v.oneOf("dataset.name", d.Name, append(slices.Clone(datasets), more...))
	v.oneOf("dataset.language", d.Language, languages)
	v.atLeast("dataset.max_users", d.MaxUsers, 0)
	v.atLeast("dataset.test_per_user", d.TestPerUser, 1)
	v.atLeast("dataset.max_record_mb", d.MaxRecordMB, 0)
	v.oneOf("dataset.questions", d.Questions, []string{"binary", "all"})
	// The generator holds every user in memory; MovieLens-1M has 6,040.
	v.between("dataset.synthetic.users", d.Synthetic.Users, 0, MaxSyntheticUsers)
	v.between("dataset.synthetic.movies", d.Synthetic.Movies, 0, MaxSyntheticUsers)
}

func (b *Backbone) validate(v *validator) {
	v.oneOf("backbone.kind", b.Kind, []string{"auto", "sim", "openai"})
	if b.Kind == "openai" {
		if len(b.BaseURLs) == 0 {
			v.add("backbone.base_urls", "the openai backbone needs base_urls or OPENAI_BASE_URL")
		}
		if b.Model == "" {
			v.add("backbone.model", "the openai backbone needs a model (or OPENAI_MODEL)")
		}
	}
	for i, u := range b.BaseURLs {
		if err := checkURL(u); err != nil {
			v.add(fmt.Sprintf("backbone.base_urls[%d]", i), "%v", err)
		}
	}
	for i, u := range b.BuildBaseURLs {
		if err := checkURL(u); err != nil {
			v.add(fmt.Sprintf("backbone.build_base_urls[%d]", i), "%v", err)
		}
	}
	if len(b.BuildBaseURLs) > 0 && b.BuildModel == "" {
		v.add("backbone.build_base_urls", "set backbone.build_model too (the construction model those endpoints serve)")
	}
	v.between("backbone.concurrency", b.Concurrency, 1, maxConcurrency)
	if b.MaxConcurrency < b.Concurrency || b.MaxConcurrency > maxConcurrency {
		v.add("backbone.max_concurrency", "must be between concurrency (%d) and %d, got %d", b.Concurrency, maxConcurrency, b.MaxConcurrency)
	}
	v.between("backbone.max_retries", b.MaxRetries, 0, maxRetries)
	if b.Timeout.Duration <= 0 {
		v.add("backbone.timeout", "must be positive, got %v", b.Timeout)
	}
	if b.MaxResponseBytes < 1024 {
		v.add("backbone.max_response_bytes", "must be at least 1024, got %d", b.MaxResponseBytes)
	}
	v.between("backbone.prefix_cache_tokens", b.PrefixCacheTokens, 0, maxPrefixCacheTokens)
	if b.RetryBudget.Duration <= 0 {
		v.add("backbone.retry_budget", "must be positive, got %v", b.RetryBudget)
	}
	p := b.Params
	if p.Temperature != nil && (math.IsNaN(*p.Temperature) || *p.Temperature < 0 || *p.Temperature > 2) {
		v.add("backbone.params.temperature", "must be between 0 and 2, got %v", *p.Temperature)
	}
	if p.TopP != nil && (math.IsNaN(*p.TopP) || *p.TopP <= 0 || *p.TopP > 1) {
		v.add("backbone.params.top_p", "must be in (0, 1], got %v", *p.TopP)
	}
	v.atLeast("backbone.params.max_tokens", p.MaxTokens, 0)
	if pr := b.Prices; pr != nil {
		v.price("backbone.prices.prompt_per_1m", pr.PromptPer1M)
		v.price("backbone.prices.completion_per_1m", pr.CompletionPer1M)
		v.price("backbone.prices.cached_prompt_per_1m", pr.CachedPromptPer1M)
	}
	if pr := b.Prices; pr != nil {
		v.price("backbone.prices.batch_prompt_per_1m", pr.BatchPromptPer1M)
		v.price("backbone.prices.batch_completion_per_1m", pr.BatchCompletionPer1M)
		v.unit("backbone.prices.batch_discount", pr.BatchDiscount)
	}
	if bt := b.Batch; bt != nil {
		if len(bt.Purposes) == 0 {
			v.add("backbone.batch.purposes", "name at least one call purpose to send in batches (e.g. predict)")
		}
		for i, p := range bt.Purposes {
			if strings.TrimSpace(p) == "" {
				v.add(fmt.Sprintf("backbone.batch.purposes[%d]", i), "is empty")
			}
		}
		switch bt.Provider {
		case "", "offline":
		default:
			v.add("backbone.batch.provider", "want \"\" (the backbone's) or offline, got %q", bt.Provider)
		}
		switch bt.Retry {
		case "", "wave", "live":
		default:
			v.add("backbone.batch.retry", "want wave or live, got %q", bt.Retry)
		}
		v.between("backbone.batch.wave_size", bt.WaveSize, 0, 50000)
		v.between("backbone.batch.resubmits", bt.Resubmits, 0, 100)
		for _, d := range []struct {
			key string
			d   Duration
		}{{"backbone.batch.linger", bt.Linger}, {"backbone.batch.poll", bt.Poll}, {"backbone.batch.sim_delay", bt.SimDelay}} {
			if d.d.Duration < 0 {
				v.add(d.key, "must not be negative, got %v", d.d)
			}
		}
	}
	v.unit("backbone.sim.threshold", b.Sim.Threshold)
	if b.Sim.Latency.Duration < 0 {
		v.add("backbone.sim.latency", "must not be negative, got %v", b.Sim.Latency)
	}
	if r := b.Sim.PersistentInvalidRate; r != nil {
		v.unit("backbone.sim.persistent_invalid_rate", *r)
	}
}

// checkURL accepts http(s) URLs without credentials: secrets belong in the
// environment, never in a file that ends up in manifest.json.
func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("invalid URL %q", s)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("want an http(s) URL, got %q", s)
	}
	if u.User != nil {
		return fmt.Errorf("URL %s carries credentials; put the key in OPENAI_API_KEY instead", u.Redacted())
	}
	return nil
}

func (e *Embedder) validate(v *validator) {
	v.oneOf("embedder.kind", e.Kind, []string{"hash", "openai", "auto"})
	switch e.Kind {
	case "hash":
		v.atLeast("embedder.dim", e.Dim, 1)
	case "openai":
		v.atLeast("embedder.dim", e.Dim, 0)
		if e.Model == "" {
			v.add("embedder.model", "the openai embedder needs a model")
		}
		if e.BaseURL == "" {
			v.add("embedder.base_url", "the openai embedder needs base_url (or an openai backbone, or OPENAI_BASE_URL)")
		} else if err := checkURL(e.BaseURL); err != nil {
			v.add("embedder.base_url", "%v", err)
		}
	}
}

func (p *Prompt) validate(v *validator) {
	v.oneOf("prompt.language", p.Language, languages)
	if p.TauBenchAgent != "" {
		v.oneOf("prompt.taubench_agent", p.TauBenchAgent, []string{"react", "act"})
	}
	names := make([]string, 0, len(p.Templates))
	for n := range p.Templates {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		v.file("prompt.templates."+n, p.Templates[n])
	}
}

// file checks that a template file exists.
func (v *validator) file(path, file string) {
	if file == "" {
		v.add(path, "empty file name")
		return
	}
	if st, err := os.Stat(file); err != nil {
		v.add(path, "template file: %v", err)
	} else if st.IsDir() {
		v.add(path, "template file %s is a directory", file)
	}
}

// validateMethods checks ms against the registered kinds; the per-kind
// field checks apply to the built-in kinds, whose fields are known here.
func validateMethods(v *validator, ms []predict.Spec, reg *registry.Registry) {
	if len(ms) == 0 {
		v.add("methods", "at least one method is required")
	}
	first := map[string]int{}
	for i, m := range ms {
		at := func(f string) string { return fmt.Sprintf("methods[%d].%s", i, f) }
		e, err := reg.Lookup(m.Kind)
		known := err == nil
		if !known {
			v.add(at("kind"), "unknown method kind %q (want %s)", m.Kind, strings.Join(reg.Names(), ", "))
		}
		fields := e.Keys
		if known && e.Options == nil {
			// A spec built without the checker keeps unknown keys in Options.
			for _, k := range slices.Sorted(maps.Keys(m.Options)) {
				v.add(at(k), "unknown field (kind %q takes no options of its own)", m.Kind)
			}
		}
		if known && e.Check != nil {
			for _, fe := range e.Check(m) {
				path := fmt.Sprintf("methods[%d]", i)
				if fe.Field != "" {
					path = at(fe.Field)
				}
				v.add(path, "%s", fe.Msg)
			}
		}
		if m.Name == "" {
			v.add(at("name"), "a method needs a name or a kind")
		} else if !safeName(m.Name) {
			v.add(at("name"), "%q is not a safe file name (use letters, digits, '.', '_' and '-')", m.Name)
		} else if j, dup := first[strings.ToLower(m.Name)]; dup {
			// Names that differ only in case would share a folder on a
			// case-insensitive filesystem (macOS, FAT).
			also := fmt.Sprintf("methods[%d]", j)
			if ms[j].Name != m.Name {
				also += " as " + strconv.Quote(ms[j].Name) + "; names that differ only in case share a folder on macOS"
			}
			v.add(at("name"), "duplicate method name %q (also %s); give each a distinct name", m.Name, also)
		} else {
			first[strings.ToLower(m.Name)] = i
		}
		if m.Language != "" {
			v.oneOf(at("language"), m.Language, languages)
		}
		for j, f := range m.Templates {
			v.file(fmt.Sprintf("methods[%d].templates[%d]", i, j), f)
		}
		if m.HistoryTokens < -1 {
			v.add(at("history_tokens"), "must be -1 (no history), 0 (the kind's default) or positive, got %d", m.HistoryTokens)
		}
		for _, f := range []struct {
			name string
			val  int
		}{
			{"memory_tokens", m.MemoryTokens}, {"doc_size", m.DocSize}, {"top_k", m.TopK},
			{"chunk_tokens", m.ChunkTokens}, {"summary_tokens", m.SummaryTokens},
		} {
			v.atLeast(at(f.name), f.val, 0)
			if known && f.val != 0 && !slices.Contains(fields, f.name) {
				v.add(at(f.name), "is not used by kind %q", m.Kind)
			}
		}
		if known && m.PraMem != nil && !slices.Contains(fields, "pramem") {
			v.add(at("pramem"), "is not used by kind %q", m.Kind)
		}
		if known && m.Memory != nil && !slices.Contains(fields, "memory") {
			v.add(at("memory"), "is not used by kind %q", m.Kind)
		}
		if m.Parser != "" {
			v.oneOf(at("parser"), m.Parser, []string{predict.ParserOwn, predict.ParserSource})
		}
		for _, purpose := range slices.Sorted(maps.Keys(m.Sampling)) {
			if known && e.Purposes != nil && !slices.ContainsFunc(e.Purposes, func(p predict.Purpose) bool { return p.Name == purpose }) {
				v.add(at("sampling."+purpose), "kind %q sends no %q calls (it sends %s)", m.Kind, purpose, strings.Join(purposeNames(e.Purposes), ", "))
			}
		}
		if p := m.PraMem; p != nil {
			for _, f := range []struct {
				name string
				val  int
			}{
				{"rounds", p.Rounds}, {"q", p.Q}, {"n", p.N}, {"m", p.M}, {"t", p.T}, {"support", p.Support},
				{"pool_size", p.PoolSize}, {"min_history", p.MinHist}, {"practice_tokens", p.PracticeTokens}, {"eval_round", p.EvalRound},
			} {
				v.atLeast(at("pramem."+f.name), f.val, 0)
			}
			if p.Init != "" {
				v.oneOf(at("pramem.init"), p.Init, []string{"empty", "paper"})
			}
			if p.Sections != "" {
				v.oneOf(at("pramem.sections"), p.Sections, []string{"both", "pattern", "bias"})
			}
			if p.EvalRound > 0 && p.Rounds > 0 && p.EvalRound > p.Rounds {
				v.add(at("pramem.eval_round"), "round %d is past the last round (%d)", p.EvalRound, p.Rounds)
			}
			if p.MemoryDir != "" {
				if st, err := os.Stat(p.MemoryDir); err != nil || !st.IsDir() {
					v.add(at("pramem.memory_dir"), "want a directory of <user>_0.json memories: %q", p.MemoryDir)
				}
			}
		}
		if mm := m.Memory; mm != nil {
			for _, f := range []struct {
				name string
				val  int
			}{{"top_k", mm.TopK}, {"chunk", mm.Chunk}, {"profiles", mm.Profiles}, {"holdout", mm.Holdout}, {"max_memory", mm.MaxMemory}} {
				v.atLeast(at("memory."+f.name), f.val, 0)
			}
		}
		if m.Retriever != "" {
			if known && !slices.Contains(fields, "retriever") {
				v.add(at("retriever"), "is not used by kind %q", m.Kind)
			} else {
				v.oneOf(at("retriever"), m.Retriever, []string{predict.RetrieverBM25, predict.RetrieverEmbedding})
			}
		}
	}
}

func (r *Report) validate(v *validator, ms []predict.Spec, task TaskShape) {
	if r.CategoryNames != "" {
		if !task.LoCoMoCategories {
			v.add("report.category_names", "is read by LoCoMo's task only (this task's questions carry no LoCoMo categories)")
		} else if _, err := scoring.ParseNameTable(r.CategoryNames); err != nil {
			v.oneOf("report.category_names", r.CategoryNames, nameTables())
		}
	}
	if r.CountAdversarial && !task.LoCoMoCategories {
		v.add("report.count_adversarial", "is read by LoCoMo's task only (this task has no adversarial category)")
	}
	v.between("report.bootstrap", r.Bootstrap, 0, MaxBootstrap)
	if math.IsNaN(r.Level) || r.Level <= 0 || r.Level >= 1 {
		v.add("report.level", "must be strictly between 0 and 1, got %v", r.Level)
	}
	if r.Baseline != "" && len(ms) > 0 && !slices.ContainsFunc(ms, func(m predict.Spec) bool { return m.Name == r.Baseline }) {
		v.add("report.baseline", "no method is named %q", r.Baseline)
	}
	for i, f := range r.Export {
		if !slices.Contains(export.Formats(), f) {
			v.add(fmt.Sprintf("report.export[%d]", i), "unknown format %q (known: %s)", f, strings.Join(export.Formats(), ", "))
		}
	}
}

// safeName reports whether s can be used as one path element everywhere.
func safeName(s string) bool {
	if s == "" || s == "." || s == ".." || len(s) > 200 {
		return false
	}
	for i := range len(s) {
		if c := s[i]; !isKeyChar(c) && c != '.' {
			return false
		}
	}
	return true
}

// nameTables are the LoCoMo category-name tables report.category_names
// accepts.
func nameTables() []string {
	var out []string
	for _, t := range scoring.NameTables() {
		out = append(out, string(t))
	}
	return out
}
