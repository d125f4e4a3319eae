package view

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memharness/memharness/runrecord"
)

// A search that misses reads every prompt; past its time budget it stops
// and the list says the results are partial. A cancelled request (the
// client left) stops it too.
func TestSearchIsBoundedAndSaysSo(t *testing.T) {
	root := t.TempDir()
	writeRun(t, filepath.Join(root, "demo"), 120)
	s, err := NewServer(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.searchTime = time.Nanosecond
	code, body := get(t, s.Handler(), "/samples?r=demo&q=no-such-text")
	if code != http.StatusOK || !strings.Contains(body, `id="search-partial"`) || !strings.Contains(body, "of 120 samples") {
		t.Errorf("search past its budget: %d, no partial note:\n%s", code, body)
	}
	s.searchTime = time.Minute
	if _, body := get(t, s.Handler(), "/samples?r=demo&q=no-such-text"); strings.Contains(body, "search-partial") {
		t.Error("a search within its budget is called partial")
	}
	ri, err := s.run("demo")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	idx, srch := ri.match(ctx, Filter{Q: "no-such-text", Method: "rag"})
	if len(idx) != 0 || srch.Scanned != 0 || srch.Of != 40 || !strings.Contains(srch.Stopped, "cancelled") {
		t.Errorf("cancelled search: %d rows, %+v", len(idx), srch)
	}
}

// A call record that lost its texts leaves every sample page up (the
// prompt says why it is missing), and a search says how many prompts it
// could not read instead of silently matching nothing.
func TestLostCallTextsKeepPagesUp(t *testing.T) {
	root := t.TempDir()
	writeRun(t, filepath.Join(root, "demo"), 30)
	must(t, os.Remove(filepath.Join(root, "demo", runrecord.ChunksFile)))
	s, err := NewServer(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	code, body := get(t, h, "/sample?r=demo&id=rag/u000/1")
	if code != http.StatusOK || !strings.Contains(body, `id="prompt-error"`) {
		t.Errorf("sample page of a run whose chunk store is gone: %d\n%s", code, body)
	}
	code, body = get(t, h, "/samples?r=demo&q=history")
	if code != http.StatusOK || !strings.Contains(body, `id="search-unread"`) {
		t.Errorf("prompt search over lost texts: %d, no note of the unread prompts\n%s", code, body)
	}
}
