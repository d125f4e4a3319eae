package lifememrel

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memharness/memharness/envs/dbbench"
	"github.com/memharness/memharness/methods/agent"
)

// dbCorpus generates n replies shaped like LifelongAgentBench DB task
// turns: a thought, "Action: Operation" with a ```sql block or "Action:
// Answer" with "Final Answer:", and the ways those go wrong (labels in
// other cases or languages, other fences, two actions, an unterminated
// block, CRLF, Unicode and ASCII-separator white space, truncation,
// empty). Deterministic (seeded).
func dbCorpus(n int) []string {
	thoughts := []string{"", "", "", "I need to count the rows.\n", "Thought: filter by year.\n", "我需要查询表格。\n", "Sure!  ",
		"\n", "  \n", "Assistant: ", "Let me think.\n\n", "The answer is below.\r\n", "\u3000", "\x1c", "Action: none yet.\n",
		"First I will run Action: Operation later.\n"}
	labels := []string{"Action: Operation\n", "Action: Operation\n", "Action: Answer\n", "Action: Answer\n", "Action: Operation", "Action: Answer",
		"Action: operation\n", "action: Operation\n", "Action:Operation\n", "Action:  Answer\n", "ACTION: ANSWER\n", "Action: Operation\r\n",
		"Action: Answer\r\n", "行动: Operation\n", "Action: Operations\n", "Action: Answered\n", "Action: Operation \n", ""}
	bodies := []string{
		"```sql\nSELECT * FROM `t`;\n```", "```sql\nSELECT COUNT(*) FROM employees WHERE year = 2020;\n```",
		"```sql\nSELECT a,\n  b\nFROM t\nWHERE x = 'y'\n```", "```sql\nUPDATE t SET a = 1 WHERE b = 2;\n```",
		"```sql\n  SELECT 1;  \n```", "```sql\n\n```", "```sql\nSELECT 1;\n```\n```sql\nSELECT 2;\n```", "```SQL\nSELECT 1\n```",
		"```\nSELECT 1\n```", "```sql SELECT 1```", "```sql\nSELECT 1", "```sql\r\nSELECT 1\r\n```", "```sql\nSELECT '中文' FROM t;\n```",
		"```sql\nSELECT 1;\x1f\n```", "```sql\nSELECT 1\n\n```", "```sql\n\nSELECT 1\n```", "SELECT * FROM t;",
		"Final Answer: [(1, 'a')]", "Final Answer:[('x',)]", "Final Answer: [(12.5,)]  ", "Final Answer: 答案是 [(3,)]", "Final answer: [(1,)]",
		"Final Answer:", "Final Answer: [(1,)]\r", "Final Answer: \u3000[(2,)]\u3000", "Final Answer: [(1,)]\x1c", "Final Answer: []\nThanks!",
		"Final Answer: [(1,)]\nFinal Answer: [(2,)]", "Final Answer : [(1,)]", "FINAL ANSWER: [(1,)]", "最终答案: [(1,)]",
		"The result is [(1,)].", "",
	}
	tails := []string{"", "", "", "\n", " ", "\n\n", "\nAction: Answer\nFinal Answer: [(9,)]", "\nAction: Operation\n```sql\nSELECT 9;\n```",
		"\nFinal Answer: [(7,)]", " I hope this helps.", "\r\n", "\u00a0", "\x1d"}
	rng := rand.New(rand.NewPCG(24, 4000))
	var out []string
	for _, l := range labels {
		for _, b := range bodies[:4] {
			out = append(out, l+b)
		}
	}
	for _, b := range bodies {
		out = append(out, b)
	}
	for len(out) < n {
		s := thoughts[rng.IntN(len(thoughts))] + labels[rng.IntN(len(labels))] + bodies[rng.IntN(len(bodies))] + tails[rng.IntN(len(tails))]
		if rng.IntN(10) == 0 && len(s) > 3 {
			s = s[:rng.IntN(len(s))]
		}
		if !utf8.ValidString(s) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// dbThinkCorpus generates n replies of a reasoning model that writes its
// reasoning into the content: a <think> or <thinking> block (closed,
// unclosed, or only its closing tag, as chat templates that open it in the
// prompt leave it) holding an action of its own, before or instead of the
// reply's action. The source parses the content with the block in it.
func dbThinkCorpus(n int) []string {
	opens := []string{"<think>", "<think>\n", "<thinking>", "", "<think>"}
	closes := []string{"</think>", "</think>\n\n", "</thinking>\n", "</think>", ""}
	inner := []string{"Let me count the rows.", "Action: Answer\nFinal Answer: [(0,)]", "I could do Action: Operation\n```sql\nSELECT 0;\n```",
		"Final Answer: maybe [(5,)]", "用户想要计数。", "```sql\nDROP TABLE t;\n```", "Action: Operation", ""}
	acts := []string{"Action: Operation\n```sql\nSELECT COUNT(*) FROM t;\n```", "Action: Answer\nFinal Answer: [(1, 'a')]",
		"\nFinal Answer: [(2,)]", "Action: Operation\n```sql\nSELECT 1\n```\n", "", "Thought: done.\nAction: Answer\nFinal Answer: []"}
	rng := rand.New(rand.NewPCG(37, 4001))
	out := make([]string, n)
	for i := range out {
		k := rng.IntN(len(opens))
		out[i] = opens[k] + inner[rng.IntN(len(inner))] + closes[k] + acts[rng.IntN(len(acts))]
	}
	return out
}

// TestDBParserParity: the DB task's reply handling (the release prompter's
// ReplyParser, then dbbench.ParseAction) on the corpus against
// LifelongAgentBench's DBBench._parse_agent_response on the raw reply (the
// agent's content as openai_language_model.py returns it), captured in
// testdata/parity/dbbench.json: the action (execute, finish, invalid), its
// content, and which pattern failed.
func TestDBParserParity(t *testing.T) {
	path := filepath.Join(parityDir, "dbbench_replies.json")
	replies := append(dbCorpus(2200), dbThinkCorpus(200)...)
	writeCorpusIfUpdate(t, path, replies)
	var got []string
	readJSON(t, path, &got)
	if !reflect.DeepEqual(got, replies) || len(got) < 2000 {
		t.Fatalf("%s: %d replies, not the generator's %d (run with -update)", path, len(got), len(replies))
	}
	var want []dbCapture
	readJSON(t, filepath.Join(parityDir, "dbbench.json"), &want)
	if len(want) != len(got) {
		t.Fatalf("%d captured results for %d replies (recapture)", len(want), len(got))
	}
	p, err := dbPrompter(standinTrees(t, NameLifelongAgentBench), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rp, ok := p.(agent.ReplyParser)
	if !ok {
		t.Fatal("the DB task's release prompter does not hand the reply over as the source does (no ReplyParser): the agent's clean-up would apply")
	}
	bad := 0
	for i, r := range got {
		kind, content, reason := dbReading(rp.ParseReply(r))
		if w := want[i]; kind != w.Action || content != w.content() || reason != w.reason() {
			if bad++; bad <= 10 {
				t.Errorf("reply %d %q: got (%s, %q, %s), source (%s, %q, %s)", i, r, kind, content, reason, w.Action, w.content(), w.reason())
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d replies parse otherwise than DBBench._parse_agent_response", bad, len(got))
	}
	t.Logf("%d of %d replies identical", len(got)-bad, len(got))
}

// dbCapture is one captured reading of DBBench._parse_agent_response.
type dbCapture struct {
	Action  string  `json:"action"`
	Content *string `json:"content"`
	Reason  *string `json:"finish_reason"`
}

func (w dbCapture) content() string {
	if w.Content == nil {
		return ""
	}
	return *w.Content
}

func (w dbCapture) reason() string {
	if w.Reason == nil {
		return ""
	}
	return dbReasonKind(*w.Reason)
}

// dbReading is the DB task step's reading of an action text
// (dbbench.ParseAction, the first thing its Step does) in the capture's
// terms: the action, its content, which pattern failed.
func dbReading(text string) (kind, content, reason string) {
	a, err := dbbench.ParseAction(text)
	kind = "invalid"
	switch {
	case errors.Is(err, dbbench.ErrNoAction):
		reason = "action"
	case errors.Is(err, dbbench.ErrNoSQL):
		reason = "sql"
	case errors.Is(err, dbbench.ErrNoFinal):
		reason = "final"
	case err != nil:
		reason = err.Error()
	case a.Kind == dbbench.Operation:
		kind, content = "execute", a.SQL
	case a.Kind == dbbench.Answer:
		kind, content = "finish", a.Final
	}
	return kind, content, reason
}

// dbReasonKind names which of the source's three finish_reason texts a
// capture holds, by the pattern it quotes.
func dbReasonKind(reason string) string {
	switch {
	case reason == "":
		return ""
	case containsAll(reason, "find action"):
		return "action"
	case containsAll(reason, "find SQL"):
		return "sql"
	case containsAll(reason, "find final answer"):
		return "final"
	}
	return reason
}

// standinTrees opens the stand-in tree of the named sources.
func standinTrees(t *testing.T, names ...string) Trees {
	t.Helper()
	trees := Trees{}
	for _, src := range []Source{TauBench, LifelongAgentBench, ExpeL, LifeMem, Synapse} {
		if !slices.Contains(names, src.Name) {
			continue
		}
		dir, s := pinnedStandIn(t, src)
		tr, err := Open(dir, s)
		if err != nil {
			t.Fatal(err)
		}
		trees[src.Name] = tr
	}
	return trees
}

// writeCorpusIfUpdate rewrites a corpus file under -update.
func writeCorpusIfUpdate(t *testing.T, path string, v any) {
	t.Helper()
	if !*update {
		return
	}
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// askingDB records whether the prompter asked the suite to call the agent
// once more at the round limit.
type askingDB struct {
	fakeSuite
	asked bool
}

func (s *askingDB) AskPastLimit() { s.asked = true }

// The DB task's release prompter makes its suite ask past the round limit,
// as LifelongAgentBench's loop does (its round check follows the call).
func TestDBPrompterAsksPastLimit(t *testing.T) {
	s := &askingDB{fakeSuite: fakeSuite{"dbbench"}}
	if _, err := dbPrompter(standinTrees(t, NameLifelongAgentBench), s, Options{}); err != nil {
		t.Fatal(err)
	}
	if !s.asked {
		t.Error("the release prompter left the suite stopping at the round limit; the source asks once more")
	}
}
