package batchcmd

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm/batch"
)

var errUsage = errors.New("usage")

func newFlags(w io.Writer, name, synopsis, about string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(w)
	fs.Usage = func() { fmt.Fprintf(w, "Usage: bench %s\n\n%s\n", synopsis, about) }
	return fs
}

func run(t *testing.T, getenv func(string) string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := Run(context.Background(), &out, &out, getenv, args, errUsage, newFlags)
	return out.String(), err
}

// TestBatchStatusAndCancel: status reads the journal; cancel asks the
// provider the journal names to stop each running batch, with the key from
// the environment, and leaves finished ones alone.
func TestBatchStatusAndCancel(t *testing.T) {
	var cancelled []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer sk-env" {
			http.Error(w, "no key", http.StatusUnauthorized)
			return
		}
		id, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/v1/batches/"), "/cancel")
		if r.Method != http.MethodPost || !ok {
			http.NotFound(w, r)
			return
		}
		cancelled = append(cancelled, id)
		fmt.Fprintf(w, `{"id":%q,"status":"cancelling","request_counts":{"total":2}}`, id)
	}))
	defer srv.Close()
	runDir := t.TempDir()
	j, err := batch.OpenJournal(filepath.Join(runDir, "batches", "m-1"))
	if err != nil {
		t.Fatal(err)
	}
	reqs := []batch.Request{{ID: "mh-a", Purpose: "predict"}, {ID: "mh-b", Purpose: "judge"}}
	for _, e := range []batch.Entry{
		{Step: batch.StepWritten, Wave: 1, File: "wave-0001.jsonl", Requests: reqs, Provider: srv.URL + "/v1"},
		{Step: batch.StepUploaded, Wave: 1, FileID: "file_1"},
		{Step: batch.StepSubmitted, Wave: 1, FileID: "file_1", BatchID: "batch_1"},
		{Step: batch.StepWritten, Wave: 2, File: "wave-0002.jsonl", Requests: reqs[:1], Provider: srv.URL + "/v1"},
		{Step: batch.StepUploaded, Wave: 2, FileID: "file_2"},
		{Step: batch.StepSubmitted, Wave: 2, FileID: "file_2", BatchID: "batch_2"},
		{Step: batch.StepDone, Wave: 2, BatchID: "batch_2", Status: batch.StatusCompleted, OK: 1},
	} {
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	out, err := run(t, nil, "status", runDir)
	if err != nil || !strings.Contains(out, "wave 1: submitted") || !strings.Contains(out, "judge 1, predict 1") ||
		!strings.Contains(out, "batch batch_1") || !strings.Contains(out, "wave 2: done completed, 1 answered") ||
		!strings.Contains(out, "1 wave(s) in flight") {
		t.Errorf("status: %v\n%s", err, out)
	}
	getenv := func(k string) string {
		if k == "OPENAI_API_KEY" {
			return "sk-env"
		}
		return ""
	}
	out, err = run(t, getenv, "cancel", runDir)
	if err != nil || len(cancelled) != 1 || cancelled[0] != "batch_1" || !strings.Contains(out, "batch_1 is cancelling") {
		t.Errorf("cancel: %v, cancelled %v\n%s", err, cancelled, out)
	}
	if out, err := run(t, nil, "status", t.TempDir()); err == nil || !strings.Contains(err.Error(), "no provider batches") {
		t.Errorf("a run without batches: %v\n%s", err, out)
	}
	if _, err := run(t, nil, "import", runDir); !errors.Is(err, errUsage) {
		t.Errorf("import without a file: %v", err)
	}
}

// TestBatchActions: every action completion offers is described in the
// usage text, and an action that is none of them is refused by name
// before the run directory is read.
func TestBatchActions(t *testing.T) {
	for _, a := range Actions() {
		if !strings.Contains(About, "\n  "+a+" ") {
			t.Errorf("About does not describe action %q", a)
		}
	}
	out, err := run(t, func(string) string { return "" }, "statsu", t.TempDir())
	if !errors.Is(err, errUsage) || !strings.Contains(out, `unknown action "statsu" (want status, cancel, export, import)`) {
		t.Errorf("got %v, %q; want the usage error naming the action", err, out)
	}
}
