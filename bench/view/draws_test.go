package view

import (
	"html"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// TestSampleDrawsFromRecord: the sample page shows every draw in order
// with its whole reply, read from the call record, and links each to its
// place on the calls page; a summary call of the same sample is no draw.
func TestSampleDrawsFromRecord(t *testing.T) {
	h, root := newTestServer(t, 30)
	st, err := runstore.Open(filepath.Join(root, "demo"))
	must(t, err)
	long := strings.Repeat("I am not sure <b>at all</b>, ", 40) // longer than the meter's shortened text
	call := func(purpose, text string, judged, invalid bool, pt int) llm.CallRecord {
		return llm.CallRecord{Purpose: purpose, Judged: judged, Invalid: invalid, InvalidText: llm.Shorten(text, 80), LatencyNS: 1500e6,
			Usage: llm.Usage{PromptTokens: pt, CompletionTokens: 3}, Exchange: &llm.Exchange{
				Messages: []llm.Message{{Role: "user", Content: "rate it"}}, Text: text, Reasoning: "thinking about " + purpose}}
	}
	id := "rag/u001/redrawn"
	must(t, st.AppendWith(runrecord.Sample{ID: id, Method: "rag", User: "u001", Field: "rating", Kind: "multi_class", Label: "4", Pred: "3", Valid: true,
		Attempts: 3, Raw: "Rating: 3"}, []llm.CallRecord{
		call("summary", "a summary", true, false, 5),
		call("predict", long, true, true, 11),
		call("predict", "no idea", true, true, 12),
		call("predict", "Rating: 3", true, false, 13),
	}))
	st.Close()

	code, body := get(t, h, "/sample?r=demo&id="+url.QueryEscape(id))
	if code != 200 {
		t.Fatalf("sample page: %d\n%s", code, body)
	}
	sec := body[strings.Index(body, `id="sample-draws"`):]
	sec = sec[:strings.Index(sec, "</ol>")]
	if n := strings.Count(sec, `<li class="draw`); n != 3 {
		t.Fatalf("%d draws shown, want the 3 predict calls:\n%s", n, sec)
	}
	calls := "/calls?r=demo&amp;sample=" + url.QueryEscape(id)
	want := []string{
		"<b>draw 1</b>", "rejected: the parser found none of the field&#39;s classes", "11+3 tokens", "1.5s", `href="` + calls + `#call-2"`, html.EscapeString(long),
		"<b>draw 2</b>", `href="` + calls + `#call-3"`, "no idea",
		"<b>draw 3</b>", "accepted: 3", "13+3 tokens", `href="` + calls + `#call-4"`, "<pre>Rating: 3</pre>", "thinking about predict",
	}
	at := 0
	for _, w := range want {
		i := strings.Index(sec[at:], w)
		if i < 0 {
			t.Fatalf("draws lack %q after position %d (in order):\n%s", w, at, sec)
		}
		at += i + len(w)
	}
	if strings.Contains(sec, "a summary") || strings.Contains(sec, "<b>at all</b>") {
		t.Errorf("a summary call shown as a draw, or a reply not escaped:\n%s", sec)
	}
	// The anchors exist on the calls page.
	_, cb := get(t, h, "/calls?r=demo&sample="+url.QueryEscape(id))
	for _, a := range []string{`id="call-2"`, `id="call-4"`} {
		if !strings.Contains(cb, a) {
			t.Errorf("calls page lacks %s", a)
		}
	}
}

// TestSampleDrawsOldRun: a run whose journal has no call contents shows
// the shortened text the run logged, and says so.
func TestSampleDrawsOldRun(t *testing.T) {
	h, root := newTestServer(t, 30)
	writeCompareRun(t, filepath.Join(root, "cmp"))
	_, body := get(t, h, "/sample?r=cmp&id="+url.QueryEscape("pramem/omni/u1/3/liked"))
	for _, w := range []string{"I cannot tell yet.", "text as the run logged it, shortened", "<b>draw 2</b> <span class=\"verdict\">accepted: No</span>", "50+9 tokens"} {
		if !strings.Contains(body, w) {
			t.Errorf("old run's draws lack %q", w)
		}
	}
}

func TestDrawsOfResumedSample(t *testing.T) {
	// A resumed run journals the redone sample again: the last line is the
	// sample shown, and the calls page numbers across both lines.
	s := &runrecord.Sample{ID: "m/x", Kind: "binary", Pred: "1", Valid: true}
	rec := func(i int, failed bool) runstore.Call {
		c := runstore.Call{Unit: "sample:m/x", Index: i}
		c.Purpose, c.Judged, c.Failed = "predict", !failed, failed
		c.Exchange = &llm.Exchange{Text: "Yes"}
		if failed {
			c.Exchange = &llm.Exchange{Error: "endpoint down"}
		}
		return c
	}
	got := drawsOf(s, []runstore.Call{rec(0, true), rec(0, false)})
	if len(got) != 1 || got[0].CallAnchor != "#call-2" || got[0].Verdict != "accepted: Yes" {
		t.Fatalf("draws of a resumed sample: %+v", got)
	}
	got = drawsOf(s, []runstore.Call{rec(0, true)})
	if len(got) != 1 || !got[0].Failed || got[0].Verdict != "the call failed: endpoint down" {
		t.Fatalf("a failed call: %+v", got)
	}
}
