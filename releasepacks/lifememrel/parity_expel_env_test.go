package lifememrel

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/wikienv"
)

// expelEnvCorpus generates n replies of an acting model on HotpotQA or
// FEVER under ExpeL's prompt, aimed at how the environment reads the
// action the agent hands over: verbs in other cases or misspelt, Think, a
// space before "[", padded, empty, bracketed or unclosed arguments, text
// after the action, two actions on one line (ExpeL's parser then hands
// over an empty action), thoughts, and reasoning blocks.
func expelEnvCorpus(n int) []parityCase {
	labels := []string{"Action %d: ", "Action %d: ", "Action %d:", "action %d: ", "Action: ", "", "", "Thought %d: ", "ACTION %d : "}
	verbs := []string{"Search", "Search", "Lookup", "Finish", "Finish", "search", "lookup", "finish", "SEARCH", "Think", "think", "Seach",
		"Search ", "Finish  ", "Search_2", "Σearch", "Finish2", "Answer"}
	args := []string{"Paris", "Milhouse Van Houten", "SUPPORTS", "REFUTES", "NOT ENOUGH INFO", " Paris ", "  SUPPORTS", "", "a]b", "[x]",
		"Σίσυφος", "北京大学", "1,800 to 7,000 ft", "yes", "no", "\u00a0REFUTES\u00a0", "x\x1c", "The Simpsons (season 1)"}
	closes := []string{"]", "]", "]", "]", "", "] ", "]]", "].", "] Search[y]", "]\u3000", "] Lookup[born]", " ]"}
	extras := []string{"I need to search Paris first.", "Let me think about the claim.", "Search[a] Search[b]", "Lookup[a] Finish[b]",
		"<think>Search[wrong]</think>Action 1: Search[right]", "<think>\nThe claim is false.\n</think>\n\nAction 2: Finish[REFUTES]",
		"<thinking>maybe Finish[SUPPORTS]</thinking>Finish[NOT ENOUGH INFO]", "I think </think>Search[Paris]", "", " ", "Finish[]", "Think[hmm]"}
	rng := rand.New(rand.NewPCG(37, 2000))
	out := make([]parityCase, 0, n)
	for len(out) < n {
		step := 1 + rng.IntN(6)
		var reply string
		if rng.IntN(6) == 0 {
			reply = extras[rng.IntN(len(extras))]
		} else {
			label := labels[rng.IntN(len(labels))]
			if strings.Contains(label, "%d") {
				label = strings.Replace(label, "%d", string(rune('0'+step)), 1)
			}
			open := "["
			if rng.IntN(10) == 0 {
				open = " ["
			}
			reply = label + verbs[rng.IntN(len(verbs))] + open + args[rng.IntN(len(args))] + closes[rng.IntN(len(closes))]
		}
		if !utf8.ValidString(reply) {
			continue
		}
		out = append(out, parityCase{Reply: reply, Step: step})
	}
	return out
}

// expelEnvCapture is one captured reading of an action by ExpeL's
// environments (testdata/capture/expel_env_capture.py): the action the
// agent hands over (LLM_PARSER's, or "N/A" after three thoughts), what
// HotpotQA's QAEnv.step takes it for, and what FEVER's FeverEnv.step does
// with it (the WikiEnv.step branch and argument, terminated, or the
// exception it raises).
type expelEnvCapture struct {
	Action string `json:"action"`
	Hotpot struct {
		Kind string  `json:"kind"` // Search, Lookup, Finish or invalid
		Arg  *string `json:"arg"`
	} `json:"hotpotqa"`
	Fever struct {
		Kind       string  `json:"kind"` // search, lookup, finish, think, invalid
		Arg        *string `json:"arg"`
		Terminated bool    `json:"terminated"`
		Error      *string `json:"error"`
	} `json:"fever"`
}

// TestExpeLEnvParityRunPath: replies through the path a run takes under
// ExpeL's prompt — an OpenAI-compatible endpoint, the harness's client,
// ExpeL's ReactAgent step (one call per line, again after a thought), the
// HotpotQA or FEVER episode's step — are read as ExpeL's environments
// read them, captured in testdata/parity/expel_env.json.
func TestExpeLEnvParityRunPath(t *testing.T) {
	path := filepath.Join(parityDir, "expel_env_replies.json")
	cases := expelEnvCorpus(2400)
	writeCorpusIfUpdate(t, path, cases)
	var got []parityCase
	readJSON(t, path, &got)
	if !reflect.DeepEqual(got, cases) || len(got) < 2000 {
		t.Fatalf("%s: %d replies, not the generator's %d (run with -update, then capture)", path, len(got), len(cases))
	}
	var want []expelEnvCapture
	readJSON(t, filepath.Join(parityDir, "expel_env.json"), &want)
	if len(want) != len(got) {
		t.Fatalf("%d captured readings for %d replies (capture again)", len(want), len(got))
	}
	srv, model := newReplyServer(t)
	trees := standinTrees(t, NameExpeL)
	counts := map[string]int{}
	for _, env := range []string{wikienv.NameHotpotQA, wikienv.NameFEVER} {
		suite := wikiSuite(t, env)
		a := releaseAgent(t, trees, suite, model)
		task := suite.Tasks()[0]
		bad := 0
		for i, c := range got {
			w := want[i]
			srv.set(c.Reply)
			turns := make([]envs.Turn, 0, 2*(c.Step-1)+1)
			turns = append(turns, envs.Turn{Role: "env", Text: "Question: q"})
			for range c.Step - 1 {
				turns = append(turns, envs.Turn{Role: "agent", Text: "Thought: t\nAction: Search[x]", Action: "Search[x]"}, envs.Turn{Role: "env", Text: "o"})
			}
			reply, err := a.Reply(context.Background(), task, turns)
			if err != nil {
				t.Fatal(err)
			}
			if reply.Action != w.Action {
				if bad++; bad <= 10 {
					t.Errorf("%s reply %d %q: the agent hands over %q, ExpeL's %q", env, i, c.Reply, reply.Action, w.Action)
				}
				continue
			}
			ep, err := suite.NewEpisode(context.Background(), task, envs.Options{})
			if err != nil {
				t.Fatal(err)
			}
			st, err := ep.Step(context.Background(), reply.Action)
			if err != nil {
				t.Fatal(err)
			}
			gotRead, wantRead := stepReading(env, reply.Action, st), sourceReading(env, w)
			if gotRead != wantRead {
				if bad++; bad <= 10 {
					t.Errorf("%s reply %d %q (action %q): step %s, ExpeL %s", env, i, c.Reply, reply.Action, gotRead, wantRead)
				}
			}
			counts[env+" "+strings.Fields(wantRead)[0]]++
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d replies read otherwise than ExpeL's environment through the run path", env, bad, len(got))
		}
	}
	for _, k := range []string{"hotpotqa invalid", "fever invalid", "fever raises", "fever think", "hotpotqa Finish"} {
		if counts[k] < 20 {
			t.Errorf("only %d replies of kind %q: the corpus must exercise it", counts[k], k)
		}
	}
	t.Logf("run path (endpoint, client, ReactAgent step, episode step): 2 x %d replies identical with ExpeL's environments; readings %v", len(got), counts)
}

// stepReading says what the episode's step did with action, in the
// capture's terms (the action's kind and argument, termination), from the
// step's outcome and ReadExpeLAction (which the step applies).
func stepReading(env, action string, st envs.Step) string {
	a, ok, terminated, err := wikienv.ReadExpeLAction(env, action)
	switch {
	case errors.Is(err, wikienv.ErrSourceRaises):
		if !st.Done || st.Info["source_error"] == nil {
			return "step did not end on the source's exception"
		}
		return "raises"
	case !ok:
		if !st.Invalid {
			return "step took an invalid action as valid"
		}
		return "invalid - " + doneWord(st.Done)
	}
	if terminated != st.Done {
		return "step ended otherwise than the reading"
	}
	kind, arg := string(a.Kind), a.Arg
	if env == wikienv.NameFEVER {
		kind = strings.ToLower(kind)
	}
	if a.Kind == wikienv.Think {
		arg = "" // WikiEnv.step's think branch reads no argument
	}
	return kind + " " + arg + " " + doneWord(st.Done)
}

func sourceReading(env string, w expelEnvCapture) string {
	if env == wikienv.NameHotpotQA {
		if w.Hotpot.Kind == "invalid" {
			return "invalid - " + doneWord(false)
		}
		return w.Hotpot.Kind + " " + deref(w.Hotpot.Arg) + " " + doneWord(w.Hotpot.Kind == "Finish")
	}
	switch {
	case w.Fever.Error != nil:
		return "raises"
	case w.Fever.Kind == "invalid":
		return "invalid - " + doneWord(w.Fever.Terminated)
	}
	return w.Fever.Kind + " " + deref(w.Fever.Arg) + " " + doneWord(w.Fever.Terminated)
}

func doneWord(done bool) string {
	if done {
		return "(ends)"
	}
	return "(goes on)"
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// wikiSuite is the embedded HotpotQA or FEVER suite.
func wikiSuite(t *testing.T, env string) *wikienv.Suite {
	t.Helper()
	open := wikienv.EmbeddedHotpotQA
	if env == wikienv.NameFEVER {
		open = wikienv.EmbeddedFEVER
	}
	s, err := open()
	if err != nil {
		t.Fatal(err)
	}
	return s
}
