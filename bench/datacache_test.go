package bench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Shards share one --out, and with it the embedded data cache: four shards
// started at once, five times over, each on a fresh --out, all finish and
// merge. (Before, a shard that built the synthetic data second removed the
// dataset a faster shard was reading: "movies.dat missing".)
func TestShardsShareOneOut(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	cfg := filepath.Join(t.TempDir(), "sh.yaml")
	os.WriteFile(cfg, []byte(`name: sh
task: movielens
dataset: {name: movielens, max_users: 4, test_per_user: 2}
backbone: {kind: sim}
methods:
  - {name: truncation, kind: truncation, history_tokens: 1000}
report: {bootstrap: 5}
`), 0o644)
	for trial := range 5 {
		out := t.TempDir()
		var wg sync.WaitGroup
		errs := make([]string, 4)
		for i := range 4 {
			wg.Go(func() {
				args := strings.Join([]string{"run", "-c", cfg, "--out", out, "--shard", fmt.Sprintf("%d/4", i)}, "\x1f")
				cmd := exec.Command(os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), childEnv+"="+args)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				if err := cmd.Run(); err != nil {
					errs[i] = fmt.Sprintf("shard %d/4: %v\n%s", i, err, stderr.String())
				}
			})
		}
		wg.Wait()
		for _, e := range errs {
			if e != "" {
				t.Errorf("trial %d: %s", trial, e)
			}
		}
		if t.Failed() {
			return
		}
		if log, code := runCLI(t, "merge", "--no-report", filepath.Join(out, "sh")); code != 0 {
			t.Fatalf("trial %d: merge exit %d:\n%s", trial, code, log)
		}
		// One dataset, no leftovers of the builds that lost.
		ents, _ := os.ReadDir(filepath.Join(out, ".data"))
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".") {
				t.Errorf("trial %d: .data holds %s, left over from a build", trial, e.Name())
			}
		}
	}
}
