package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/planner"
)

// TestDefaultKindsValidateAsBuiltIns: the built-in registries hand config
// validation exactly the lists it uses without them, so a run with no
// registered kinds keeps every message unchanged.
func TestDefaultKindsValidateAsBuiltIns(t *testing.T) {
	for _, k := range []*Kinds{nil, {}, DefaultKinds()} {
		got := k.Known()
		if !slices.Equal(got.Methods.Names(), config.Known{}.MethodKinds()) {
			t.Errorf("prediction kinds %v, want %v", got.Methods.Names(), config.Known{}.MethodKinds())
		}
		if want := []string{"react", "synapse", "expel", "autoskill", "lifemem", "external", "mcp_memory"}; !slices.Equal(got.Lifelong.Methods.Ordered(), want) {
			t.Errorf("agent kinds %v, want %v", got.Lifelong.Methods.Ordered(), want)
		}
		if want := append(lifelong.PaperOrder(), lifelong.PaperOOD()...); !slices.Equal(got.Lifelong.Envs, want) {
			t.Errorf("environments %v, want %v", got.Lifelong.Envs, want)
		}
	}
}

// TestDefaultFamiliesRunTheBuiltInTasks: the built-in families register
// exactly the tasks config validation knows without them.
func TestDefaultFamiliesRunTheBuiltInTasks(t *testing.T) {
	got := DefaultKinds().Known().Tasks
	if !reflect.DeepEqual(got, config.BuiltinTasks()) {
		t.Errorf("families' tasks %v, want %v", got, config.BuiltinTasks())
	}
	if err := DefaultKinds().Families.Register(builtinLike{}); err == nil {
		t.Error("a second family for task movielens was accepted")
	}
}

type builtinLike struct{ family.Family }

func (builtinLike) Tasks() map[string]config.TaskShape {
	return map[string]config.TaskShape{"movielens": {}}
}

// recordingFamily is a third task family registered from outside: it
// records what the verbs hand it.
type recordingFamily struct {
	family.Family // the steps this test does not call
	ran, planned  []string
}

func (f *recordingFamily) Tasks() map[string]config.TaskShape {
	return map[string]config.TaskShape{"convqa": {Datasets: []string{"convqa"}}}
}

func (f *recordingFamily) Execute(_ context.Context, env family.Env, run family.Run) (family.Result, error) {
	f.ran = append(f.ran, run.Dir)
	fmt.Fprintf(env.Out, "run %s: answered\n", run.Config.Name)
	return family.Result{Planned: 1, Done: 1}, nil
}

func (f *recordingFamily) Plan(_ context.Context, _ family.Env, cfg *config.Config, _ string, _ family.PlanOptions) (planner.Plan, error) {
	f.planned = append(f.planned, cfg.Name)
	return planner.Plan{Config: cfg.Name}, nil
}

// TestThirdFamilyRunsThroughTheVerbs: a family registered in IO.Kinds
// makes its task valid in a config, and bench run and bench plan hand the
// work to it, with no change to the command line.
func TestThirdFamilyRunsThroughTheVerbs(t *testing.T) {
	fam := &recordingFamily{}
	kinds := DefaultKinds()
	if err := kinds.Families.Register(fam); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "qa.yaml")
	os.WriteFile(cfg, []byte("name: qa\ntask: convqa\nbackbone: {kind: sim}\nmethods: [{kind: truncation}]\n"), 0o644)
	out := t.TempDir()
	cli := func(args ...string) (string, int) {
		var o, e bytes.Buffer
		code := Main(t.Context(), args, IO{Out: &o, Err: &e, Getenv: func(string) string { return "" }, Kinds: kinds})
		return o.String() + e.String(), code
	}
	if log, code := cli("run", "-c", cfg, "--out", out); code != 0 || !strings.Contains(log, "run qa: answered") {
		t.Fatalf("run: exit %d\n%s", code, log)
	}
	if want := []string{filepath.Join(out, "qa")}; !slices.Equal(fam.ran, want) {
		t.Errorf("family ran %v, want %v", fam.ran, want)
	}
	if log, code := cli("plan", "-c", cfg, "--out", out, "--json"); code != 0 || !slices.Equal(fam.planned, []string{"qa"}) {
		t.Errorf("plan: exit %d, planned %v\n%s", code, fam.planned, log)
	}
	// Without the family the task is unknown, named as a config error.
	var e bytes.Buffer
	if code := Main(t.Context(), []string{"run", "-c", cfg, "--out", out}, IO{Out: io.Discard, Err: &e, Getenv: func(string) string { return "" }}); code == 0 || !strings.Contains(e.String(), "convqa") {
		t.Errorf("unregistered task: exit %d\n%s", code, e.String())
	}
}
