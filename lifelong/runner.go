package lifelong

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/runrecord"
)

// Options configure one method's lifelong run.
type Options struct {
	// RunDir is the run directory; results go to lifelong/<method>/ below it.
	RunDir string
	Stream Stream
	// Suites holds the test suites by environment name: every stream
	// environment and every OOD one.
	Suites map[string]envs.Suite
	// OOD environments are evaluated zero-shot after the full stream.
	OOD []string
	// SelfLearn adds the self-learn row: a fresh method from NewMethod
	// learns one environment alone and is tested on it.
	SelfLearn bool
	NewMethod func() (agent.Method, error)
	// Env is lent to the method; its Dir is replaced by the method's state
	// directory.
	Env agent.Env
	// MaxSteps overrides a suite's step limit per environment.
	MaxSteps map[string]int
	// TasksPerEnv keeps the first N test tasks of each suite (0: all).
	TasksPerEnv int
	// TestTasks picks a suite's test tasks (default DefaultTestTasks).
	TestTasks func(s envs.Suite) []envs.Task
	// EpisodeOptions gives an episode its options (default: the acting
	// model and embedder for simulated parties, and a seed derived from
	// Env.Seed, the environment and the task, the same at every stage).
	EpisodeOptions func(env string, t envs.Task) envs.Options
	// Store persists cells and stage records (default FileStore on the
	// method's directory).
	Store CellStore
	// Commit, when set, writes the default FileStore's commit files (a
	// cell, a stage record) instead of WriteFileAtomic, so the caller can
	// journal the model calls each one paid for.
	Commit func(path string, data []byte) error
	// Meters are read before and after each stage and cell to split usage
	// into construction and acting; none means usage is not recorded.
	Meters []Snapshotter
	// EnvPurposes are purposes of environment-side calls (default
	// DefaultEnvPurposes).
	EnvPurposes []string
	// Workers plays up to this many episodes of a cell at once (default 1).
	// More than one needs a method whose Agent is safe for concurrent use.
	Workers int
	// Log receives one line per stage and cell; nil discards them.
	Log io.Writer
	// RetryBudget bounds the time one episode, or one batch's memory
	// construction, may wait in retry backoffs (0: unbounded), as
	// backbone.retry_budget does for one PraMem sample.
	RetryBudget time.Duration
	// Untimed leaves the wall-clock duration out of transcripts, so a
	// deterministic backbone (sim) writes the same files on every run.
	Untimed bool
	// Draws is how many times each test task of a cell is played
	// (eval.repeats; 0 and 1 mean once) and how a task's draws make its
	// score.
	Draws Draws
}

// Draws are the repeated draws of every test task (eval.repeats): a cell
// holds N episodes per task, task after task; a later draw acts and plays
// the simulated user on models that key and seed it apart
// (llm.WithRepeat) and gets its own episode seed (RepeatEpisodeSeed). A
// task's score is Reducer.Graded of its draws' scores, the cell's score
// the mean over tasks. Learning is not repeated.
type Draws struct {
	// N is the draws per task; 0 and 1 both mean one.
	N int
	// Seed is the base of the later draws' request seeds: the configured
	// default seed, else the run seed.
	Seed int64
	// Reducer makes a task's score from its draws (the zero value: mean).
	Reducer metrics.Reducer
}

func (d Draws) n() int { return max(1, d.N) }

// budgeted gives ctx the run's retry budget, fresh for one episode or one
// Learn call.
func (o Options) budgeted(ctx context.Context) context.Context {
	if o.RetryBudget <= 0 {
		return ctx
	}
	return llm.WithRetryBudget(ctx, o.RetryBudget)
}

// Result is one method's outcome.
type Result struct {
	Method string
	Matrix metrics.ScoreMatrix
	// SelfLearn and OOD map environments to scores (0–100).
	SelfLearn map[string]float64
	OOD       map[string]float64
	// Cells lists every cell in evaluation order (transcripts dropped).
	Cells []CellResult
	Costs Costs
	// Resumed counts stages and cells found done on disk.
	ResumedStages, ResumedCells int
}

// DefaultTestTasks returns a suite's test split: tasks whose split starts
// with "test" (Mind2Web's is "test_task"); failing that, every task not in
// a train or dev split.
func DefaultTestTasks(s envs.Suite) []envs.Task {
	all := s.Tasks()
	var test, other []envs.Task
	for _, t := range all {
		switch {
		case strings.HasPrefix(t.Split, "test"):
			test = append(test, t)
		case t.Split != "train" && t.Split != "dev":
			other = append(other, t)
		}
	}
	if len(test) > 0 {
		return test
	}
	return other
}

type runner struct {
	opts   Options
	method agent.Method
	dir    string
	store  CellStore
	res    Result
	log    io.Writer
}

// Run plays the protocol for method m: every stage of the stream (learn,
// EndStage, Save, then evaluate its test sets), the OOD cells and the
// self-learn row, resuming from whatever the store already holds. It writes
// costs.json and matrix.json in the method's directory when done.
func Run(ctx context.Context, m agent.Method, opts Options) (Result, error) {
	name := m.Name()
	if err := validName(name); err != nil {
		return Result{}, fmt.Errorf("lifelong: method name: %w", err)
	}
	if len(opts.Stream.Stages) != len(opts.Stream.Envs) || len(opts.Stream.Envs) == 0 {
		return Result{}, fmt.Errorf("lifelong %s: stream has %d stages for %d environments", name, len(opts.Stream.Stages), len(opts.Stream.Envs))
	}
	for _, e := range append(slices.Clone(opts.Stream.Envs), opts.OOD...) {
		if opts.Suites[e] == nil {
			return Result{}, fmt.Errorf("lifelong %s: no suite for environment %q", name, e)
		}
	}
	if opts.SelfLearn && opts.NewMethod == nil {
		return Result{}, fmt.Errorf("lifelong %s: self_learn needs NewMethod", name)
	}
	if opts.RunDir == "" {
		return Result{}, fmt.Errorf("lifelong %s: no run directory", name)
	}
	if opts.TestTasks == nil {
		opts.TestTasks = DefaultTestTasks
	}
	if opts.EnvPurposes == nil {
		opts.EnvPurposes = DefaultEnvPurposes()
	}
	if opts.Workers < 1 {
		opts.Workers = 1
	}
	r := &runner{opts: opts, method: m, dir: MethodDir(opts.RunDir, name), store: opts.Store, log: opts.Log}
	if r.store == nil {
		r.store = FileStore{Dir: r.dir, Commit: opts.Commit}
	}
	if r.log == nil {
		r.log = io.Discard
	}
	r.res = Result{
		Method: name, Matrix: metrics.NewScoreMatrix(opts.Stream.Envs),
		SelfLearn: map[string]float64{}, OOD: map[string]float64{}, Costs: Costs{Method: name},
	}
	if err := r.stream(ctx); err != nil {
		return r.res, fmt.Errorf("lifelong %s: %w", name, err)
	}
	if err := r.ood(ctx); err != nil {
		return r.res, fmt.Errorf("lifelong %s: %w", name, err)
	}
	if err := writeStats(r.dir, m); err != nil {
		return r.res, fmt.Errorf("lifelong %s: %w", name, err)
	}
	if err := r.selfLearn(ctx); err != nil {
		return r.res, fmt.Errorf("lifelong %s: %w", name, err)
	}
	r.res.Costs = r.res.Costs.WithRates()
	if err := r.writeCosts(); err != nil {
		return r.res, fmt.Errorf("lifelong %s: %w", name, err)
	}
	sum := newSummary(name, opts.Stream.Kind, r.res.Matrix, r.res.SelfLearn, r.res.OOD)
	if err := writeJSON(filepath.Join(r.dir, "matrix.json"), sum); err != nil {
		return r.res, fmt.Errorf("lifelong %s: %w", name, err)
	}
	return r.res, nil
}

// env is the agent.Env lent to a method whose state lives in dir.
func (r *runner) env(dir string) (agent.Env, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return agent.Env{}, err
	}
	e := r.opts.Env
	e.Dir = dir
	return e, nil
}

// stream learns and evaluates every stage. Stages with a record are not
// relearned: the method is restored to the state saved after the last of
// them. Cells are evaluated right after their stage, so a missing cell of
// an earlier stage cannot be recomputed (the state has moved on).
func (r *runner) stream(ctx context.Context) error {
	env, err := r.env(filepath.Join(r.dir, "state"))
	if err != nil {
		return err
	}
	done := 0
	for _, st := range r.opts.Stream.Stages {
		rec, ok, err := r.store.LoadStage(st.Index)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		done = st.Index
		r.res.Costs.Construction = r.res.Costs.Construction.Add(rec.Construction)
		r.res.Costs.Trajectories += rec.Trajectories
	}
	if done > 0 {
		restored, err := r.method.Restore(ctx, env)
		if err != nil {
			return fmt.Errorf("restore after stage %s: %w", StageName(done), err)
		}
		if !restored {
			return fmt.Errorf("stages up to %s are recorded but the method restored no state from %s; delete %s to start this method over", StageName(done), env.Dir, r.dir)
		}
		r.res.ResumedStages = done
		fmt.Fprintf(r.log, "%s: resumed after stage %s\n", r.res.Method, StageName(done))
	}
	for _, st := range r.opts.Stream.Stages {
		if st.Index > done {
			if err := r.learnStage(ctx, env, st); err != nil {
				return err
			}
			done = st.Index
		}
		for _, e := range st.Eval {
			key := CellKey{Stage: StageName(st.Index), Env: e}
			c, err := r.cell(ctx, r.method, env, key, st.Index, st.Index < done)
			if err != nil {
				return err
			}
			col := slices.Index(r.opts.Stream.Envs, e)
			if col < 0 || col > st.Index-1 {
				return fmt.Errorf("stage %s evaluates %s, which is not a learned column of the matrix", key.Stage, e)
			}
			r.res.Matrix.S[st.Index-1][col] = c.Score
		}
		// Costs so far, so a report of an unfinished run has them.
		if err := r.writeCosts(); err != nil {
			return err
		}
	}
	return nil
}

// writeCosts writes costs.json with the usage accounted so far.
func (r *runner) writeCosts() error {
	return writeJSON(filepath.Join(r.dir, runrecord.LifelongCostsFile), r.res.Costs.WithRates())
}

func (r *runner) learnStage(ctx context.Context, env agent.Env, st Stage) error {
	name := StageName(st.Index)
	before := byPurpose(r.opts.Meters)
	for bi, b := range st.Batches {
		if err := r.method.Learn(r.opts.budgeted(ctx), env, b.Items); err != nil {
			return fmt.Errorf("stage %s batch %d/%d: learn: %w", name, bi+1, len(st.Batches), err)
		}
	}
	if err := r.method.EndStage(ctx, env); err != nil {
		return fmt.Errorf("stage %s: end stage: %w", name, err)
	}
	// Save before the record: a record promises that the saved state
	// includes the stage.
	if err := r.method.Save(ctx, env); err != nil {
		return fmt.Errorf("stage %s: save: %w", name, err)
	}
	constr, envU := split(byPurpose(r.opts.Meters), before, r.opts.EnvPurposes)
	rec := StageRecord{
		Stage: st.Index, Env: st.Env, Batches: len(st.Batches), Trajectories: st.Trajectories(),
		Construction: constr.Add(envU),
	}
	if err := r.store.SaveStage(rec); err != nil {
		return err
	}
	r.res.Costs.Construction = r.res.Costs.Construction.Add(rec.Construction)
	r.res.Costs.Trajectories += rec.Trajectories
	fmt.Fprintf(r.log, "%s: stage %s (%s): learned %d trajectories in %d batches\n",
		r.res.Method, name, cmp.Or(st.Env, "mixed"), rec.Trajectories, rec.Batches)
	return nil
}

// cell loads a finished cell or evaluates it; stale says the method's state
// is past the cell's stage, so a missing cell is an error.
func (r *runner) cell(ctx context.Context, m agent.Method, env agent.Env, key CellKey, row int, stale bool) (CellResult, error) {
	c, ok, err := r.store.Load(key)
	if err != nil {
		return CellResult{}, err
	}
	if ok {
		r.res.ResumedCells++
	} else {
		if stale {
			return CellResult{}, fmt.Errorf("cell %s is missing but the method's saved state is past stage %s; delete %s to start this method over", key, key.Stage, r.dir)
		}
		c, err = r.evaluate(ctx, m, env, key, row)
		if err != nil {
			return CellResult{}, err
		}
		if err := r.store.Save(c); err != nil {
			return CellResult{}, err
		}
		fmt.Fprintf(r.log, "%s: cell %s: %.2f (%d tasks, %d errors)\n", r.res.Method, key, c.Score, len(c.Tasks), c.Errors)
	}
	r.account(c)
	c.Transcripts = nil
	r.res.Cells = append(r.res.Cells, c)
	return c, nil
}

func (r *runner) account(c CellResult) {
	r.res.Costs.Acting = r.res.Costs.Acting.Add(c.Acting)
	r.res.Costs.Environment = r.res.Costs.Environment.Add(c.Environment)
	r.res.Costs.Episodes += len(c.Tasks)
}

// evaluate plays every test task of key.Env with the method's agents.
func (r *runner) evaluate(ctx context.Context, m agent.Method, env agent.Env, key CellKey, row int) (CellResult, error) {
	suite := r.opts.Suites[key.Env]
	tasks := r.opts.TestTasks(suite)
	if r.opts.TasksPerEnv > 0 && len(tasks) > r.opts.TasksPerEnv {
		tasks = tasks[:r.opts.TasksPerEnv]
	}
	c := CellResult{Method: r.res.Method, Stage: key.Stage, Row: row, Env: key.Env}
	draws := r.opts.Draws.n()
	if draws > 1 {
		c.Draws, c.Reducer = draws, cmp.Or(r.opts.Draws.Reducer.String(), metrics.ReduceMean)
	}
	c.Tasks = make([]TaskResult, len(tasks)*draws)
	c.Transcripts = make([]envs.Transcript, len(tasks)*draws)
	before := byPurpose(r.opts.Meters)

	// An episode whose call parks in a provider batch gives its slot back,
	// so the next episode starts and its call joins the same wave.
	var mu sync.Mutex
	var firstErr error
	// Once ctx ends no episode starts; the error is reported below, once
	// the started episodes end.
	llm.NewSlots(r.opts.Workers).Go(ctx, len(tasks)*draws, func(ectx context.Context, _ *llm.Slot, i int) {
		t, rep := tasks[i/draws], i%draws
		tr, res, err := r.episode(ectx, m, r.opts.Draws.env(env, rep), suite, t, rep)
		if err != nil {
			mu.Lock()
			firstErr = cmp.Or(firstErr, err)
			mu.Unlock()
			return
		}
		c.Tasks[i], c.Transcripts[i] = res, tr
	})
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	if firstErr != nil {
		return CellResult{}, fmt.Errorf("cell %s: %w", key, firstErr)
	}
	c.Acting, c.Environment = split(byPurpose(r.opts.Meters), before, r.opts.EnvPurposes)
	sum := 0.0
	for i, t := range c.Tasks {
		if draws > 1 && i%draws == 0 {
			scores := make([]float64, draws)
			for k := range draws {
				scores[k] = c.Tasks[i+k].Score
			}
			sum += r.opts.Draws.Reducer.Graded(scores)
		} else if draws == 1 {
			sum += t.Score
		}
		if t.Error {
			c.Errors++
		}
	}
	if len(tasks) > 0 {
		c.Score = 100 * sum / float64(len(tasks))
	}
	return c, nil
}

// env is the agent environment of draw rep: the acting and the simulated
// user's models draw it (llm.WithRepeat); draw 0 is env itself.
func (d Draws) env(env agent.Env, rep int) agent.Env {
	if rep == 0 {
		return env
	}
	user := env.User()
	env.Model = llm.WithRepeat(env.Model, rep, d.Seed)
	env.UserModel = llm.WithRepeat(user, rep, d.Seed)
	return env
}

// episode plays one task. Only a cancelled context is an error: a failure
// to build the agent or start the episode is recorded as a failed task so
// one broken task does not stop a long run.
func (r *runner) episode(ctx context.Context, m agent.Method, env agent.Env, s envs.Suite, t envs.Task, rep int) (envs.Transcript, TaskResult, error) {
	fail := func(stage string, err error) (envs.Transcript, TaskResult, error) {
		if ctx.Err() != nil {
			return envs.Transcript{}, TaskResult{}, ctx.Err()
		}
		end := "error: " + stage + ": " + err.Error()
		return envs.Transcript{Env: s.Name(), Task: t.ID, End: end}, TaskResult{Task: t.ID, Repeat: rep, End: end, Error: true}, nil
	}
	// One retry budget covers the whole episode, retrieval included; the
	// caller's ctx still decides whether a failure is a cancellation.
	ectx := r.opts.budgeted(ctx)
	ag, err := m.Agent(ectx, env, s, t)
	if errors.Is(err, llm.ErrStopRun) {
		return envs.Transcript{}, TaskResult{}, err
	}
	if err != nil {
		return fail("agent", err)
	}
	// An agent error that ends the whole run (a broken external method, an
	// endpoint down) stops the cell instead of scoring the task as failed,
	// so a re-run plays it again.
	stop := &stopAgent{Agent: ag}
	var opts envs.Options
	if r.opts.EpisodeOptions != nil {
		opts = r.opts.EpisodeOptions(s.Name(), t)
	} else {
		opts = envs.Options{Model: env.User(), Embedder: env.Embedder, Seed: RepeatEpisodeSeed(EpisodeSeed(env.Seed, s.Name(), t.ID), rep)}
		if env.Sampling != nil {
			up := env.Sampling.For(agent.SampleCustomer, s.Name())
			opts.UserParams = &up
		}
	}
	tr, err := envs.Run(ectx, s, t, stop, opts, r.opts.MaxSteps[s.Name()])
	if err != nil {
		if ctx.Err() != nil {
			return envs.Transcript{}, TaskResult{}, err
		}
		return fail("start", err)
	}
	if stop.err != nil {
		return envs.Transcript{}, TaskResult{}, stop.err
	}
	if e, ok := ag.(agent.EpisodeEnder); ok {
		if err := e.EndEpisode(ectx, tr); err != nil {
			return envs.Transcript{}, TaskResult{}, fmt.Errorf("%s/%s: end of episode: %w", s.Name(), t.ID, err)
		}
	}
	if r.opts.Untimed {
		tr.Duration = 0
	}
	res := TaskResult{
		Task: t.ID, Repeat: rep, Score: tr.Score, Steps: tr.Steps, Invalid: tr.Invalid, End: tr.End,
		Error: strings.HasPrefix(tr.End, "error:"),
	}
	return tr, res, nil
}

// EpisodeSeed derives an episode's seed from the run seed, environment and
// task, so a task is played with the same randomness at every stage and
// differences between rows come from memory alone.
func EpisodeSeed(seed int64, env, task string) int64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s\x00%s", seed, env, task)
	return int64(h.Sum64() >> 1)
}

// stopAgent keeps the first error of its agent that ends the run
// (llm.ErrStopRun), which envs.Run would record as the task's end.
type stopAgent struct {
	envs.Agent
	err error
}

func (a *stopAgent) Act(ctx context.Context, t envs.Task, turns []envs.Turn) (string, error) {
	r, err := a.Reply(ctx, t, turns)
	return r.Text, err
}

// Reply hands on the agent's reply (its Act's text as both text and action
// when it has no Reply of its own).
func (a *stopAgent) Reply(ctx context.Context, t envs.Task, turns []envs.Turn) (envs.Reply, error) {
	var r envs.Reply
	var err error
	if ra, ok := a.Agent.(envs.ReplyAgent); ok {
		r, err = ra.Reply(ctx, t, turns)
	} else {
		r.Text, err = a.Agent.Act(ctx, t, turns)
		r.Action = r.Text
	}
	if errors.Is(err, llm.ErrStopRun) && a.err == nil {
		a.err = err
	}
	return r, err
}

// RepeatEpisodeSeed is the episode seed of draw rep of a task whose first
// draw has seed: the same seed for draw 0, another for each later draw.
func RepeatEpisodeSeed(seed int64, rep int) int64 {
	if rep <= 0 {
		return seed
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00r%d", seed, rep)
	return int64(h.Sum64() >> 1)
}

// ood evaluates the OOD environments with the state after the full stream.
func (r *runner) ood(ctx context.Context) error {
	if len(r.opts.OOD) == 0 {
		return nil
	}
	env, err := r.env(filepath.Join(r.dir, "state"))
	if err != nil {
		return err
	}
	for _, e := range r.opts.OOD {
		c, err := r.cell(ctx, r.method, env, CellKey{Stage: StageOOD, Env: e}, 0, false)
		if err != nil {
			return err
		}
		r.res.OOD[e] = c.Score
	}
	return nil
}

// selfLearn trains a fresh method on each environment alone (the stream's
// trajectories of that environment, easy→hard, in batches as the stream
// has them) and tests it there. The cell is the unit of resumption: an
// unfinished one starts over from an empty state directory.
func (r *runner) selfLearn(ctx context.Context) error {
	if !r.opts.SelfLearn {
		return nil
	}
	for _, e := range r.opts.Stream.Envs {
		key := CellKey{Stage: StageSelf, Env: e}
		c, ok, err := r.store.Load(key)
		if err != nil {
			return err
		}
		if ok {
			r.res.ResumedCells++
		} else {
			if c, err = r.selfCell(ctx, e); err != nil {
				return err
			}
		}
		r.res.Costs.Construction = r.res.Costs.Construction.Add(c.Construction)
		r.res.Costs.Trajectories += c.Trajectories
		r.account(c)
		c.Transcripts = nil
		r.res.Cells = append(r.res.Cells, c)
		r.res.SelfLearn[e] = c.Score
	}
	return nil
}

func (r *runner) selfCell(ctx context.Context, e string) (CellResult, error) {
	key := CellKey{Stage: StageSelf, Env: e}
	dir := filepath.Join(r.dir, "self", e, "state")
	if err := os.RemoveAll(dir); err != nil {
		return CellResult{}, err
	}
	env, err := r.env(dir)
	if err != nil {
		return CellResult{}, err
	}
	m, err := r.opts.NewMethod()
	if err != nil {
		return CellResult{}, fmt.Errorf("self-learn %s: new method: %w", e, err)
	}
	if c, ok := m.(interface{ Close() error }); ok {
		defer c.Close() // a method holding a process (a child, a server) lets it go with its cell
	}
	batches := envBatches(r.opts.Stream, e)
	before := byPurpose(r.opts.Meters)
	n := 0
	for bi, b := range batches {
		if err := m.Learn(r.opts.budgeted(ctx), env, b); err != nil {
			return CellResult{}, fmt.Errorf("self-learn %s batch %d/%d: %w", e, bi+1, len(batches), err)
		}
		n += len(b)
	}
	if err := m.EndStage(ctx, env); err != nil {
		return CellResult{}, fmt.Errorf("self-learn %s: end stage: %w", e, err)
	}
	constr, envU := split(byPurpose(r.opts.Meters), before, r.opts.EnvPurposes)
	c, err := r.evaluate(ctx, m, env, key, 0)
	if err != nil {
		return CellResult{}, err
	}
	c.Construction, c.Trajectories = constr.Add(envU), n
	if err := r.store.Save(c); err != nil {
		return CellResult{}, err
	}
	fmt.Fprintf(r.log, "%s: cell %s: %.2f (%d tasks, %d errors, %d trajectories learned alone)\n", r.res.Method, key, c.Score, len(c.Tasks), c.Errors, n)
	return c, nil
}

// envBatches regroups env's trajectories of a stream into batches of the
// stream's batch size, easy→hard (the similarity order of that env).
func envBatches(st Stream, env string) [][]agent.Trajectory {
	var items []agent.Trajectory
	for _, s := range st.Stages {
		for _, b := range s.Batches {
			for _, t := range b.Items {
				if t.Env == env {
					items = append(items, t)
				}
			}
		}
	}
	slices.SortStableFunc(items, func(a, b agent.Trajectory) int {
		return cmp.Or(cmp.Compare(a.Difficulty, b.Difficulty), cmp.Compare(a.ID, b.ID))
	})
	var out [][]agent.Trajectory
	for _, b := range chunk(env, items, max(st.Batch, 1)) {
		out = append(out, b.Items)
	}
	return out
}

// StatsFile is where Run puts a method's own memory statistics.
const StatsFile = runrecord.LifelongStatsFile

// writeStats saves the memory statistics of a method that has a
// `Stats() T` method (LifeMem's clusters, sizes, clusters per environment),
// so reports can show them without knowing the method's types. Methods
// without one are left alone.
func writeStats(dir string, m agent.Method) error {
	fn := reflect.ValueOf(m).MethodByName("Stats")
	if !fn.IsValid() || fn.Type().NumIn() != 0 || fn.Type().NumOut() != 1 {
		return nil
	}
	b, err := json.MarshalIndent(fn.Call(nil)[0].Interface(), "", "  ")
	if err != nil {
		return fmt.Errorf("memory statistics: %w", err)
	}
	return WriteFileAtomic(filepath.Join(dir, StatsFile), append(b, '\n'))
}
