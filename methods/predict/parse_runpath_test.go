package predict

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/llm"
)

// chatServer is an OpenAI-compatible endpoint that answers every chat
// completion with the content set last (Set), as a reasoning model that
// writes its <think> block into message.content does.
type chatServer struct {
	*httptest.Server
	mu      sync.Mutex
	content string
}

func newChatServer(t *testing.T) *chatServer {
	s := &chatServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		content := s.content
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "c", "object": "chat.completion", "model": "m",
			"choices": []map[string]any{{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": content}}},
			"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 3, "total_tokens": 13},
		})
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *chatServer) Set(content string) {
	s.mu.Lock()
	s.content = content
	s.mu.Unlock()
}

// TestYesNoParityRunPath: the yes/no corpus through the path a run takes —
// an OpenAI-compatible endpoint, the harness's client, the evaluator PraMem
// uses — with the release's parser (prompts: release) agrees with the PraMem
// release's captured readings on every reply, <think> and <thinking>
// blocks included: the client keeps the content as sent for it, while the
// harness's own parser still reads the text without the blocks.
func TestYesNoParityRunPath(t *testing.T) {
	in := readJSONL[corpusReply](t, filepath.Join(corpusDir, "yesno.inputs.jsonl"))
	want := readJSONL[struct{ PraMem, OmniBehavior *string }](t, filepath.Join(corpusDir, "yesno.source.jsonl"))
	if len(in) != len(want) || len(in) < 2000 {
		t.Fatalf("%d replies, %d captured outputs; want the same number, at least 2000", len(in), len(want))
	}
	srv := newChatServer(t)
	client, err := llm.NewOpenAI(llm.EndpointConfig{BaseURL: srv.URL + "/v1", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	evaluator := func(parser string) Evaluator {
		ev, err := NewEvaluator(Spec{Name: "pramem", Kind: KindTruncation, Parser: parser})
		if err != nil {
			t.Fatal(err)
		}
		return ev
	}
	source, own := evaluator(ParserSource), evaluator(ParserOwn)
	env := Env{Model: client, MaxAttempts: 1}
	inst := binaryInstance("u1", nil, 0)
	ctx := context.Background()
	same, thinkKinds := 0, 0
	for i, r := range in {
		srv.Set(r.Reply)
		out, err := source.Predict(ctx, env, inst, "", "")
		if err != nil {
			t.Fatal(err)
		}
		got := label(out.Pred, out.Valid)
		if show(got) == show(want[i].PraMem) {
			same++
		} else if i-same <= 5 {
			t.Errorf("reply %d (%s) %q: through the client %s, the release %s", r.ID, r.Kind, r.Reply, show(got), show(want[i].PraMem))
		}
		if containsThink(r.Reply) {
			thinkKinds++
		}
		if i%10 == 0 {
			// Our own parser reads the text without reasoning blocks.
			out, err := own.Predict(ctx, env, inst, "", "")
			if err != nil {
				t.Fatal(err)
			}
			text, _ := llm.SplitThink(r.Reply)
			if w := label(ParseBinary(text)); show(label(out.Pred, out.Valid)) != show(w) {
				t.Errorf("reply %d %q: own parser through the client %s, on the stripped text %s", r.ID, r.Reply, show(label(out.Pred, out.Valid)), show(w))
			}
		}
	}
	if thinkKinds < 200 {
		t.Errorf("only %d replies carry a reasoning tag; the corpus must exercise them", thinkKinds)
	}
	if same != len(in) {
		t.Errorf("through the client, the release's parser agrees with the PraMem release on %d of %d replies", same, len(in))
	}
	t.Logf("run path (endpoint, client, evaluator): %d of %d replies identical with the PraMem release; %d carry a reasoning tag", same, len(in), thinkKinds)
}

func containsThink(s string) bool {
	return strings.Contains(s, "<think") || strings.Contains(s, "</think")
}
