package lifememrel

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/taubench"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

// replyServer is an OpenAI-compatible endpoint that answers every chat
// completion with the content set last, as a reasoning model that writes
// its <think> block into message.content does.
type replyServer struct {
	*httptest.Server
	mu      sync.Mutex
	content string
}

func newReplyServer(t *testing.T) (*replyServer, llm.Model) {
	t.Helper()
	s := &replyServer{}
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
	m, err := llm.NewOpenAI(llm.EndpointConfig{BaseURL: s.URL + "/v1", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	return s, m
}

func (s *replyServer) set(content string) {
	s.mu.Lock()
	s.content = content
	s.mu.Unlock()
}

// releaseAgent is the acting agent of env under the release prompts, on
// model.
func releaseAgent(t *testing.T, trees Trees, s envs.Suite, model llm.Model) envs.ReplyAgent {
	t.Helper()
	ps, _, err := Prompters(trees, []envs.Suite{s}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	env := s.Name()
	sampling, _ := Sampling([]string{env}, false, nil, nil)
	a := agent.NewAgent(agent.AgentConfig{Model: model, Suite: s, Prompter: ps[env], Sampling: sampling.For(agent.SampleAct, env), Method: "react"})
	ra, ok := a.(envs.ReplyAgent)
	if !ok {
		t.Fatal("the agent gives no replies")
	}
	return ra
}

// TestDBParityRunPath: the DB task corpus through the path a run takes —
// an OpenAI-compatible endpoint, the harness's client, the agent under the
// release prompter, the task step's reading of the action — agrees with
// DBBench._parse_agent_response on every reply, the reasoning-block
// replies included: the source reads choice.message.content with the
// block in it, where the client's stripped text would hide the block's
// own actions or show the reply's.
func TestDBParityRunPath(t *testing.T) {
	var replies []string
	readJSON(t, filepath.Join(parityDir, "dbbench_replies.json"), &replies)
	var want []dbCapture
	readJSON(t, filepath.Join(parityDir, "dbbench.json"), &want)
	if len(want) != len(replies) || len(replies) < 2000 {
		t.Fatalf("%d replies, %d captured readings; want the same number, at least 2000", len(replies), len(want))
	}
	srv, model := newReplyServer(t)
	a := releaseAgent(t, standinTrees(t, NameLifelongAgentBench), fakeSuite{"dbbench"}, model)
	task := envs.Task{ID: "0", Instruction: "How many rows?\nThe name of this table is t, and the headers of this table are a, b."}
	turns := []envs.Turn{{Role: "env", Text: "(the harness's own protocol text)"}}
	bad, think := 0, 0
	for i, r := range replies {
		if strings.Contains(r, "think>") || strings.Contains(r, "thinking>") {
			think++
		}
		srv.set(r)
		reply, err := a.Reply(context.Background(), task, turns)
		if err != nil {
			t.Fatal(err)
		}
		kind, content, reason := dbReading(reply.Action)
		if w := want[i]; kind != w.Action || content != w.content() || reason != w.reason() {
			if bad++; bad <= 10 {
				t.Errorf("reply %d %q: through the run path (%s, %q, %s), source (%s, %q, %s)", i, r, kind, content, reason, w.Action, w.content(), w.reason())
			}
		}
	}
	if think < 150 {
		t.Errorf("%d replies carry a reasoning block; the corpus must exercise them", think)
	}
	if bad > 0 {
		t.Errorf("%d of %d replies read otherwise than DBBench._parse_agent_response through the run path", bad, len(replies))
	}
	t.Logf("run path (endpoint, client, agent, step): %d of %d replies identical; %d with a reasoning block", len(replies)-bad, len(replies), think)
}

// TestTauParityRunPath: the τ-bench corpus through the path a run takes —
// an OpenAI-compatible endpoint, the harness's client, the agent under
// τ-bench's prompter, the retail episode's step — is read as
// ChatReActAgent.generate_next_step reads message.content (reasoning
// blocks and an "Assistant:" label included), and where the source raises
// (RecursionError past json.loads's nesting limit, a refused action) the
// episode ends unsolved, as run.py records that task.
func TestTauParityRunPath(t *testing.T) {
	var replies []string
	readJSON(t, filepath.Join(parityDir, "taubench_replies.json"), &replies)
	var want []tauCapture
	readJSON(t, filepath.Join(parityDir, "taubench.json"), &want)
	if len(want) != len(replies) || len(replies) < 2000 {
		t.Fatalf("%d replies, %d captured readings; want the same number, at least 2000", len(replies), len(want))
	}
	suite, err := taubench.EmbeddedRetail()
	if err != nil {
		t.Fatal(err)
	}
	srv, model := newReplyServer(t)
	// The stand-in pack's tool list is not the embedded suite's; the
	// reading of replies does not depend on it.
	a := releaseAgent(t, standinTrees(t, NameTauBench), tauStandinSuite{suite}, model)
	task := suite.Tasks()[0]
	ctx := context.Background()
	bad, raises, deep := 0, 0, 0
	for i, r := range replies {
		srv.set(r)
		ep, err := suite.NewEpisode(ctx, task, envs.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		reply, err := a.Reply(ctx, task, []envs.Turn{{Role: "env", Text: ep.Observation()}})
		if err != nil {
			t.Fatal(err)
		}
		ok, have := want[i].matches(reply.Action)
		if ok && want[i].Error != "" {
			raises++
			if strings.Contains(r, strings.Repeat("[", 985)) {
				deep++
			}
			st, err := ep.Step(ctx, reply.Action)
			if err != nil {
				t.Fatal(err)
			}
			if !st.Done || st.Reward != 0 {
				ok, have = false, "a step that goes on"
			}
		}
		if !ok {
			if bad++; bad <= 10 {
				t.Errorf("reply %d %q: through the run path %s, source %s%s %s", i, r, have, want[i].Error, want[i].Name, want[i].Kwargs)
			}
		}
		ep.Close()
	}
	if deep < 10 {
		t.Errorf("%d replies nest past json.loads's limit; the corpus must exercise them", deep)
	}
	if bad > 0 {
		t.Errorf("%d of %d replies read otherwise than generate_next_step through the run path", bad, len(replies))
	}
	t.Logf("run path (endpoint, client, agent, episode step): %d of %d replies identical; %d raise in the source (%d nested too deep) and end the episode", len(replies)-bad, len(replies), raises, deep)
}

// tauStandinSuite is the embedded τ-bench suite without its list of
// implemented tools, so the stand-in pack's tools pass the prompter's check.
type tauStandinSuite struct{ s *taubench.Suite }

func (w tauStandinSuite) Name() string       { return w.s.Name() }
func (w tauStandinSuite) Tasks() []envs.Task { return w.s.Tasks() }
func (w tauStandinSuite) MaxSteps() int      { return w.s.MaxSteps() }
func (w tauStandinSuite) UseSourceErrors()   { w.s.UseSourceErrors() }

func (w tauStandinSuite) NewEpisode(ctx context.Context, t envs.Task, o envs.Options) (envs.Episode, error) {
	return w.s.NewEpisode(ctx, t, o)
}
