package lifelong

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/memharness/memharness/runrecord"
)

// TestInfoRecordSchema: run.json carries the whole Config, and a reader
// that decodes it as runrecord.LifelongRunConfig (the reports do) gets every
// field it needs back: the two share names, so a renamed JSON key in
// Config fails here rather than leaving a report empty.
func TestInfoRecordSchema(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{
		Stream: "random", Envs: []string{"alfworld", "webshop"}, OOD: []string{"fever"}, SelfLearn: true, Batch: 5,
		Orders: 3, NamedOrders: []string{"random", "buffer"}, Order: 2,
		Methods: []MethodSpec{
			{Name: "react", Kind: "react"},
			{Name: "lm", Kind: "lifemem", TopK: 3, SplitSize: 40, Tau: 0.9, NoSkills: true, NoTrajectories: true},
		},
	}
	info := Info{Name: "x", Backbone: "sim", Model: "m", Config: cfg,
		LeftOut:  []LeftOut{{Env: "miniwob", Reason: "no chromium", Install: "bash scripts/ci-chromium.sh"}},
		TestSets: []TestSetRecord{{Env: "alfworld", Tasks: 3, Status: "embedded"}}}
	if err := WriteInfo(dir, info); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, runrecord.LifelongDir, runrecord.LifelongInfoFile))
	if err != nil {
		t.Fatal(err)
	}
	var got runrecord.LifelongInfo[runrecord.LifelongRunConfig]
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := runrecord.LifelongRunConfig{Stream: cfg.Stream, Envs: cfg.Envs, OOD: cfg.OOD, SelfLearn: true,
		Orders: cfg.Orders, NamedOrders: cfg.NamedOrders, Order: cfg.Order}
	for _, m := range cfg.Methods {
		want.Methods = append(want.Methods, runrecord.LifelongMethodRecord{Name: m.Name, Kind: m.Kind, TopK: m.TopK,
			SplitSize: m.SplitSize, Tau: m.Tau, NoSkills: m.NoSkills, NoTrajectories: m.NoTrajectories})
	}
	if !reflect.DeepEqual(got.Config, want) {
		t.Errorf("config as read:\n%+v\nwant\n%+v", got.Config, want)
	}
	if got.Version != InfoVersion || got.Name != "x" || !reflect.DeepEqual(got.LeftOut, info.LeftOut) || !reflect.DeepEqual(got.TestSets, info.TestSets) {
		t.Errorf("info as read: %+v", got)
	}
}

// TestMethodRecordFields: every knob of MethodSpec reaches the reports: the
// record type lists the same JSON keys.
func TestMethodRecordFields(t *testing.T) {
	keys := func(v any) []string {
		var out []string
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			out = append(out, rt.Field(i).Tag.Get("json"))
		}
		return out
	}
	if a, b := keys(MethodSpec{}), keys(runrecord.LifelongMethodRecord{}); !reflect.DeepEqual(a, b) {
		t.Errorf("MethodSpec writes %v, the record reads %v", a, b)
	}
}
