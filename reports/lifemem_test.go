package reports

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/reports/lifemem"
	"github.com/memharness/memharness/reports/render"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

// copyTree copies src into a fresh directory.
func copyTree(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// checkGolden compares every text artefact of dir with
// testdata/lifemem/golden/<name>/ (go test -update rewrites them) and checks
// that PNGs decode.
func checkGolden(t *testing.T, name, dir string, arts []render.Artefact) {
	t.Helper()
	gold := filepath.Join("testdata", "lifemem", "golden", name)
	for _, a := range arts {
		got, err := os.ReadFile(filepath.Join(dir, a.Path))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(a.Path, ".png") {
			img, err := png.Decode(bytes.NewReader(got))
			if err != nil {
				t.Errorf("%s: %v", a.Path, err)
				continue
			}
			checkFigureRules(t, a.Path, img)
			continue
		}
		if strings.HasSuffix(a.Path, ".pdf") || strings.HasSuffix(a.Path, ".svg") {
			continue // vector twins: TestFigureKindsAtBothWidths checks them
		}
		path := filepath.Join(gold, a.Path)
		if *update {
			if err := os.MkdirAll(gold, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s:\n%s", a.Path, path, got)
		}
	}
}

func artefactNames(arts []render.Artefact) []string {
	var out []string
	for _, a := range arts {
		out = append(out, a.Path)
	}
	return out
}

func TestLifeMemReportGolden(t *testing.T) {
	dir := copyTree(t, filepath.Join("testdata", "lifemem", "run"))
	// Write routes a run with lifelong results to the LifeMem report.
	arts, err := Write(dir, Options{Envs: all.Entries(), PaperRows: builtinPaperRows()})
	if err != nil {
		t.Fatal(err)
	}
	names := strings.Join(artefactNames(arts.Files), " ")
	for _, want := range []string{
		"lifemem_table2.md", "lifemem_matrix.csv", "lifemem_matrix_lifemem_L10.png", "lifemem_transfer.png",
		"lifemem_ood.tex", "lifemem_costs.csv", "lifemem_clusters.md", "lifemem_sensitivity.md", "lifemem_vs_paper.md", "index.md",
	} {
		if !strings.Contains(names, want) {
			t.Errorf("artefact %s missing from %s", want, names)
		}
	}
	checkGolden(t, "run", arts.Dir, arts.Files)

	// Same input, same bytes — PNGs included.
	again := copyTree(t, filepath.Join("testdata", "lifemem", "run"))
	arts2, err := lifemem.Write(again, all.Entries(), builtinPaperRows())
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range arts2.Files {
		x, _ := os.ReadFile(filepath.Join(arts.Dir, a.Path))
		y, _ := os.ReadFile(filepath.Join(arts2.Dir, a.Path))
		if !bytes.Equal(x, y) {
			t.Errorf("%s is not deterministic", a.Path)
		}
	}
}

func TestLifeMemReportContent(t *testing.T) {
	dir := copyTree(t, filepath.Join("testdata", "lifemem", "run"))
	arts, err := lifemem.Write(dir, all.Entries(), builtinPaperRows())
	if err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(arts.Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	tests := []struct {
		file, want string
	}{
		// The App. C example: MiniWoB 77.08 → 75.00 is −2.70 %.
		{"lifemem_vs_paper.csv", "bwt_env,synapse,miniwob,GPT-4o-mini,-2.700000,-2.698495,%,no,App. C"},
		{"lifemem_vs_paper.csv", "cell,synapse,alfworld,GPT-4o-mini,50.750000,50.750000"},
		{"lifemem_vs_paper.csv", "self_learn,synapse,scienceworld,GPT-4o-mini,35.970000,35.970000"},
		{"lifemem_vs_paper.csv", "mean_cluster,lifemem,webshop,,29.000000,,count"},
		// Embodied OP of lifemem: (62 + 39) / 2.
		{"lifemem_table2.csv", "lifemem,lifemem,Embodied,op,50.500000,2"},
		// A zero diagonal is skipped, with a note.
		{"lifemem_table2.md", "lifemem_L10: BwT: alfworld skipped: score 0 right after learning it"},
		{"lifemem_ood.md", "| lifemem | 45.00 | 5.00 | 14.00 | 4.00 |"},
		{"lifemem_costs.md", "| lifemem | 30 | 42000 | 120 | 2000.0 | 700.0 | 2 | 0.0120 | 0.0200 | 0.0320 | 0.60 |"},
		{"lifemem_clusters.md", "| lifemem | 3 | 3.33 | 3.00 | 5 |"},
		{"lifemem_sensitivity.md", "| lifemem_L10 | 10 | 0.95 | 2 | 34.50 | -9.64 |"},
		{"index.md", "sim (embedded heuristic reader, not an LLM)"},
		{"lifemem_matrix.csv", "react,04,4,mind2web,5.000000,4,1"},
	}
	for _, tc := range tests {
		if got := read(tc.file); !strings.Contains(got, tc.want) {
			t.Errorf("%s lacks %q:\n%s", tc.file, tc.want, got)
		}
	}
}

func TestLifeMemSweepGolden(t *testing.T) {
	src := copyTree(t, filepath.Join("testdata", "lifemem", "sweep"))
	var runs []string
	for _, s := range []string{"similarity", "random", "buffer"} {
		runs = append(runs, filepath.Join(src, s))
	}
	runs = append(runs, t.TempDir()) // not a lifelong run: skipped
	out := filepath.Join(t.TempDir(), "sweep")
	arts, err := lifemem.WriteSweep(out, runs, all.Entries(), builtinPaperRows())
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "sweep", out, arts.Files)
	b, err := os.ReadFile(filepath.Join(out, "lifemem_streams.md"))
	if err != nil {
		t.Fatal(err)
	}
	// (40 − 30) / (45 − 30) of the mean final scores.
	for _, want := range []string{"| lifemem | sim | 45.00 | 30.00 | 40.00 | 66.67 % |", "| react | sim | 15.00 | 15.00 | 15.00 | – |"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("streams table lacks %q:\n%s", want, b)
		}
	}
	if _, err := lifemem.WriteSweep(out, []string{t.TempDir()}, all.Entries(), builtinPaperRows()); err == nil {
		t.Error("a sweep without lifelong runs gave no error")
	}
}

func TestLifeMemLoadErrors(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(dir string) error
		want  string
		exist bool
	}{
		{"cell outside the triangle", func(d string) error {
			return os.WriteFile(filepath.Join(d, "lifelong", "react", "cells", "01", "miniwob.json"),
				[]byte(`{"stage":"01","env":"miniwob","score":1}`), 0o644)
		}, `environment "miniwob" is not column 1..1 of row 1`, true},
		{"unknown stage", func(d string) error {
			return os.WriteFile(filepath.Join(d, "lifelong", "react", "cells", "01", "x.json"),
				[]byte(`{"stage":"later","env":"alfworld","score":1}`), 0o644)
		}, `stage "later" is not a stream stage`, true},
		{"broken JSON", func(d string) error {
			return os.WriteFile(filepath.Join(d, "lifelong", "lifemem", "costs.json"), []byte(`{`), 0o644)
		}, "costs.json", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyTree(t, filepath.Join("testdata", "lifemem", "run"))
			if err := tc.edit(dir); err != nil {
				t.Fatal(err)
			}
			_, err := lifemem.Write(dir, all.Entries(), builtinPaperRows())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

type rtSuite struct{ name string }

func (s rtSuite) Name() string  { return s.name }
func (s rtSuite) MaxSteps() int { return 2 }
func (s rtSuite) Tasks() []envs.Task {
	return []envs.Task{{ID: "t0", Env: s.name, Split: "test"}, {ID: "t1", Env: s.name, Split: "test"}}
}
func (s rtSuite) NewEpisode(context.Context, envs.Task, envs.Options) (envs.Episode, error) {
	return &rtEp{}, nil
}

type rtEp struct{ score float64 }

func (e *rtEp) Observation() string { return "go" }
func (e *rtEp) Step(_ context.Context, a string) (envs.Step, error) {
	if a == "win" {
		e.score = 1
	}
	return envs.Step{Observation: "ok", Done: true, Reward: e.score}, nil
}
func (e *rtEp) Done() bool     { return e.score > 0 }
func (e *rtEp) Score() float64 { return e.score }
func (e *rtEp) Close() error   { return nil }

// rtMethod wins every task of an environment it has learned.
type rtMethod struct{ learned map[string]bool }

func (m *rtMethod) Name() string { return "lifemem" }
func (m *rtMethod) Learn(ctx context.Context, env agent.Env, b []agent.Trajectory) error {
	for _, t := range b {
		m.learned[t.Env] = true
	}
	_, err := env.Builder().Generate(ctx, llm.Request{Purpose: "lifemem.assign"})
	return err
}
func (m *rtMethod) EndStage(context.Context, agent.Env) error { return nil }
func (m *rtMethod) Agent(_ context.Context, _ agent.Env, s envs.Suite, _ envs.Task) (envs.Agent, error) {
	a := "lose"
	if m.learned[s.Name()] {
		a = "win"
	}
	return envs.Replay([]string{a}), nil
}
func (m *rtMethod) Save(context.Context, agent.Env) error            { return nil }
func (m *rtMethod) Restore(context.Context, agent.Env) (bool, error) { return true, nil }

func TestLifeMemRoundTrip(t *testing.T) {
	dir := t.TempDir()
	cfg := lifelong.Config{Envs: []string{"alfworld", "scienceworld"}, OOD: []string{"fever"},
		Methods: []lifelong.MethodSpec{{Name: "lifemem", Kind: "lifemem"}}}.WithDefaults()
	if err := lifelong.WriteInfo(dir, lifelong.Info{Name: "rt", Backbone: "sim", Model: "sim", DataSource: "fake suites", Config: cfg}); err != nil {
		t.Fatal(err)
	}
	var trajs []agent.Trajectory
	for _, e := range cfg.Envs {
		for k := range 3 {
			trajs = append(trajs, agent.Trajectory{ID: fmt.Sprintf("%s_%d", e, k), Env: e})
		}
	}
	st, err := lifelong.NewStream(cfg.Stream, trajs, cfg.Envs, cfg.Batch, 1)
	if err != nil {
		t.Fatal(err)
	}
	meter := llm.NewMeter(llm.ModelFunc(func(context.Context, llm.Request) (llm.Response, error) {
		return llm.Response{Usage: llm.Usage{PromptTokens: 7}}, nil
	}))
	suites := map[string]envs.Suite{}
	for _, e := range []string{"alfworld", "scienceworld", "fever"} {
		suites[e] = rtSuite{e}
	}
	_, err = lifelong.Run(context.Background(), &rtMethod{learned: map[string]bool{}}, lifelong.Options{
		RunDir: dir, Stream: st, Suites: suites, OOD: cfg.OOD, Env: agent.Env{Model: meter}, Meters: []lifelong.Snapshotter{meter},
	})
	if err != nil {
		t.Fatal(err)
	}
	arts, err := Write(dir, Options{Envs: all.Entries(), PaperRows: builtinPaperRows()})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(arts.Dir, "lifemem_matrix.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"lifemem,01,1,alfworld,100.000000,2,0", "lifemem,02,2,scienceworld,100.000000,2,0", "lifemem,ood,,fever,0.000000,2,0"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("matrix CSV lacks %q:\n%s", want, b)
		}
	}
	c, err := os.ReadFile(filepath.Join(arts.Dir, "lifemem_costs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// Two stages of one batch each; 3 stream cells and 1 OOD cell of 2 tasks;
	// no prices, so the cost is empty (null), not 0.
	if !strings.Contains(string(c), "lifemem,construction,2,0,14,0,,6,8") {
		t.Errorf("costs CSV:\n%s", c)
	}
	if md, _ := os.ReadFile(filepath.Join(arts.Dir, "lifemem_costs.md")); !strings.Contains(string(md), "Costs are not reported") {
		t.Errorf("unpriced run: costs table does not say so:\n%s", md)
	}
}
