package behavior

// Byte-for-byte comparison of MovieLens rating prompts assembled from the
// authors' release pack with build_movie_prompt's output on the same
// records (the OmniBehavior and PraMem prompts are compared in
// methods/pramem/release_compare_test.go). Skipped without a local pack:
//
//  1. MEMHARNESS_PRAMEM_RELEASE=<pack> MEMHARNESS_PRAMEM_ML_CASES=<dir> \
//     go test ./family/behavior -run TestReleaseMovieLensCapture
//     writes <dir>/ml_cases.json: for a few instances of the synthetic
//     MovieLens default, the profile, the history and the target as
//     release-format records ({timestamp, type, context: {movie_title,
//     release_year, genres}, action: [{type: "rating", rating}]}) and the
//     budgets 8000 and 32000;
//  2. in a scratch copy of the release (never in this repository), run a
//     script that writes <dir>/ml_capture.json: {id+"/"+budget:
//     build_movie_prompt(profile, history, target, {"type": "multi_class",
//     "field": "movie_rating"}, max_history_tokens=budget)["prompt"]};
//  3. run step 1 again: it compares every prompt.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/llm/tokens"
	"github.com/memharness/memharness/methods/predict"
)

type mlRecord struct {
	Timestamp string            `json:"timestamp"`
	Type      string            `json:"type"`
	Context   map[string]string `json:"context"`
	Action    []map[string]any  `json:"action"`
}

func mlRecordOf(e behavior.Event) mlRecord {
	r := mlRecord{Timestamp: e.Time, Type: e.RawScene, Context: map[string]string{
		"movie_title": e.Attrs["title"], "release_year": e.Attrs["year"], "genres": e.Attrs["genre"]}, Action: []map[string]any{}}
	if v, ok := e.Outcomes["movie_rating"]; ok {
		r.Action = append(r.Action, map[string]any{"type": "rating", "rating": int(v)})
	}
	return r
}

func TestReleaseMovieLensCapture(t *testing.T) {
	pack, dir := os.Getenv("MEMHARNESS_PRAMEM_RELEASE"), os.Getenv("MEMHARNESS_PRAMEM_ML_CASES")
	if pack == "" || dir == "" {
		t.Skip("set MEMHARNESS_PRAMEM_RELEASE and MEMHARNESS_PRAMEM_ML_CASES (see the comment at the top of this file)")
	}
	out := t.TempDir()
	cfgPath := filepath.Join(out, "ml.yaml")
	body := "name: ml\ntask: movielens\nprompts: release\nprompt: {release_dir: " + pack + "}\n" +
		"dataset: {name: movielens, max_users: 2, test_per_user: 3, synthetic: {users: 2, movies: 1500, seed: 7}}\n" +
		"backbone: {kind: sim}\nmethods: [{kind: truncation}]\n"
	if err := os.WriteFile(cfgPath, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Options{Getenv: func(string) string { return "" }}.Load(cfgPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, ps, err := preparePrompts(cfg, config.Known{}, func(string) string { return "" }, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	env := family.Env{Out: os.Stdout, Err: os.Stderr, Getenv: func(string) string { return "" }}
	data, err := loadTask(env, cfg, out)
	if err != nil {
		t.Fatal(err)
	}
	ps.rewriteData(data.Users)
	p, err := predict.LoadNamedPrompts(cfg.Prompt.Language, cfg.Prompt.Templates)
	if err != nil {
		t.Fatal(err)
	}
	budgets := []int{8000, 32000}
	capPath := filepath.Join(dir, "ml_capture.json")
	b, err := os.ReadFile(capPath)
	if os.IsNotExist(err) {
		type mlCase struct {
			ID      string     `json:"id"`
			Profile string     `json:"profile"`
			Budgets []int      `json:"budgets"`
			History []mlRecord `json:"history"`
			Target  mlRecord   `json:"target"`
		}
		var cases []mlCase
		for _, u := range data.Users {
			for _, in := range u.Instances {
				c := mlCase{ID: in.ID, Profile: in.Profile, Budgets: budgets, Target: mlRecordOf(in.Target)}
				for _, e := range in.History {
					c.History = append(c.History, mlRecordOf(e))
				}
				cases = append(cases, c)
			}
		}
		out, _ := json.MarshalIndent(cases, "", " ")
		if err := os.WriteFile(filepath.Join(dir, "ml_cases.json"), out, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Skipf("wrote %d cases to %s; now capture %s with the release and run again", len(cases), filepath.Join(dir, "ml_cases.json"), capPath)
	}
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]string
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	same, n := 0, 0
	for _, u := range data.Users {
		for _, in := range u.Instances {
			for _, budget := range budgets {
				w, ok := want[in.ID+"/"+strconv.Itoa(budget)]
				if !ok {
					t.Fatalf("no captured prompt for %s at %d", in.ID, budget)
				}
				win, err := p.SelectWindow(tokens.Approx{}, in.History, budget)
				if err != nil {
					t.Fatal(err)
				}
				hist, err := p.HistoryBlock(in.History[win.Start:], win.Tokens)
				if err != nil {
					t.Fatal(err)
				}
				got, err := p.Question(in, hist)
				if err != nil {
					t.Fatal(err)
				}
				n++
				if got == w {
					same++
				} else if n-same <= 2 {
					i := 0
					for i < len(got) && i < len(w) && got[i] == w[i] {
						i++
					}
					t.Errorf("%s at %d differs at byte %d:\n got …%q\nwant …%q", in.ID, budget, i, got[max(0, i-40):min(len(got), i+60)], w[max(0, i-40):min(len(w), i+60)])
				}
			}
		}
	}
	t.Logf("MovieLens rating prompts: %d of %d byte-identical", same, n)
}
