package lifememrel

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConstructionTemplatesStandIn reads the construction templates from
// the stand-in release (same variables and fields as the real
// memory/prompts.py) and compares them with a golden file (-update).
func TestConstructionTemplatesStandIn(t *testing.T) {
	dir, s := pinnedStandIn(t, LifeMem)
	tr, err := Open(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	tm, err := ConstructionTemplates(Trees{NameLifeMem: tr})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tm.Label, "BITHLP/LifeMem@8a01a70 memory/prompts.py") {
		t.Errorf("label %q", tm.Label)
	}
	got, err := json.MarshalIndent(tm.Text, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "golden", "lifemem-construction.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if string(got) != string(want) {
		t.Errorf("templates differ from %s:\n%s", golden, got)
	}
}

// TestConstructionTemplatesFields: a template whose fields differ from
// what the release formats it with, or a missing one, is an error naming
// the variable; without the source it is an error too.
func TestConstructionTemplatesFields(t *testing.T) {
	if _, err := ConstructionTemplates(Trees{}); err == nil {
		t.Error("no tree: no error")
	}
	base, err := os.ReadFile(filepath.Join("testdata", "standin", NameLifeMem, "memory", "prompts.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, from, to, want string }{
		{"extra field", "Earlier: {summary}", "Earlier: {summary} {extra}", "get_summary's fields"},
		{"missing field", "Avoid `{old_cluster_id}`.", "Avoid it.", "get_split's fields"},
		{"missing variable", "get_summary = ", "summary_prompt = ", "get_summary"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range LifeMem.Files {
				src := filepath.Join("testdata", "standin", NameLifeMem, filepath.FromSlash(f.Path))
				b, err := os.ReadFile(src)
				if err != nil {
					t.Fatal(err)
				}
				if f.Path == lifememBuildPrompts {
					if !strings.Contains(string(base), tc.from) {
						t.Fatalf("stand-in lacks %q", tc.from)
					}
					b = []byte(strings.Replace(string(base), tc.from, tc.to, 1))
				}
				dst := filepath.Join(dir, filepath.FromSlash(f.Path))
				if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(dst, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, s := pinnedStandIn(t, LifeMem)
			for i, f := range s.Files {
				b, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
				s.Files[i].SHA256, s.Files[i].Size = digest(b), int64(len(b))
			}
			tr, err := Open(dir, s)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ConstructionTemplates(Trees{NameLifeMem: tr}); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want it to name %q", err, tc.want)
			}
		})
	}
}
