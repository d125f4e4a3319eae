package external

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/gateway"
	"github.com/memharness/memharness/methods/predict"
)

// chattyChild is a method written with the Python client that asks the
// model through the gateway while preparing and while answering.
const chattyChild = `
import sys
sys.path.insert(0, %q)
from memharness_method import Method, serve, answer

class Chatty(Method):
    name = "chatty"
    def prepare(self, user):
        text = self.chat([{"role": "user", "content": "Summarise: " + self.users[user]["records"][0]["text"]}], purpose="summarise")
        return {"memory": text}
    def predict(self, params):
        return answer(self.chat([{"role": "user", "content": "Yes or No?"}], purpose="answer"))

serve(Chatty())
`

// loggedModel answers reply (or fails with err) and keeps the requests.
type loggedModel struct {
	reply string
	err   error
	mu    sync.Mutex
	reqs  []llm.Request
}

func (m *loggedModel) Generate(_ context.Context, req llm.Request) (llm.Response, error) {
	m.mu.Lock()
	m.reqs = append(m.reqs, req)
	m.mu.Unlock()
	if m.err != nil {
		return llm.Response{}, m.err
	}
	return llm.Response{Text: m.reply}, nil
}

func chattyMethod(t *testing.T, children int) (*Method, string) {
	t.Helper()
	python(t)
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "chatty.py")
	if err := os.WriteFile(script, []byte(fmt.Sprintf(chattyChild, examples)), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := New(predict.Spec{Name: "gwtest", Kind: Kind, Options: map[string]any{
		"command": []any{"python3", script}, "timeout": "20s", "children": children}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.(*Method).Close() })
	return m.(*Method), dir
}

// Each request the harness sends binds a gateway scope: the child's calls
// while preparing go to the build model, attributed to the user's
// construction, and while answering to the evaluation model, attributed to
// the instance, each under the purpose the child named.
func TestExternalGatewayScopesEachRequest(t *testing.T) {
	for _, children := range []int{1, 2} {
		t.Run(fmt.Sprintf("children=%d", children), func(t *testing.T) {
			m, dir := chattyMethod(t, children)
			build, eval := &loggedModel{reply: "likes videos"}, &loggedModel{reply: "Yes"}
			gw, err := gateway.Start(context.Background(), gateway.Options{Model: eval, Method: m.GatewayName()})
			if err != nil {
				t.Fatal(err)
			}
			m.ServeGateway(gw)
			if _, err := m.Start(context.Background(), Launch{Dir: dir}); err != nil {
				t.Fatal(err)
			}
			u := oneUser()
			env := predict.Env{Model: eval, BuildModel: build}
			mem, err := m.PrepareUser(context.Background(), env, u)
			if err != nil {
				t.Fatal(err)
			}
			out, err := m.Predict(context.Background(), env, mem, u.Instances[0])
			if err != nil {
				t.Fatal(err)
			}
			if mem.Text != "likes videos" || !out.Valid || out.Raw != "Yes" {
				t.Errorf("memory %q, outcome %+v: want the build model's summary and the evaluation model's Yes", mem.Text, out)
			}
			if len(build.reqs) != 1 || len(eval.reqs) != 1 {
				t.Fatalf("%d build and %d evaluation calls, want 1 and 1", len(build.reqs), len(eval.reqs))
			}
			if b := build.reqs[0]; b.Purpose != "gwtest.summarise" || b.SampleID != "gwtest/u1/prepare" || b.Affinity != "u1" {
				t.Errorf("build call: purpose %q sample %q affinity %q", b.Purpose, b.SampleID, b.Affinity)
			}
			if e := eval.reqs[0]; e.Purpose != "gwtest.answer" || e.SampleID != u.Instances[0].ID || e.Affinity != "u1" {
				t.Errorf("evaluation call: purpose %q sample %q affinity %q", e.Purpose, e.SampleID, e.Affinity)
			}
		})
	}
}

// A ceiling the gateway meets fails the request, even though the child
// answered its error, and stays findable as llm.ErrStopRun.
func TestExternalGatewayCeilingStopsTheRequest(t *testing.T) {
	m, dir := chattyMethod(t, 1)
	stop := &loggedModel{err: fmt.Errorf("spending ceiling reached: %w", llm.ErrStopRun)}
	gw, err := gateway.Start(context.Background(), gateway.Options{Model: stop, Method: m.GatewayName()})
	if err != nil {
		t.Fatal(err)
	}
	m.ServeGateway(gw)
	if _, err := m.Start(context.Background(), Launch{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	_, err = m.PrepareUser(context.Background(), predict.Env{Model: stop}, oneUser())
	if !errors.Is(err, llm.ErrStopRun) {
		t.Fatalf("prepare under a reached ceiling: %v, want llm.ErrStopRun", err)
	}
	// Closing the method closes its gateway.
	m.Close()
	if resp, err := http.Get(gw.URL() + "/models"); err == nil {
		resp.Body.Close()
		t.Errorf("the gateway still answers (HTTP %d) after the method closed", resp.StatusCode)
	}
}
