// Package testfixture finds, for tests only, the real sample data that CI
// places in a shared/ folder beside the checkout (shared/fixtures/...), and
// words the skip a test takes when it is absent. The files are excerpts of
// the official releases, which the project does not ship for licence
// reasons, so a user's clone never has them: the skip says which data is
// missing and how to get it, in the user's terms.
package testfixture

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// what names each fixture folder for a reader who has never seen it.
var what = map[string]string{
	"pramem":                        "OmniBehavior sample (PraMem)",
	"interop":                       "published interchange schemas (Inspect log, Every Eval Ever)",
	"memqa":                         "memory-QA sample",
	"envs/agentgym":                 "AgentGym server reply examples",
	"envs/alfworld":                 "ALFWorld evaluation games",
	"envs/apibank":                  "API-Bank sample",
	"envs/fever":                    "FEVER sample",
	"envs/hotpotqa":                 "HotpotQA sample",
	"envs/lifelongagentbench":       "LifelongAgentBench DB-bench sample",
	"envs/lifemem_trainset_samples": "LifeMem training-trajectory sample",
	"envs/mind2web":                 "Mind2Web task records",
	"envs/miniwob":                  "MiniWoB++ task pages",
	"envs/scienceworld":             "ScienceWorld task list",
	"envs/taubench":                 "τ-bench domain data",
	"envs/toolqa":                   "ToolQA sample",
	"envs/webshop":                  "WebShop catalogue sample",
}

// Describe names the fixture at rel (slash-separated, under
// shared/fixtures) in words, from its first one or two folders.
func Describe(rel string) string {
	parts := strings.Split(strings.Trim(rel, "/"), "/")
	if len(parts) >= 2 {
		if w, ok := what[parts[0]+"/"+parts[1]]; ok {
			return w
		}
	}
	if w, ok := what[parts[0]]; ok {
		return w
	}
	return "sample data"
}

// Message is the skip reason for a test that needs shared/fixtures/rel.
func Message(rel string) string {
	rel = strings.Trim(filepath.ToSlash(rel), "/")
	return fmt.Sprintf("needs the %s (fixtures/%s): real sample data from the official repository, "+
		"not shipped with this repository for licence reasons; CI provides it in a shared/fixtures/ folder "+
		"beside the checkout (../shared/fixtures/%s), so place a copy of the official files there to run this test",
		Describe(rel), rel, rel)
}

// Path returns where shared/fixtures/rel is for the test running in the
// current directory: beside the checkout (../shared, CI's layout) or, in a
// copy that carries it inside the repository, shared/. The result may not
// exist; when neither does, it is the beside-the-checkout path.
func Path(rel string) string {
	root := moduleRoot()
	sub := filepath.FromSlash(strings.Trim(rel, "/"))
	beside := filepath.Join(root, "..", "shared", "fixtures", sub)
	if _, err := os.Stat(beside); err == nil {
		return beside
	}
	inside := filepath.Join(root, "shared", "fixtures", sub)
	if _, err := os.Stat(inside); err == nil {
		return inside
	}
	return beside
}

// Need returns Path(rel) and skips tb with Message(rel) unless every one of
// inside (paths relative to it; none means the folder itself) exists.
func Need(tb testing.TB, rel string, inside ...string) string {
	tb.Helper()
	dir := Path(rel)
	if len(inside) == 0 {
		inside = []string{"."}
	}
	for _, p := range inside {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			tb.Skip(Message(rel))
		}
	}
	return dir
}

// moduleRoot is the nearest folder at or above the working directory that
// holds go.mod (tests run in their package's folder).
func moduleRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return wd
		}
	}
}
