package view

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

func TestCallsPages(t *testing.T) {
	h, root := newTestServer(t, 30)
	st, err := runstore.Open(filepath.Join(root, "demo"))
	must(t, err)
	call := func(purpose, text string) llm.CallRecord {
		return llm.CallRecord{Purpose: purpose, Usage: llm.Usage{PromptTokens: 7, CompletionTokens: 2}, Exchange: &llm.Exchange{
			Messages: []llm.Message{{Role: "user", Content: "asked <script>alert(1)</script> about " + purpose}}, Text: text, Affinity: "u001"}}
	}
	must(t, st.AppendWith(runrecord.Sample{ID: "rag/u001/new", Method: "rag", User: "u001"}, []llm.CallRecord{call("predict", "not a rating"), call("predict", "Rating: 3")}))
	must(t, st.WriteJSONWith("checkpoints/u001/pramem-abc-round-001.json", map[string]int{"round": 1}, []llm.CallRecord{call("pramem.reflect", "- likes drama")}))
	st.Close()

	code, body := get(t, h, "/calls?r=demo&sample="+url.QueryEscape("rag/u001/new"))
	if code != 200 || strings.Count(body, "<b>predict</b>") != 2 || !strings.Contains(body, "Rating: 3") || !strings.Contains(body, "not a rating") {
		t.Fatalf("sample calls page: %d\n%s", code, body)
	}
	if strings.Contains(body, "<script>alert(1)") || !strings.Contains(body, "&lt;script&gt;alert(1)") {
		t.Error("a recorded message is not escaped")
	}
	code, body = get(t, h, "/calls?r=demo&method=pramem&user=u001")
	if code != 200 || !strings.Contains(body, "pramem.reflect") || !strings.Contains(body, "step checkpoints/u001/pramem-abc-round-001.json") {
		t.Fatalf("memory calls page: %d\n%s", code, body)
	}
	if code, _ := get(t, h, "/calls?r=demo"); code != 404 {
		t.Errorf("calls page without a subject: %d", code)
	}
	if _, body := get(t, h, "/sample?r=demo&id="+url.QueryEscape("rag/u001/new")); !strings.Contains(body, `id="calls-link"`) {
		t.Error("the sample page does not link its calls")
	}
	if _, body := get(t, h, "/memory?r=demo&method=pramem&user=u001"); !strings.Contains(body, `id="calls-link"`) {
		t.Error("the memory page does not link the construction calls")
	}
}
