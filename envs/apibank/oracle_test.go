package apibank

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/testfixture"
)

var fixtureDir = testfixture.Path("envs/apibank")

func openFixture(t testing.TB) *Suite {
	t.Helper()
	testfixture.Need(t, "envs/apibank")
	s, err := Open(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestOracleFixture(t *testing.T) {
	s := openFixture(t)
	res, err := envs.Check(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("apibank oracle on fixtures: %d tasks, %d passed, %d failed, %.2fs", res.Tasks, res.Passed, res.Failed, res.Seconds)
	for _, sk := range s.Skipped() {
		t.Logf("skipped file %s: %s", sk.File, sk.Reason)
	}
	if res.Tasks != 261 || res.Passed != 244 || len(res.Excluded) != 17 {
		t.Errorf("tasks %d passed %d excluded %d, want 261, 244 and 17", res.Tasks, res.Passed, len(res.Excluded))
	}
	ids := append([]string(nil), res.Failing...)
	sort.Strings(ids)
	for _, id := range ids {
		t.Errorf("unexpected oracle failure %s: %s", id, res.Reasons[id])
	}
	for id, why := range res.Excluded {
		t.Logf("excluded %s: %s", id, why)
	}
}

// BenchmarkOracleFixture times a full oracle replay of the official dialogues.
func BenchmarkOracleFixture(b *testing.B) {
	s := openFixture(b)
	for b.Loop() {
		if _, err := envs.Check(context.Background(), s); err != nil {
			b.Fatal(err)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(dir + "/missing"); err == nil {
		t.Error("missing directory accepted")
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), SpecsFile) {
		t.Errorf("empty directory: %v", err)
	}
	bad := `{"role": "API", "api_name": "Nope", "param_dict": {}, "result": {}}`
	for _, tc := range []struct{ file, body, want string }{
		{"lv1-lv2-samples/x/a-level-1-1.jsonl", "{not json", "a-level-1-1.jsonl:1"},
		{"lv1-lv2-samples/x/a-level-1-1.jsonl", `{"role": "Robot"}`, "field role"},
		{"lv1-lv2-samples/x/a-level-1-1.jsonl", bad, "unknown API \"Nope\""},
	} {
		d := t.TempDir()
		write := func(name, body string) {
			p := filepath.Join(d, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		specs, _ := embeddedData.ReadFile("embedded/" + SpecsFile)
		write(SpecsFile, string(specs))
		write("init_database/Account.json", "{}")
		write(tc.file, tc.body)
		if _, err := Open(d); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", tc.body, err, tc.want)
		}
	}
}

func TestFetchSpec(t *testing.T) {
	specs := FetchSpec()
	if len(specs) != 18+264 {
		t.Errorf("%d files, want 282", len(specs))
	}
	for _, s := range specs {
		if len(s.SHA256) != 64 || !strings.HasPrefix(s.URL, "https://raw.githubusercontent.com/AlibabaResearch/DAMO-ConvAI/"+upstreamCommit+"/api-bank/") {
			t.Errorf("bad spec %+v", s)
		}
	}
}
