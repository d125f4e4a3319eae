package lifelong

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/metrics"
)

func TestStreams(t *testing.T) {
	envNames := []string{"a", "b", "c"}
	trajs := append(trajectories(7, "a", "b", "c"), agent.Trajectory{ID: "z_0", Env: "z"})
	tests := []struct {
		kind string
		// check inspects the stream beyond the common invariants.
		check func(t *testing.T, st Stream)
	}{
		{StreamSimilarity, func(t *testing.T, st Stream) {
			for j, s := range st.Stages {
				if s.Env != envNames[j] || !slices.Equal(s.Eval, envNames[:j+1]) {
					t.Errorf("stage %d: env %q eval %v", s.Index, s.Env, s.Eval)
				}
				if len(s.Batches) != 2 || len(s.Batches[0].Items) != 5 || len(s.Batches[1].Items) != 2 {
					t.Errorf("stage %d: batches of %d", s.Index, len(s.Batches))
				}
				// Easy→hard: difficulty ascending (IDs descending here).
				if first := s.Batches[0].Items[0]; first.Difficulty != 1 {
					t.Errorf("stage %d starts with difficulty %d", s.Index, first.Difficulty)
				}
			}
		}},
		{StreamRandom, func(t *testing.T, st Stream) {
			mixed := false
			for _, s := range st.Stages {
				for _, b := range s.Batches {
					if b.Env != "" {
						t.Errorf("random batch labelled %q", b.Env)
					}
					for _, it := range b.Items[1:] {
						mixed = mixed || it.Env != b.Items[0].Env
					}
				}
			}
			if !mixed {
				t.Error("random stream never mixes environments in a batch")
			}
		}},
		{StreamBuffer, func(t *testing.T, st Stream) {
			partial := map[string]int{}
			for _, s := range st.Stages {
				for _, b := range s.Batches {
					for _, it := range b.Items {
						if it.Env != b.Env {
							t.Errorf("buffer batch %q holds %s", b.Env, it.ID)
						}
					}
					if len(b.Items) != 5 {
						partial[b.Env]++
					}
				}
			}
			// 7 per env: one full cache and one flushed remainder each.
			if len(partial) != 3 || partial["a"] != 1 {
				t.Errorf("partial batches per env = %v, want one each", partial)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.kind, func(t *testing.T) {
			st, err := NewStream(tc.kind, trajs, envNames, 5, 7)
			if err != nil {
				t.Fatal(err)
			}
			if st.Dropped != 1 || len(st.Stages) != 3 {
				t.Fatalf("dropped %d, %d stages", st.Dropped, len(st.Stages))
			}
			seen := map[string]bool{}
			for _, s := range st.Stages {
				for _, b := range s.Batches {
					for _, it := range b.Items {
						seen[it.ID] = true
					}
				}
			}
			if len(seen) != 21 {
				t.Errorf("stream holds %d distinct trajectories, want 21", len(seen))
			}
			if tc.kind != StreamSimilarity && (len(st.Stages[2].Eval) != 3 || len(st.Stages[0].Eval) != 0) {
				t.Errorf("%s stream evaluates %v / %v; want nothing, then everything at the end", tc.kind, st.Stages[0].Eval, st.Stages[2].Eval)
			}
			again, _ := NewStream(tc.kind, trajs, envNames, 5, 7)
			other, _ := NewStream(tc.kind, trajs, envNames, 5, 8)
			if order(st) != order(again) {
				t.Error("same seed gave a different stream")
			}
			if tc.kind != StreamSimilarity && order(st) == order(other) {
				t.Error("another seed gave the same stream")
			}
			tc.check(t, st)
		})
	}
}

func order(st Stream) string {
	var ids []string
	for _, s := range st.Stages {
		for _, b := range s.Batches {
			for _, it := range b.Items {
				ids = append(ids, it.ID)
			}
			ids = append(ids, "|")
		}
	}
	return strings.Join(ids, ",")
}

func TestStreamErrors(t *testing.T) {
	tests := []struct {
		name  string
		kind  string
		trajs []agent.Trajectory
		envs  []string
		batch int
		want  string
	}{
		{"unknown kind", "sorted", nil, []string{"a"}, 5, "unknown kind"},
		{"no envs", StreamSimilarity, nil, nil, 5, "no environments"},
		{"bad batch", StreamSimilarity, nil, []string{"a"}, 0, "batch 0"},
		{"duplicate id", StreamRandom, append(trajectories(1, "a"), trajectories(1, "a")...), []string{"a"}, 5, "duplicate"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewStream(tc.kind, tc.trajs, tc.envs, tc.batch, 1)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// fixture is a small protocol setup: envs a, b, c with 4 test tasks each,
// 3 trajectories per env, batches of 2, memory capacity 5, and OOD env o.
type fixture struct {
	dir    string
	meter  *llm.Meter
	opts   Options
	stream Stream
}

func newFixture(t *testing.T, kind string, selfLearn bool) *fixture {
	t.Helper()
	st, err := NewStream(kind, trajectories(3, "a", "b", "c"), []string{"a", "b", "c"}, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{dir: t.TempDir(), meter: fixedModel(), stream: st}
	suites := map[string]envs.Suite{}
	for _, e := range []string{"a", "b", "c"} {
		suites[e] = quizSuite{name: e, n: 4}
	}
	suites["o"] = quizSuite{name: "o", n: 2}
	f.opts = Options{
		RunDir: f.dir, Stream: st, Suites: suites, OOD: []string{"o"}, SelfLearn: selfLearn,
		NewMethod: func() (agent.Method, error) { return &memMethod{name: "mem", capacity: 5}, nil },
		Env:       agent.Env{Model: f.meter, Seed: 3},
		Meters:    []Snapshotter{f.meter},
		Workers:   2,
	}
	return f
}

func row(m metrics.ScoreMatrix, j int) []float64 { return m.S[j] }

func TestRunSimilarity(t *testing.T) {
	f := newFixture(t, StreamSimilarity, true)
	var log bytes.Buffer
	f.opts.Log = &log
	res, err := Run(context.Background(), &memMethod{name: "mem", capacity: 5}, f.opts)
	if err != nil {
		t.Fatal(err)
	}
	// Stage 1 remembers a×3; stage 2 keeps a×2 b×3; stage 3 keeps b×2 c×3.
	want := [][]float64{{75}, {50, 75}, {0, 50, 75}}
	for j := range want {
		if !slices.Equal(row(res.Matrix, j), want[j]) {
			t.Errorf("row %d = %v, want %v", j+1, res.Matrix.S[j], want[j])
		}
	}
	if op := metrics.OP(res.Matrix); math.Abs(op-125.0/3) > 1e-9 {
		t.Errorf("OP = %v", op)
	}
	if b := metrics.BwT(res.Matrix); math.Abs(b.Value-(-200.0/3)) > 1e-9 {
		t.Errorf("BwT = %v", b.Value)
	}
	if res.OOD["o"] != 0 || len(res.SelfLearn) != 3 || res.SelfLearn["b"] != 75 {
		t.Errorf("OOD %v, self-learn %v", res.OOD, res.SelfLearn)
	}
	// Construction: 2 Learn calls per stage + 2 per self-learn env = 12;
	// acting: (6 stream cells + 3 self + OOD) episodes = 24 + 12 + 2.
	c := res.Costs
	if c.Construction.Calls != 12 || c.Acting.Calls != 38 || c.Episodes != 38 || c.Trajectories != 18 {
		t.Errorf("costs = %+v", c)
	}
	if c.PromptTokensPerEpisode != 10 || c.Acting.PromptTokens != 380 {
		t.Errorf("prompt tokens = %+v", c)
	}
	for _, p := range []string{
		"cells/01/a.json", "cells/03/c.json", "cells/ood/o.json", "cells/self/b.json",
		"transcripts/02/b.jsonl", "stages/03.json", "costs.json", "matrix.json", "state/state.json", StatsFile,
	} {
		if _, err := os.Stat(filepath.Join(f.dir, "lifelong", "mem", p)); err != nil {
			t.Errorf("missing %s: %v", p, err)
		}
	}
	cell, ok, err := FileStore{Dir: MethodDir(f.dir, "mem")}.Load(CellKey{Stage: "02", Env: "a"})
	if err != nil || !ok || len(cell.Transcripts) != 4 || cell.Score != 50 || cell.Row != 2 {
		t.Errorf("reloaded cell: ok %v err %v %+v", ok, err, cell)
	}
	if !strings.Contains(log.String(), "stage 02 (b): learned 3 trajectories in 2 batches") {
		t.Errorf("log:\n%s", log.String())
	}
}

func TestRunRandomStreamFillsLastRowOnly(t *testing.T) {
	f := newFixture(t, StreamRandom, false)
	res, err := Run(context.Background(), &memMethod{name: "mem", capacity: 100}, f.opts)
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(res.Matrix.S[0][0]) || !slices.Equal(res.Matrix.S[2], []float64{75, 75, 75}) {
		t.Errorf("matrix = %v", res.Matrix.S)
	}
	if metrics.OP(res.Matrix) != 75 || !math.IsNaN(metrics.BwT(res.Matrix).Value) {
		t.Error("random stream: want OP 75 and undefined BwT")
	}
}

// cellFiles reads every cell and stage file of a method directory.
func cellFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if strings.HasPrefix(rel, "cells") || strings.HasPrefix(rel, "stages") || rel == "costs.json" || rel == "matrix.json" {
			b, err := os.ReadFile(p)
			out[rel] = string(b)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestResumeAfterFailures(t *testing.T) {
	ref := newFixture(t, StreamSimilarity, true)
	want, err := Run(context.Background(), &memMethod{name: "mem", capacity: 5}, ref.opts)
	if err != nil {
		t.Fatal(err)
	}
	wantFiles := cellFiles(t, MethodDir(ref.dir, "mem"))

	tests := []struct {
		name string
		// first is the interrupted attempt.
		first func(f *fixture) error
		// learns is how many Learn calls the resumed stream needs.
		learns       int
		resumedStage int
	}{
		{
			name: "learn fails in stage 2",
			first: func(f *fixture) error {
				_, err := Run(context.Background(), &memMethod{name: "mem", capacity: 5, failLearnAt: 4}, f.opts)
				return err
			},
			learns: 4, resumedStage: 1,
		},
		{
			name: "cancelled in the middle of a stage-3 cell",
			first: func(f *fixture) error {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				calls := 0
				o := f.opts
				o.Workers = 1
				o.Env.Model = llm.ModelFunc(func(ctx context.Context, r llm.Request) (llm.Response, error) {
					if r.Purpose == "fake.act" {
						if calls++; calls == 4+8+1 { // first episode of cell 03/a
							cancel()
							return llm.Response{}, ctx.Err()
						}
					}
					return f.meter.Generate(ctx, r)
				})
				_, err := Run(ctx, &memMethod{name: "mem", capacity: 5}, o)
				return err
			},
			learns: 0, resumedStage: 3,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, StreamSimilarity, true)
			if err := tc.first(f); err == nil {
				t.Fatal("interrupted attempt succeeded")
			}
			m := &memMethod{name: "mem", capacity: 5}
			got, err := Run(context.Background(), m, f.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got.ResumedStages != tc.resumedStage {
				t.Errorf("resumed after stage %d, want %d", got.ResumedStages, tc.resumedStage)
			}
			// Self-learn methods are fresh instances; only the stream's
			// Learn calls land on m.
			if m.learns != tc.learns {
				t.Errorf("resumed run made %d Learn calls, want %d", m.learns, tc.learns)
			}
			for j := range want.Matrix.S {
				if !slices.Equal(got.Matrix.S[j], want.Matrix.S[j]) {
					t.Errorf("row %d = %v, want %v", j+1, got.Matrix.S[j], want.Matrix.S[j])
				}
			}
			gotFiles := cellFiles(t, MethodDir(f.dir, "mem"))
			for name, body := range wantFiles {
				if name == "costs.json" {
					continue // the interrupted attempt's calls are not in any record
				}
				if gotFiles[name] != body {
					t.Errorf("%s differs from an uninterrupted run:\n%s\nwant:\n%s", name, gotFiles[name], body)
				}
			}
		})
	}
}

func TestResumeRefusesStaleCells(t *testing.T) {
	f := newFixture(t, StreamSimilarity, false)
	if _, err := Run(context.Background(), &memMethod{name: "mem", capacity: 5}, f.opts); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(MethodDir(f.dir, "mem"), "cells", "01", "a.json")); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), &memMethod{name: "mem", capacity: 5}, f.opts)
	if err == nil || !strings.Contains(err.Error(), "cell 01/a is missing") {
		t.Fatalf("err = %v, want a missing-cell error", err)
	}
	// Without the method's state the stage records cannot be honoured.
	if err := os.Remove(filepath.Join(MethodDir(f.dir, "mem"), "state", "state.json")); err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), &memMethod{name: "mem", capacity: 5}, f.opts)
	if err == nil || !strings.Contains(err.Error(), "restored no state") {
		t.Fatalf("err = %v, want a no-state error", err)
	}
}

func TestRunOptionErrors(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(o *Options)
		want   string
	}{
		{"missing suite", func(o *Options) { delete(o.Suites, "b") }, `no suite for environment "b"`},
		{"self-learn without factory", func(o *Options) { o.NewMethod = nil }, "needs NewMethod"},
		{"no run dir", func(o *Options) { o.RunDir = "" }, "no run directory"},
		{"empty stream", func(o *Options) { o.Stream = Stream{} }, "0 stages"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, StreamSimilarity, true)
			tc.mutate(&f.opts)
			_, err := Run(context.Background(), &memMethod{name: "mem", capacity: 5}, f.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
	f := newFixture(t, StreamSimilarity, false)
	if _, err := Run(context.Background(), &memMethod{name: "../x", capacity: 5}, f.opts); err == nil {
		t.Error("unsafe method name accepted")
	}
}

// brokenSuite fails to start one task: the cell records it and goes on.
type brokenSuite struct{ quizSuite }

func (s brokenSuite) Tasks() []envs.Task {
	return append(s.quizSuite.Tasks(), envs.Task{ID: "broken", Env: s.name, Split: "test"})
}

func TestEpisodeFailuresAreRecorded(t *testing.T) {
	f := newFixture(t, StreamSimilarity, false)
	f.opts.Suites["a"] = brokenSuite{quizSuite{name: "a", n: 4}}
	res, err := Run(context.Background(), &memMethod{name: "mem", capacity: 5}, f.opts)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Cells[0]
	if c.Errors != 1 || len(c.Tasks) != 5 || c.Score != 60 || !strings.HasPrefix(c.Tasks[4].End, "error: start") {
		t.Errorf("cell = %+v", c)
	}
}

func TestDefaultTestTasks(t *testing.T) {
	mk := func(splits ...string) envs.Suite {
		var ts []envs.Task
		for i, s := range splits {
			ts = append(ts, envs.Task{ID: string(rune('a' + i)), Split: s})
		}
		return taskList(ts)
	}
	tests := []struct {
		name string
		s    envs.Suite
		want string
	}{
		{"test split", mk("train", "test", "dev", "test"), "bd"},
		{"mind2web's test_task", mk("train", "test_task"), "b"},
		{"no split", mk("", "train", ""), "ac"},
	}
	for _, tc := range tests {
		var got string
		for _, task := range DefaultTestTasks(tc.s) {
			got += task.ID
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

type taskList []envs.Task

func (l taskList) Name() string       { return "list" }
func (l taskList) Tasks() []envs.Task { return l }
func (l taskList) MaxSteps() int      { return 1 }
func (l taskList) NewEpisode(context.Context, envs.Task, envs.Options) (envs.Episode, error) {
	return nil, errors.New("not playable")
}

func TestSplitSnapshot(t *testing.T) {
	m := fixedModel()
	for _, p := range []string{"lifemem.assign", "lifemem.assign", "agent.act", "taubench.user"} {
		if _, err := m.Generate(context.Background(), llm.Request{Purpose: p}); err != nil {
			t.Fatal(err)
		}
	}
	c := SplitSnapshot("lifemem", m.Snapshot(), func(p string) bool { return strings.HasPrefix(p, "lifemem.") }, DefaultEnvPurposes())
	if c.Construction.Calls != 2 || c.Acting.Calls != 1 || c.Environment.Calls != 1 || c.PromptTokensPerCall != 10 {
		t.Errorf("costs = %+v", c)
	}
}

func TestEpisodeSeedStable(t *testing.T) {
	a, b := EpisodeSeed(1, "alfworld", "t1"), EpisodeSeed(1, "alfworld", "t2")
	if a == b || a != EpisodeSeed(1, "alfworld", "t1") || a < 0 {
		t.Errorf("seeds %d %d", a, b)
	}
}

// TestRetryBudgetPerEpisode: an acting model stuck on 429 with Retry-After
// of an hour ends each episode once the run's retry budget is spent (the
// episode is recorded as an error), instead of waiting attempts × an hour;
// each episode, and each Learn call, gets a budget of its own.
func TestRetryBudgetPerEpisode(t *testing.T) {
	cases := []struct {
		name      string
		budget    time.Duration
		maxPerAct time.Duration
	}{
		{"budget", 10 * time.Minute, 10 * time.Minute},
		{"no budget", 0, 36 * time.Minute},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, StreamSimilarity, false)
			var mu sync.Mutex
			waits := map[string]time.Duration{} // by episode: the request's task
			limited := llm.ModelFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
				if req.Purpose == "fake.act" {
					return llm.Response{}, &llm.Error{Kind: llm.KindHTTP, StatusCode: 429, Retryable: true, RetryAfter: time.Hour}
				}
				return f.meter.Generate(ctx, req)
			})
			// Retry-After is honoured up to 4 minutes: 9 retries wait 36 min
			// without a budget, 2 (8 min) within a 10-minute one.
			f.opts.Env.Model = llm.WithRetry(limited, llm.RetryPolicy{MaxAttempts: 10, MaxRetryAfter: 4 * time.Minute,
				Sleep: func(ctx context.Context, d time.Duration) error {
					mu.Lock()
					waits[fmt.Sprint(ctx.Value(episodeKey{}))] += d
					mu.Unlock()
					return nil
				}})
			f.opts.RetryBudget = tc.budget
			f.opts.OOD = nil
			res, err := Run(context.Background(), &budgetProbe{memMethod: &memMethod{name: "mem", capacity: 5}}, f.opts)
			if len(waits) != res.Costs.Episodes {
				t.Errorf("%d episodes waited, %d ran", len(waits), res.Costs.Episodes)
			}
			if err != nil {
				t.Fatal(err)
			}
			if c := res.Cells[0]; c.Errors != len(c.Tasks) || !strings.Contains(c.Tasks[0].End, "429") {
				t.Fatalf("cell: %d errors of %d, first end %q", c.Errors, len(c.Tasks), c.Tasks[0].End)
			}
			if tc.budget > 0 && !strings.Contains(res.Cells[0].Tasks[0].End, "retry budget") {
				t.Errorf("episode end %q does not name the retry budget", res.Cells[0].Tasks[0].End)
			}
			var worst time.Duration
			for _, w := range waits {
				worst = max(worst, w)
			}
			t.Logf("%s: %d episodes, longest wait %s", tc.name, len(waits), worst)
			if worst > tc.maxPerAct || worst < tc.maxPerAct*4/5 {
				t.Errorf("the longest episode waited %s, want about %s", worst, tc.maxPerAct)
			}
		})
	}
}

type episodeKey struct{}

// budgetProbe tags each episode's context so the test can add up the
// backoff waits per episode.
type budgetProbe struct {
	*memMethod
	episodes atomic.Int64
}

func (b *budgetProbe) Agent(ctx context.Context, env agent.Env, s envs.Suite, t envs.Task) (envs.Agent, error) {
	return b.memMethod.Agent(context.WithValue(ctx, episodeKey{}, b.episodes.Add(1)), env, s, t)
}

// TestUntimedTranscripts: on a deterministic backbone the transcripts carry
// no wall-clock duration, so two runs write the same bytes.
func TestUntimedTranscripts(t *testing.T) {
	read := func(untimed bool) []byte {
		f := newFixture(t, StreamSimilarity, false)
		f.opts.Untimed = untimed
		if _, err := Run(context.Background(), &memMethod{name: "mem", capacity: 5}, f.opts); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(f.dir, "lifelong", "mem", "transcripts", "02", "b.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if a, b := read(true), read(true); !bytes.Equal(a, b) || bytes.Contains(a, []byte(`"duration_ns":`)) && !bytes.Contains(a, []byte(`"duration_ns":0`)) {
		t.Errorf("untimed transcripts differ or carry a duration:\n%s", a)
	}
	if timed := read(false); bytes.Contains(timed, []byte(`"duration_ns":0,`)) || !bytes.Contains(timed, []byte(`"duration_ns":`)) {
		t.Errorf("timed transcripts lack their duration:\n%s", timed)
	}
}
