package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/bench/store"
	"github.com/memharness/memharness/datasets/trajectories"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/methods/agent/lifemem"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runlog"
)

// executeLifelong runs task lifemem: every agent method of the config
// learns the environments' training trajectories stage by stage and is
// re-evaluated on every test set learned so far (the S matrix), then on the
// OOD environments; cells resume from the run directory.
func executeLifelong(ctx context.Context, stdio IO, rs runSpec) (runResult, error) {
	var res runResult
	cfg := rs.cfg
	lc := cfg.Lifelong.WithDefaults()
	if lc.Seed == 0 {
		lc.Seed = cfg.Seed
	}
	start := time.Now()
	back, err := openBackbone(cfg, stdio.Getenv, rs.out)
	if err != nil {
		return res, err
	}
	defer back.close()

	st, err := store.Open(rs.dir)
	if err != nil {
		return res, err
	}
	defer st.Close()
	hash, err := cfg.Hash()
	if err != nil {
		return res, err
	}
	var prev runlog.Manifest
	if ok, err := st.ReadJSON(runlog.ManifestFile, &prev); err != nil {
		return res, err
	} else if ok && prev.ConfigHash != hash {
		return res, fmt.Errorf("run directory %s holds a run of a different config; use another --out or remove it", rs.dir)
	}

	// Suites and training data. Embedded default: the suites written by us,
	// split into train (gold replays recorded as expert trajectories) and
	// test. Official data (dataset.path = a data root laid out like
	// shared/fixtures/envs): the environments' own test splits and LifeMem's
	// training files from lifelong.train_dir.
	official := cfg.Dataset.Path != ""
	if official && lc.TrainDir == "" {
		return res, fmt.Errorf("lifemem on official data (dataset.path) needs lifelong.train_dir with LifeMem's train_<env>.jsonl files")
	}
	eo := all.Options{MySQLDSN: stdio.Getenv("MEMHARNESS_MYSQL_DSN")}
	suites := map[string]envs.Suite{}
	tests := map[string][]envs.Task{}
	var train []agent.Trajectory
	var warnings []string
	defer func() {
		for _, s := range suites {
			closeSuite(s)
		}
	}()
	streamEnvs := lc.Envs
	for _, name := range append(slices.Clone(lc.Envs), lc.OOD...) {
		e, err := all.Find(name)
		if err != nil {
			return res, err
		}
		var s envs.Suite
		if official {
			s, err = e.OpenData(cfg.Dataset.Path, eo)
		} else {
			s, err = e.OpenEmbedded(eo)
		}
		if err != nil {
			return res, fmt.Errorf("%s: %w", name, err)
		}
		if err := probe(ctx, s); err != nil {
			// An environment that cannot run here (MiniWoB++ without
			// Chromium) is left out and said so, rather than scored 0.
			closeSuite(s)
			if err := refusePartial(back.kind, lc, name, err); err != nil {
				return res, err
			}
			msg := fmt.Sprintf("%s left out: %v", name, err)
			warnings = append(warnings, msg)
			fmt.Fprintf(stdio.Err, "warning: %s\n", msg)
			streamEnvs = slices.DeleteFunc(slices.Clone(streamEnvs), func(x string) bool { return x == name })
			continue
		}
		suites[name] = s
		if official {
			tests[name] = lifelong.DefaultTestTasks(s)
			if len(tests[name]) == 0 {
				// Evaluation sets published as "dev" (HotpotQA's distractor
				// dev questions, as ExpeL evaluates) are the test set.
				tests[name] = s.Tasks()
			}
			if slices.Contains(lc.Envs, name) {
				path, err := trainFile(lc.TrainDir, name)
				if err != nil {
					return res, err
				}
				tr, err := trajectories.Load(path, name)
				if err != nil {
					return res, fmt.Errorf("%s: training trajectories: %w", name, err)
				}
				train = append(train, tr...)
			}
			continue
		}
		tr, test, err := trajectories.Embedded(ctx, s)
		if err != nil {
			return res, fmt.Errorf("%s: training trajectories: %w", name, err)
		}
		tests[name] = test
		if slices.Contains(lc.Envs, name) {
			train = append(train, tr...)
		}
	}
	for n, ts := range tests {
		tests[n] = lc.TestSet(n, ts)
	}
	prompts, err := lifelongPrompts(ctx, cfg, stdio.Getenv, suites)
	if err != nil {
		return res, err
	}
	if prompts.warning != "" {
		fmt.Fprintln(stdio.Err, prompts.warning)
	}
	ood := slices.DeleteFunc(slices.Clone(lc.OOD), func(x string) bool { return suites[x] == nil })
	stream, err := lifelong.NewStream(lc.Stream, train, streamEnvs, lc.Batch, lc.Seed)
	if err != nil {
		return res, err
	}

	man := runlog.Manifest{
		Name: cfg.Name, Config: cfg, ConfigPath: rs.configPath, ConfigHash: hash, Variant: rs.variant,
		HarnessVersion: Version, GitCommit: gitCommit(), Backbone: back.kind, Model: back.modelName, BuildModel: back.constructionModels(),
		Endpoints: back.endpoints, DataSource: lifelongSource(cfg, lc),
		DataWarnings: warnings, Seed: cfg.Seed, Started: start.UTC(),
	}
	prompts.stamp(&man)
	for _, m := range lc.Methods {
		man.Methods = append(man.Methods, m.Name)
	}
	if !prev.Started.IsZero() {
		man.Started = prev.Started
	}
	if err := st.WriteJSON(runlog.ManifestFile, man); err != nil {
		return res, err
	}
	if err := lifelong.WriteInfo(rs.dir, lifelong.Info{
		Name: cfg.Name, Variant: rs.variant, Backbone: back.kind, Model: back.modelName, BuildModel: back.constructionModels(),
		DataSource: man.DataSource, Config: lc,
	}); err != nil {
		return res, err
	}
	fmt.Fprintf(stdio.Err, "run %s: lifelong %s stream over %d environments (%d training trajectories), %d methods on %s\n",
		cfg.Name, lc.Stream, len(streamEnvs), len(train), len(lc.Methods), back.describe())

	env := agent.Env{Model: back.model, BuildModel: back.buildModel, AssignModel: back.assign.model,
		SkillModel: back.skill.model, UserModel: back.user.model, Embedder: back.embedder, Seed: lc.Seed, Prompts: prompts.prompts}
	for _, spec := range lc.Methods {
		newMethod := func() (agent.Method, error) { return buildAgentMethod(spec) }
		m, err := newMethod()
		if err != nil {
			return res, err
		}
		r, err := lifelong.Run(ctx, m, lifelong.Options{
			RunDir: rs.dir, Stream: stream, Suites: suites, OOD: ood, SelfLearn: lc.SelfLearn,
			NewMethod: newMethod, Env: env, MaxSteps: lc.MaxSteps, TasksPerEnv: lc.TasksPerEnv,
			TestTasks: func(s envs.Suite) []envs.Task { return tests[s.Name()] },
			Meters:    back.lifelongMeters(), Workers: 1, Log: stdio.Err,
		})
		if c, ok := m.(interface{ Close() error }); ok {
			c.Close()
		}
		if err != nil {
			return res, err
		}
		fmt.Fprintf(stdio.Err, "run %s: %s done (final row %v)\n", cfg.Name, spec.Name, finalRow(r))
	}
	res.liveCalls = int(back.meter.Snapshot().Total.Live)
	if err := writeUsage(st, back.meter); err != nil {
		return res, err
	}
	fin := time.Now().UTC()
	man.Finished = &fin
	if err := st.WriteJSON(runlog.ManifestFile, man); err != nil {
		return res, err
	}
	fmt.Fprintf(stdio.Err, "run %s: %d live model calls, %s\n", cfg.Name, res.liveCalls, time.Since(start).Round(time.Millisecond))
	if rs.report {
		if _, err := reports.Write(rs.dir, reportOptions(cfg)); err != nil {
			return res, fmt.Errorf("report: %w", err)
		}
		fmt.Fprintf(stdio.Err, "report: %s\n", filepath.Join(rs.dir, "report", "index.md"))
	}
	return res, nil
}

// probe starts (and closes) one episode to show the environment can run
// here at all.
func probe(ctx context.Context, s envs.Suite) error {
	tasks := s.Tasks()
	if len(tasks) == 0 {
		return fmt.Errorf("no tasks")
	}
	ep, err := s.NewEpisode(ctx, tasks[0], envs.Options{Seed: 1})
	if err != nil {
		return err
	}
	return ep.Close()
}

func finalRow(r lifelong.Result) []string {
	var out []string
	for i, e := range r.Matrix.Envs {
		out = append(out, fmt.Sprintf("%s=%.1f", e, r.Matrix.S[len(r.Matrix.S)-1][i]))
	}
	return out
}

// buildAgentMethod builds one agent method of a lifelong config; the
// method keeps the config's name so variants of one kind stay apart.
func buildAgentMethod(spec lifelong.MethodSpec) (agent.Method, error) {
	var m agent.Method
	switch spec.Kind {
	case "lifemem":
		o := lifemem.Options{TopK: spec.TopK, SplitSize: spec.SplitSize, SplitMRL: spec.Tau}
		switch {
		case spec.NoSkills:
			o.Ablation = lifemem.NoSkills
		case spec.NoTrajectories:
			o.Ablation = lifemem.NoTrajectories
		}
		lm, err := lifemem.New(o)
		if err != nil {
			return nil, err
		}
		if spec.Name != "" && spec.Name != lm.Name() {
			// Embedding the concrete type keeps Stats and Close reachable.
			return namedLifeMem{LifeMem: lm, name: spec.Name}, nil
		}
		m = lm
	default:
		b, err := agent.New(spec.Kind, agent.Options{K: spec.TopK})
		if err != nil {
			return nil, err
		}
		m = b
	}
	if spec.Name == "" || spec.Name == m.Name() {
		return m, nil
	}
	return named{Method: m, name: spec.Name}, nil
}

// namedLifeMem is a LifeMem variant under its config name.
type namedLifeMem struct {
	*lifemem.LifeMem
	name string
}

func (n namedLifeMem) Name() string { return n.name }

// named renames a baseline method.
type named struct {
	agent.Method
	name string
}

func (n named) Name() string { return n.name }

func (n named) Close() error {
	if c, ok := n.Method.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}

func lifelongSource(cfg *config.Config, lc lifelong.Config) string {
	if cfg.Dataset.Path == "" {
		return "embedded agent suites (gold replays of the train split as expert trajectories)"
	}
	return fmt.Sprintf("official environment data at %s, training trajectories from %s", filepath.Base(cfg.Dataset.Path), filepath.Base(lc.TrainDir))
}
