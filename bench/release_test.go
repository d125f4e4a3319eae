package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/backbone"
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/methods/pramem"
	"github.com/memharness/memharness/releasepacks/pramemrel"
	"github.com/memharness/memharness/runrecord"
	"github.com/sugarme/tokenizer/pretokenizer"
)

// standinPack is the stand-in release pack of package pramemrel (our own
// sentences in the release's layout) and its pins.
func standinPack(t *testing.T) (string, []pramemrel.File, map[string][]byte) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "releasepacks", "pramemrel", "testdata", "standin"))
	if err != nil {
		t.Fatal(err)
	}
	pins := make([]pramemrel.File, len(pramemrel.Files))
	files := map[string][]byte{}
	for i, f := range pramemrel.Files {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		pins[i] = pramemrel.File{Path: f.Path, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(b))}
		files["/"+f.Path] = b
	}
	return dir, pins, files
}

func TestDataFetchPraMemRelease(t *testing.T) {
	_, pins, files := standinPack(t)
	srv, hits := fakeServer(t, files)
	cache := t.TempDir()
	var out, errb strings.Builder
	stdio := IO{Out: &out, Err: &errb, Getenv: func(string) string { return "" }}
	if err := dataRelease(t.Context(), stdio, "fetch", cache, srv.URL+"/", "", pins); err != nil {
		t.Fatalf("fetch: %v\n%s%s", err, out.String(), errb.String())
	}
	got, err := os.ReadFile(filepath.Join(cache, "pramem-release", "utils", "prompts.py"))
	if err != nil || string(got) != string(files["/utils/prompts.py"]) {
		t.Fatalf("fetched utils/prompts.py: %v", err)
	}
	// A second fetch reuses the verified files.
	if err := dataRelease(t.Context(), stdio, "fetch", cache, srv.URL+"/", "", pins); err != nil {
		t.Fatal(err)
	}
	if n := hits("/prompt_builder.py"); n != 1 {
		t.Errorf("prompt_builder.py downloaded %d times", n)
	}
	out.Reset()
	if err := dataRelease(t.Context(), stdio, "verify", cache, "", "", pins); err != nil {
		t.Fatalf("verify: %v\n%s", err, out.String())
	}

	// The real pins refuse the stand-ins: the error names the file.
	bad := t.TempDir()
	err = dataRelease(t.Context(), stdio, "fetch", bad, srv.URL+"/", "", pramemrel.Files)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(bad, "pramem-release", "prompt_builder.py")) {
		t.Errorf("fetch against the real pins: %v", err)
	}
	// A tampered local copy (e.g. a checkout at another commit) fails
	// verification naming the file.
	if err := os.WriteFile(filepath.Join(cache, "pramem-release", "config.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	err = dataRelease(t.Context(), stdio, "verify", t.TempDir(), "", filepath.Join(cache, "pramem-release"), pins)
	if err == nil || !strings.Contains(out.String()+err.Error(), "config.py") || !strings.Contains(err.Error(), "bench data fetch pramem-release") {
		t.Errorf("verify of a tampered copy: %v\n%s", err, out.String())
	}
}

const releaseConfig = `name: rel
task: omnibehavior
prompts: PROMPTS
prompt: {release_dir: PACK}
dataset: {name: omnibehavior, max_users: 2, test_per_user: 3, synthetic: {users: 2, seed: 5}}
backbone: {kind: openai, model: m, base_urls: [URL], max_retries: 0}
eval: {concurrency: 2}
methods:
  - {name: truncation, kind: truncation}
  - {name: pramem, kind: pramem, pramem: {rounds: 2, pool_size: 4}}
report: {bootstrap: 0}
`

// recorder is an OpenAI-compatible server that answers "Yes" and keeps
// every request body.
type recorder struct {
	mu     sync.Mutex
	bodies []map[string]any
}

func (rc *recorder) server(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(b, &body); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		rc.mu.Lock()
		rc.bodies = append(rc.bodies, body)
		rc.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Yes"}}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func content(body map[string]any) string {
	msgs, _ := body["messages"].([]any)
	if len(msgs) != 1 {
		return ""
	}
	m, _ := msgs[0].(map[string]any)
	s, _ := m["content"].(string)
	return s
}

// TestRunWithReleasePrompts runs PraMem and truncation against a recording
// endpoint with a stand-in pack: every prompt is the pack's text assembled
// by the harness, practice calls carry max_completion_tokens, evaluation
// calls no cap, no call a stream field; the manifest and the report name
// the pack.
func TestRunWithReleasePrompts(t *testing.T) {
	pack, pins, _ := standinPack(t)
	var rc recorder
	srv := rc.server(t)
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "rel.yaml")
	body := strings.NewReplacer("PROMPTS", "release", "PACK", pack, "URL", srv.URL).Replace(releaseConfig)
	if err := os.WriteFile(cfgPath, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfigForTest(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	stdio := IO{Out: &out, Err: &errb, Getenv: func(string) string { return "" }}
	if _, err := executeRun(t.Context(), stdio, family.Run{Config: cfg, ConfigPath: cfgPath, Dir: filepath.Join(dir, "rel"), Out: dir, Report: true, ReleasePins: pins}); err != nil {
		t.Fatalf("run: %v\n%s", err, errb.String())
	}
	if strings.Contains(errb.String(), "not comparable") {
		t.Errorf("release run printed the own-prompts warning:\n%s", errb.String())
	}
	kinds := map[string]int{}
	for _, b := range rc.bodies {
		if _, ok := b["stream"]; ok {
			t.Fatalf("a request carries a stream field: %v", b)
		}
		c := content(b)
		switch {
		case strings.Contains(c, "---- stand-in trial ----"):
			kinds["trial"]++
			if b["max_completion_tokens"] != 16000.0 || b["max_tokens"] != nil {
				t.Errorf("trial call caps: max_completion_tokens %v max_tokens %v", b["max_completion_tokens"], b["max_tokens"])
			}
			if !strings.Contains(c, "## Stand-in task 1 ##\nStand-in clock ") || !strings.Contains(c, "# Stand-in memory\n\n## Stand-in patterns\n(empty)") {
				t.Errorf("trial prompt not assembled from the pack:\n%s", c)
			}
		case strings.HasPrefix(c, "Stand-in reflect."):
			kinds["reflect"]++
			if !strings.Contains(c, "TRUE: Stand-in answers follow; unstated means No. \n[Answer 1]at ") {
				t.Errorf("reflect prompt label:\n%s", c)
			}
		case strings.HasPrefix(c, "Stand-in review."):
			kinds["review"]++
		case strings.HasPrefix(c, `Stand-in role line with "quotes" and {{braces}}.`):
			kinds["eval"]++
			if b["max_tokens"] != nil || b["max_completion_tokens"] != nil {
				t.Errorf("evaluation call carries a cap: %v", b)
			}
			if !strings.Contains(c, "## Task\nStand-in: will they") || !strings.Contains(c, "\n## Part B: history\nHistory guide line:\n") {
				t.Errorf("eval prompt not assembled from the pack:\n%s", c)
			}
			if strings.HasSuffix(c, "\nNow answer above.") {
				kinds["eval+memory"]++
				if !strings.Contains(c, "\nAnswer:\n\nStand-in: you may use this memory.\n# Stand-in memory") {
					t.Errorf("memory block not after the question:\n%s", c)
				}
			}
		default:
			t.Errorf("a prompt the pack did not shape:\n%.300s", c)
		}
	}
	t.Logf("%d requests: %v", len(rc.bodies), kinds)
	for _, k := range []string{"trial", "reflect", "review", "eval", "eval+memory"} {
		if kinds[k] == 0 {
			t.Errorf("no %s call among %d requests (%v)", k, len(rc.bodies), kinds)
		}
	}
	man, err := runrecord.ReadManifest(filepath.Join(dir, "rel", runrecord.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if man.Prompts != "release" || !strings.HasPrefix(man.PromptsPack, "github.com/icip-cas/PraMem@") || len(man.PromptsSHA256) != len(pramemrel.Files) {
		t.Errorf("manifest prompts %q pack %q digests %d", man.Prompts, man.PromptsPack, len(man.PromptsSHA256))
	}
	idx, err := os.ReadFile(filepath.Join(dir, "rel", "report", "index.md"))
	if err != nil || !strings.Contains(string(idx), "prompts: authors' release github.com/icip-cas/PraMem@") {
		t.Errorf("report index does not name the pack (%v):\n%.400s", err, idx)
	}
	// Per stage: the release's prompts and request settings, the release's
	// yes/no parser at evaluation and its practice parsers.
	src := runrecord.FromSource
	for key, want := range map[string]runrecord.Provenance{
		"truncation/predict":   {Prompt: src, Sampling: src, Parser: src},
		"pramem/predict":       {Prompt: src, Sampling: src, Parser: src},
		"pramem/trial":         {Prompt: src, Sampling: src, Parser: runrecord.FromNone},
		"pramem/review":        {Prompt: src, Sampling: src, Parser: src},
		"pramem/practice_draw": {Prompt: runrecord.FromNone, Sampling: runrecord.FromOwn, Parser: runrecord.FromNone},
	} {
		if got := man.Provenance[key]; got != want {
			t.Errorf("provenance %s = %+v, want %+v", key, got, want)
		}
	}
	if !strings.Contains(string(idx), "provenance: pramem/") || !strings.Contains(string(idx), "draw: prompt none, sampling own, parser none") {
		t.Errorf("report title does not carry the provenance:\n%.600s", idx)
	}
	if p := man.Provenance["pramem/practice_input"]; p.Prompt != src || !strings.Contains(p.Note, "text-question") {
		t.Errorf("provenance pramem/practice_input = %+v, want the release's prompt and a note on text-question targets", p)
	}
	if len(man.Provenance) != 2+len(pramem.Stages())+2 {
		t.Errorf("provenance of %d stages: %v", len(man.Provenance), man.Provenance)
	}
}

// TestOwnPromptsWarnOnRealEndpoint: own wording against a real endpoint
// warns that the numbers are not the paper's.
func TestOwnPromptsWarnOnRealEndpoint(t *testing.T) {
	var rc recorder
	srv := rc.server(t)
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "own.yaml")
	body := strings.NewReplacer("PROMPTS", "own", "prompt: {release_dir: PACK}\n", "", "URL", srv.URL, "rounds: 2", "rounds: 1").Replace(releaseConfig)
	if err := os.WriteFile(cfgPath, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := runCLI(t, "run", "-c", cfgPath, "--out", dir, "--no-report")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if !strings.Contains(out, "not comparable with the paper's") {
		t.Errorf("no warning:\n%s", out)
	}
	man, err := runrecord.ReadManifest(filepath.Join(dir, "rel", runrecord.ManifestFile))
	if err != nil || man.Prompts != "own" {
		t.Errorf("manifest prompts %q (%v)", man.Prompts, err)
	}
}

// TestReleasePromptsMissingPack names the fetch command.
func TestReleasePromptsMissingPack(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "rel.yaml")
	body := strings.NewReplacer("PROMPTS", "release", "PACK", filepath.Join(dir, "nowhere"), "URL", "http://127.0.0.1:1").Replace(releaseConfig)
	os.WriteFile(cfgPath, []byte(body), 0o644)
	out, code := runCLI(t, "run", "-c", cfgPath, "--out", dir)
	if code == 0 || !strings.Contains(out, "bench data fetch pramem-release") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func loadConfigForTest(path string) (*config.Config, error) {
	return config.Options{Getenv: func(string) string { return "" }}.Load(path, nil)
}

// TestRunMovieLensWithReleasePrompts: MovieLens records and the rating
// prompt come from the pack too.
func TestRunMovieLensWithReleasePrompts(t *testing.T) {
	pack, pins, _ := standinPack(t)
	var rc recorder
	srv := rc.server(t)
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "ml.yaml")
	body := `name: ml
task: movielens
prompts: release
prompt: {release_dir: ` + pack + `}
dataset: {name: movielens, max_users: 2, test_per_user: 2, synthetic: {users: 2, movies: 1500, seed: 7}}
backbone: {kind: openai, model: m, base_urls: [` + srv.URL + `], max_retries: 0}
eval: {max_invalid_rate: 1} # the stub answers are not ratings; this test reads the prompts
methods:
  - {name: truncation, kind: truncation}
report: {bootstrap: 0}
`
	if err := os.WriteFile(cfgPath, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfigForTest(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	var errb strings.Builder
	stdio := IO{Out: io.Discard, Err: &errb, Getenv: func(string) string { return "" }}
	if _, err := executeRun(t.Context(), stdio, family.Run{Config: cfg, ConfigPath: cfgPath, Dir: filepath.Join(dir, "ml"), Out: dir, ReleasePins: pins}); err != nil {
		t.Fatalf("run: %v\n%s", err, errb.String())
	}
	if len(rc.bodies) == 0 {
		t.Fatal("no requests")
	}
	for _, b := range rc.bodies {
		c := content(b)
		if !strings.HasPrefix(c, "Stand-in film rater role line.\n## Part A: profile\n") || !strings.Contains(c, "\n  seen: Stand-in film ") ||
			!strings.Contains(c, "\n  did: Stand-in rating ") || !strings.Contains(c, "\nScene details:\nStand-in film ") || !strings.HasSuffix(c, "\nAnswer:") {
			t.Fatalf("rating prompt not assembled from the pack:\n%s", c)
		}
	}
}

// TestRunWithTokenizer: a tokenizer.json counts the windows and the
// manifest names it; without one the manifest names the estimate.
func TestRunWithTokenizer(t *testing.T) {
	vocab := map[string]int{}
	for b := 0; b < 256; b++ {
		vocab[pretokenizer.BytesChar[uint8(b)]] = b
	}
	tok, _ := json.Marshal(map[string]any{
		"normalizer": map[string]any{"type": "NFC"},
		"pre_tokenizer": map[string]any{"type": "Sequence", "pretokenizers": []any{
			map[string]any{"type": "Split", "pattern": map[string]any{"Regex": `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`}, "behavior": "Isolated", "invert": false},
			map[string]any{"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": false, "use_regex": false},
		}},
		"model": map[string]any{"type": "BPE", "vocab": vocab, "merges": []string{}},
	})
	dir := t.TempDir()
	tokPath := filepath.Join(dir, "tokenizer.json")
	if err := os.WriteFile(tokPath, tok, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, withTok := range []bool{false, true} {
		cfgPath := filepath.Join(dir, "tok.yaml")
		body := "name: tok\ntask: omnibehavior\ndataset: {name: omnibehavior, max_users: 2, test_per_user: 3, synthetic: {users: 2, seed: 5}}\n" +
			"backbone: {kind: sim}\nmethods: [{kind: truncation, history_tokens: 3000}]\nreport: {bootstrap: 0}\n"
		if withTok {
			body += "prompt: {tokenizer: " + tokPath + "}\n"
		}
		os.WriteFile(cfgPath, []byte(body), 0o644)
		out := filepath.Join(dir, fmt.Sprint(withTok))
		log, code := runCLI(t, "run", "-c", cfgPath, "--out", out, "--no-report")
		if code != 0 {
			t.Fatalf("exit %d:\n%s", code, log)
		}
		man, err := runrecord.ReadManifest(filepath.Join(out, "tok", runrecord.ManifestFile))
		if err != nil {
			t.Fatal(err)
		}
		if withTok != strings.HasPrefix(man.Tokenizer, "tokenizer.json sha256:") || !withTok && man.Tokenizer != backbone.ApproxTokenizer {
			t.Errorf("tokenizer %v: manifest names %q", withTok, man.Tokenizer)
		}
		samples, err := runrecord.ReadSamples(filepath.Join(out, "tok", runrecord.SamplesFile))
		if err != nil || len(samples) == 0 {
			t.Fatal(err)
		}
		t.Logf("tokenizer %v: first sample shows %d history records", withTok, samples[0].HistoryRecords)
	}
}
