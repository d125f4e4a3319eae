package lifelongagents

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/memharness/memharness/family"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/datasets/trajectories"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/methods/agent"
)

// lifelongSuites are the environments an agent run (or its plan) opened:
// the suites that can run here, their test tasks before the config's test
// set is applied, the training trajectories of the stream's environments,
// and the stream's environments without those left out.
type lifelongSuites struct {
	suites     map[string]envs.Suite
	tests      map[string][]envs.Task
	train      []agent.Trajectory
	streamEnvs []string
}

func (ls *lifelongSuites) close() {
	for _, s := range ls.suites {
		closeSuite(s)
	}
}

// openLifelongSuites opens the stream's and the OOD set's environments.
// Embedded default: the suites written by us, split into train (gold
// replays recorded as expert trajectories) and test. Official data
// (dataset.path = a data root laid out like shared/fixtures/envs): the
// environments' own test splits and LifeMem's training files from
// lifelong.train_dir. An environment that cannot run here (MiniWoB++
// without Chromium) is handed to leaveOut, which leaves it out (nil) or
// ends the opening (an error); openFails says whether a suite that does not
// even open is left out the same way (else it is an error).
func openLifelongSuites(ctx context.Context, env family.Env, cfg *config.Config, lc lifelong.Config, reg *all.Registry,
	openFails bool, leaveOut func(name string, err error) error) (*lifelongSuites, error) {
	official := cfg.Dataset.Path != ""
	if official && lc.TrainDir == "" {
		return nil, fmt.Errorf("lifemem on official data (dataset.path) needs lifelong.train_dir with LifeMem's train_<env>.jsonl files")
	}
	eo := all.Options{MySQLDSN: env.Getenv("MEMHARNESS_MYSQL_DSN")}
	ls := &lifelongSuites{suites: map[string]envs.Suite{}, tests: map[string][]envs.Task{}, streamEnvs: lc.Envs}
	fail := func(err error) (*lifelongSuites, error) {
		ls.close()
		return nil, err
	}
	for _, name := range append(slices.Clone(lc.Envs), lc.OOD...) {
		e, err := reg.Find(name)
		if err != nil {
			return fail(err)
		}
		var s envs.Suite
		if official {
			s, err = e.OpenData(cfg.Dataset.Path, eo)
		} else {
			s, err = e.OpenEmbedded(eo)
		}
		if err != nil && !openFails {
			return fail(fmt.Errorf("%s: %w", name, err))
		}
		if err == nil {
			if err = probe(ctx, s); err != nil {
				closeSuite(s)
			}
		}
		if err != nil {
			if err := leaveOut(name, err); err != nil {
				return fail(err)
			}
			ls.streamEnvs = slices.DeleteFunc(slices.Clone(ls.streamEnvs), func(x string) bool { return x == name })
			continue
		}
		ls.suites[name] = s
		if official {
			ls.tests[name] = lifelong.DefaultTestTasks(s)
			if len(ls.tests[name]) == 0 {
				// Evaluation sets published as "dev" (HotpotQA's distractor
				// dev questions, as ExpeL evaluates) are the test set.
				ls.tests[name] = s.Tasks()
			}
			if slices.Contains(lc.Envs, name) {
				path, err := TrainFile(lc.TrainDir, e)
				if err != nil {
					return fail(err)
				}
				tr, err := trajectories.Load(path, name, reg.FileTags())
				if err != nil {
					return fail(fmt.Errorf("%s: training trajectories: %w", name, err))
				}
				ls.train = append(ls.train, tr...)
			}
			continue
		}
		tr, test, err := envs.EmbeddedExperience(ctx, s)
		if err != nil {
			return fail(fmt.Errorf("%s: training trajectories: %w", name, err))
		}
		ls.tests[name] = test
		if slices.Contains(lc.Envs, name) {
			ls.train = append(ls.train, tr...)
		}
	}
	return ls, nil
}

// closeSuite releases what a suite holds (MiniWoB's browser).
func closeSuite(s envs.Suite) {
	if c, ok := s.(io.Closer); ok {
		c.Close()
	}
}
