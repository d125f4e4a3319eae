package conversation_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/runrecord"
)

// dirDigest is every file under dir with its contents, so a test can
// check that nothing in it changed.
func dirDigest(t *testing.T, dir string, skip string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.IsDir() {
			if p == skip {
				return filepath.SkipDir
			}
			return nil
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRescoreGradesStoredAnswers answers LoCoMo against one endpoint,
// then grades the stored answers again with a judge model at another:
// the answering endpoint is never asked again, the run's own files are
// unchanged, every answer and lexical score is carried over, only judge
// calls are recorded, the run's verdicts stand beside the new ones in the
// rescore's sensitivity table, and a second rescore (the folder removed)
// is answered from the judge's cache.
func TestRescoreGradesStoredAnswers(t *testing.T) {
	answers, judges := &recordingEndpoint{}, &recordingEndpoint{}
	aSrv, jSrv := httptest.NewServer(answers), httptest.NewServer(judges)
	t.Cleanup(aSrv.Close)
	t.Cleanup(jSrv.Close)
	getenv := func(k string) string {
		if k == "OPENAI_BASE_URL" {
			return aSrv.URL
		}
		return ""
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "loc.yaml")
	text := "name: loc\ntask: locomo\njudge: {}\nbackbone: {kind: openai, model: m, max_retries: 0}\n" +
		"methods: [{name: full, kind: long_context}, {name: rag, kind: rag, retriever: bm25, top_k: 3}]\nreport: {bootstrap: 10}\n"
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if code, log := runBench(t, context.Background(), cfg, out, getenv); code != 0 {
		t.Fatalf("run: exit %d:\n%s", code, log)
	}
	runDir := filepath.Join(out, "loc")
	before := dirDigest(t, runDir, "")
	answers.take()
	rescore := func(name string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := bench.Main(context.Background(), []string{"rescore", runDir, "--judge-kind", "openai", "--judge-model", "judge-m",
			"--judge-url", jSrv.URL, "--judge-prompt", "strict", "--name", name}, bench.IO{Out: &stdout, Err: &stderr, Getenv: getenv})
		return code, stdout.String() + stderr.String()
	}
	if code, log := rescore("strict"); code != 0 {
		t.Fatalf("rescore: exit %d:\n%s", code, log)
	}
	if n := len(answers.take()); n != 0 {
		t.Errorf("the rescore asked the answering endpoint %d times", n)
	}
	firstJudged := judges.take()
	newDir := filepath.Join(runDir, "rescore", "strict")
	after := dirDigest(t, runDir, filepath.Join(runDir, "rescore"))
	for p, b := range before {
		if after[p] != b {
			t.Errorf("the rescore changed %s", p)
		}
	}
	old, now := readSamples(t, runDir), readSamples(t, newDir)
	if len(old) != len(now) || len(now) == 0 {
		t.Fatalf("%d rescored samples, want the run's %d", len(now), len(old))
	}
	judged := 0
	distinct := map[string]bool{} // a judge request is keyed by question and answer: one call each
	for i, s := range now {
		o := old[i]
		if s.ID != o.ID || s.Pred != o.Pred || s.Raw != o.Raw || s.Scores["f1"] != o.Scores["f1"] || s.Scores["bleu1"] != o.Scores["bleu1"] ||
			s.Scores["evidence_recall"] != o.Scores["evidence_recall"] || s.PromptTokens != o.PromptTokens {
			t.Fatalf("sample %s changed beyond its verdicts:\n old %+v\n new %+v", s.ID, o, s)
		}
		if _, ok := o.Scores["judge"]; !ok {
			continue
		}
		judged++
		distinct[strings.SplitN(s.ID, "/", 2)[1]+"\x00"+s.Pred] = true
		if s.Scores["judge@original"] != o.Scores["judge"] {
			t.Errorf("%s: judge@original %v, the run's verdict %v", s.ID, s.Scores["judge@original"], o.Scores["judge"])
		}
		if _, ok := s.Scores["judge"]; !ok {
			t.Errorf("%s: not graded again", s.ID)
		}
	}
	if judged == 0 || len(firstJudged) != len(distinct) {
		t.Errorf("%d judge calls for %d judged answers (%d distinct)", len(firstJudged), judged, len(distinct))
	}
	for _, b := range firstJudged {
		if b["model"] != "judge-m" || !strings.Contains(bodyContent(b), "only when it states the gold answer's fact completely") {
			t.Fatalf("judge request not the strict judge at judge-m: %.200v", b)
		}
	}
	var usage map[string]json.RawMessage
	ub, _ := os.ReadFile(filepath.Join(newDir, runrecord.UsageFile))
	if err := json.Unmarshal(ub, &usage); err != nil {
		t.Fatal(err)
	}
	for purpose := range usage {
		if purpose != "memqa.judge.locomo" {
			t.Errorf("the rescore recorded %s calls; want judge calls only", purpose)
		}
	}
	man, err := runrecord.ReadManifest(filepath.Join(newDir, runrecord.ManifestFile))
	if err != nil || man.Finished == nil || len(man.Judges) != 1 || man.Judges[0] != "openai judge-m judge (strict prompt)" {
		t.Errorf("rescore manifest: %v judges %v", err, man.Judges)
	}
	// The BLEU-1 scores are the run's, and so is what they were tokenised with.
	if man.BLEU1Tokens != "nltk word_tokenize, untrained Punkt (own)" {
		t.Errorf("rescore manifest bleu1_tokens %q, want the run's", man.BLEU1Tokens)
	}
	sens, err := os.ReadFile(filepath.Join(newDir, "report", "judge_sensitivity.csv"))
	if err != nil || !strings.Contains(string(sens), "the run's own judge (before the rescore)") {
		t.Errorf("the rescore's sensitivity table does not set the run's judge against the new one: %v\n%s", err, sens)
	}
	// Removed and run again: every verdict comes from the judge's cache.
	if err := os.RemoveAll(newDir); err != nil {
		t.Fatal(err)
	}
	if code, log := rescore("strict"); code != 0 {
		t.Fatalf("second rescore: exit %d:\n%s", code, log)
	}
	if n := len(judges.take()); n != 0 {
		t.Errorf("the second rescore made %d live judge calls; want all from the cache", n)
	}
	again := readSamples(t, newDir)
	for i := range again {
		if again[i].Scores["judge"] != now[i].Scores["judge"] {
			t.Fatalf("%s: cached verdict differs", again[i].ID)
		}
	}
	// A rescore of a directory that is no finished run is refused.
	if code, log := rescore2(t, dir, getenv); code == 0 || !strings.Contains(log, "not a run directory") {
		t.Errorf("rescore of a non-run: exit %d:\n%s", code, log)
	}
}

func rescore2(t *testing.T, dir string, getenv func(string) string) (int, string) {
	var stdout, stderr bytes.Buffer
	code := bench.Main(context.Background(), []string{"rescore", dir, "--judge-prompt", "strict"}, bench.IO{Out: &stdout, Err: &stderr, Getenv: getenv})
	return code, stdout.String() + stderr.String()
}
