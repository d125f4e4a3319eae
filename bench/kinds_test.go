package bench

import (
	"slices"
	"testing"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/lifelong"
)

// TestDefaultKindsValidateAsBuiltIns: the built-in registries hand config
// validation exactly the lists it uses without them, so a run with no
// registered kinds keeps every message unchanged.
func TestDefaultKindsValidateAsBuiltIns(t *testing.T) {
	for _, k := range []*Kinds{nil, {}, DefaultKinds()} {
		got := k.Known()
		if !slices.Equal(got.Methods, config.MethodKinds()) {
			t.Errorf("prediction kinds %v, want %v", got.Methods, config.MethodKinds())
		}
		if want := []string{"react", "synapse", "expel", "autoskill", "lifemem"}; !slices.Equal(got.Lifelong.Methods, want) {
			t.Errorf("agent kinds %v, want %v", got.Lifelong.Methods, want)
		}
		if want := append(lifelong.PaperOrder(), lifelong.PaperOOD()...); !slices.Equal(got.Lifelong.Envs, want) {
			t.Errorf("environments %v, want %v", got.Lifelong.Envs, want)
		}
	}
}
