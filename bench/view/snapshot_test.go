package view

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// A call record linked to a run outside the served root is not served by
// /calls, as no other route serves a link leading outside.
func TestCallsRefuseLinksOutsideTheRoot(t *testing.T) {
	outside := t.TempDir()
	writeRun(t, outside, 30) // a run the viewer must not show
	root := t.TempDir()
	writeRun(t, filepath.Join(root, "demo"), 3)
	for _, name := range []string{runstore.UsageJournal, runrecord.ChunksFile} {
		must(t, os.Remove(filepath.Join(root, "demo", name)))
		must(t, os.Symlink(filepath.Join(outside, name), filepath.Join(root, "demo", name)))
	}
	s, err := NewServer(root, nil)
	must(t, err)
	code, body := get(t, s.Handler(), "/calls?r=demo&sample="+url.QueryEscape("rag/u000/10"))
	if code == http.StatusOK || strings.Contains(body, "Predict the rating of sample 10") {
		t.Errorf("/calls served a call record linked from outside the root: %d\n%s", code, body)
	}
}

// A viewer opened while a run is written follows the run: samples added
// later are listed, and after the run compacts its log every sample page
// still opens.
func TestViewerFollowsARunBeingWritten(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "demo")
	st, err := runstore.Open(dir)
	must(t, err)
	add := func(i int) {
		id := fmt.Sprintf("rag/u%03d/%d", i%4, i)
		must(t, st.AppendWith(runrecord.Sample{ID: id, Method: "rag", User: fmt.Sprintf("u%03d", i%4), Valid: true, Pred: "1", Label: "1"},
			[]llm.CallRecord{{Purpose: "predict", Judged: true, Exchange: &llm.Exchange{Messages: []llm.Message{{Role: "user", Content: "prompt of " + id}}, Affinity: "u", Text: "1"}}}))
	}
	for i := range 5 {
		add(i)
	}
	must(t, st.WriteJSON(runrecord.ManifestFile, runrecord.Manifest{Name: "demo", Samples: 12, Methods: []string{"rag"}}))
	s, err := NewServer(root, nil)
	must(t, err)
	h := s.Handler()
	if _, body := get(t, h, "/samples?r=demo"); !strings.Contains(body, `<span id="total">5</span>`) {
		t.Fatalf("first look at the running run: %s", body)
	}
	time.Sleep(10 * time.Millisecond) // a later modification time on coarse clocks
	var order []string
	for i := 5; i < 12; i++ {
		add(i)
	}
	for i := 11; i >= 0; i-- { // the end of the run compacts in another order
		order = append(order, fmt.Sprintf("rag/u%03d/%d", i%4, i))
	}
	must(t, st.Compact(order))
	now := time.Now()
	must(t, st.WriteJSON(runrecord.ManifestFile, runrecord.Manifest{Name: "demo", Samples: 12, Methods: []string{"rag"}, Finished: &now}))
	st.Close()
	if _, body := get(t, h, "/samples?r=demo"); !strings.Contains(body, `<span id="total">12</span>`) {
		t.Errorf("the list kept its first snapshot:\n%s", body)
	}
	for _, id := range order {
		if code, body := get(t, h, "/sample?r=demo&id="+url.QueryEscape(id)); code != http.StatusOK || !strings.Contains(body, "prompt of "+id) {
			t.Errorf("sample %s after the run: %d\n%.300s", id, code, body)
		}
	}
}

// A method's memory page without a user shows the first user's memory,
// never a raw file-system error.
func TestMemoryPageWithoutUser(t *testing.T) {
	h, _ := newTestServer(t, 30)
	code, body := get(t, h, "/memory?r=demo&method=pramem")
	if code != http.StatusOK || strings.Contains(body, "openat") || !strings.Contains(body, "drama") {
		t.Errorf("memory page without user: %d\n%.400s", code, body)
	}
}
