package lifememrel

import (
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memharness/memharness/envs/mind2web"
	"github.com/memharness/memharness/envs/miniwob"
)

// mind2webCorpus generates n replies shaped like Synapse Mind2Web answers:
// "Action: `OP [id] [value]` (repr)", with the ways they go wrong (no
// backticks, triple backticks, two spans, other cases, extra or Unicode
// white space, brackets inside values, a missing id, truncation, empty).
func mind2webCorpus(n int) []string {
	pre := []string{"", "", "", "Action: ", "Action:", "action: ", "Thought: the search box.\nAction: ", "我会点击。\nAction: ", " ", "\n", "Answer: ", "obs: x\nAction: "}
	acts := []string{"CLICK [123]", "CLICK [123]", "TYPE [45] [blue shoes]", "SELECT [7] [2 adults]", "TYPE [45] [New York, NY]", "click [12]",
		"Click [12]", "CLICK  [3]", "CLICK[3]", "CLICK\u00a0[3]", "CLICK\u3000[3]", "[3]", " [3]", "HOVER [9]", "ENTER [9]", "TYPE [12]",
		"TYPE [12] []", "TYPE [12]  [x]", "TYPE [12]\u00a0[x]", "TYPE [1] [a [b] c]", "TYPE [1] [a] [b]", "CLICK []", "CLICK [ 7 ]",
		"CLICK [7] (button)", "TYPE [3] [中文]", "SELECT [5] [Option] extra", "CLICK [12", "CLICK 12", "", "None", "TYPE [45] [x\ny]",
		"CLICKTYPE [1]", "xCLICK [1]", "CLICK [1]\tTYPE [2] [v]", "\x1cCLICK [4]"}
	wraps := []func(string) string{
		func(a string) string { return "`" + a + "`" }, func(a string) string { return "`" + a + "`" }, func(a string) string { return "`" + a + "`" },
		func(a string) string { return a }, func(a string) string { return "```" + a + "```" }, func(a string) string { return "``" + a + "``" },
		func(a string) string { return "`" + a + "` (" + "[button]  Search -> CLICK)" }, func(a string) string { return "`" + a },
		func(a string) string { return "`" + a + "` or `CLICK [99]`" }, func(a string) string { return "`\n" + a + "\n`" },
		func(a string) string { return "` " + a + " `" },
	}
	post := []string{"", "", "", "\n", " ", "\nTask: next", "\nObservation: `<html>`", " I hope so.", "\u2028"}
	rng := rand.New(rand.NewPCG(24, 6000))
	var out []string
	for _, a := range acts {
		out = append(out, "`"+a+"`", a)
	}
	for len(out) < n {
		s := pre[rng.IntN(len(pre))] + wraps[rng.IntN(len(wraps))](acts[rng.IntN(len(acts))]) + post[rng.IntN(len(post))]
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

// TestSynapseMind2webParserParity: the Mind2Web reply handling under
// Synapse's prompt (synapseMind2webPrompter.ParseReply, then
// mind2web.ParseSynapseAct, which the suite scores by once the prompter
// is built) on the corpus against Synapse's extract_from_response(reply,
// "`") and parse_act_str, captured in testdata/parity/synapse_mind2web.json:
// the action string (which step success compares with the gold action),
// and the operation, element id and value (None as null).
func TestSynapseMind2webParserParity(t *testing.T) {
	path := filepath.Join(parityDir, "synapse_mind2web_replies.json")
	replies := mind2webCorpus(2200)
	writeCorpusIfUpdate(t, path, replies)
	var got []string
	readJSON(t, path, &got)
	if !reflect.DeepEqual(got, replies) || len(got) < 2000 {
		t.Fatalf("%s: %d replies, not the generator's %d (run with -update)", path, len(got), len(replies))
	}
	var want []struct {
		Act   string  `json:"act"`
		Op    *string `json:"op"`
		ID    *string `json:"id"`
		Value *string `json:"value"`
	}
	readJSON(t, filepath.Join(parityDir, "synapse_mind2web.json"), &want)
	if len(want) != len(got) {
		t.Fatalf("%d captured results for %d replies (recapture)", len(want), len(got))
	}
	deref := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	bad := 0
	for i, r := range got {
		act := synapseMind2webPrompter{}.ParseReply(r)
		p := mind2web.ParseSynapseAct(act)
		w := want[i]
		ok := act == w.Act && p.Matched == (w.ID != nil) && p.Op == deref(w.Op) && p.ID == deref(w.ID) && p.Value == deref(w.Value) &&
			(w.Op == nil || *w.Op != "") && (w.Value == nil || *w.Value != "")
		if !ok {
			if bad++; bad <= 10 {
				t.Errorf("reply %d %q: got %q %+v, source %q op=%v id=%v value=%v", i, r, act, p, w.Act, deref(w.Op), deref(w.ID), deref(w.Value))
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d replies parse otherwise than Synapse's", bad, len(got))
	}
	t.Logf("%d of %d replies identical", len(got)-bad, len(got))
}

// miniwobCorpus generates n replies shaped like Synapse MiniWoB++ turns:
// agent calls in a ``` block (with or without a language label), loops,
// keys, keyword arguments, prose around the block, and the ways code goes
// wrong (unknown methods and keys, a missing "agent.", bad indentation,
// prose inside the block, two blocks, no block, truncation, empty).
func miniwobCorpus(n int) []string {
	calls := []string{`agent.click_xpath("//button[text()='Submit']")`, `agent.click_xpath("//*[@id='subbtn']")`, `agent.type("hello world")`,
		`agent.type('Bob')`, `agent.press("enter")`, `agent.press("space")`, `agent.press("arrowdown")`, `agent.press("backspace")`,
		`agent.press("command+a")`, `agent.press("Enter")`, `agent.press("tab")`, `agent.click_option("//select/option[2]")`,
		`agent.movemouse("//span[@id='x']")`, `agent.type(characters="12/31/2016")`, `agent.click_xpath(xpath="//a")`,
		`agent.click_xpath(path="//a")`, `agent.click("//a")`, `click_xpath("//a")`, `agent.type()`, `agent.type("a", "b")`,
		`agent.type("line\nbreak")`, `agent.type("中文输入")`, `agent.type("say \"hi\"")`, `agent.type(r"C:\temp")`, `agent.press('arrowleft');`,
		`print("done")`, `pass`, `# click the button`, `agent.click_xpath("//a")  # the link`, `Click the submit button.`, `agent.type(5)`,
		`agent.type("unterminated)`, `self.click_xpath("//a")`}
	loops := []string{"for _ in range(3):\n    agent.press(\"arrowdown\")", "for i in range(2):\n    agent.click_xpath(\"//a\")\n    agent.press(\"enter\")",
		"for _ in range(2): agent.type(\"x\")", "for _ in range(2):\nagent.press(\"enter\")", "for _ in range(x):\n    agent.press(\"enter\")"}
	opens := []string{"```\n", "```\n", "```python\n", "```py\n", "```Python\n", "```", "``` \n", "```python3\n"}
	closes := []string{"\n```", "\n```", "```", "\n```\n", "\n``"}
	pre := []string{"", "", "", "Action:\n", "I will log in.\n", "思考：先点击。\n", "Observation: done\n", " ", "\n"}
	post := []string{"", "", "", "\n", "\nThen wait for the new state.", "\n```\nagent.press(\"enter\")\n```", " ", "\nObservation:"}
	rng := rand.New(rand.NewPCG(24, 8000))
	body := func() string {
		k := 1 + rng.IntN(4)
		var lines []string
		for range k {
			if rng.IntN(6) == 0 {
				lines = append(lines, loops[rng.IntN(len(loops))])
				continue
			}
			l := calls[rng.IntN(len(calls))]
			if rng.IntN(14) == 0 {
				l = "  " + l
			}
			lines = append(lines, l)
		}
		return strings.Join(lines, "\n")
	}
	var out []string
	for _, c := range calls {
		out = append(out, "```\n"+c+"\n```")
	}
	for _, l := range loops {
		out = append(out, "```\n"+l+"\n```")
	}
	out = append(out, "", "agent.click_xpath(\"//a\")", "```\n```", "``````")
	for len(out) < n {
		s := pre[rng.IntN(len(pre))] + opens[rng.IntN(len(opens))] + body() + closes[rng.IntN(len(closes))] + post[rng.IntN(len(post))]
		if rng.IntN(10) == 0 {
			s = pre[rng.IntN(len(pre))] + body() // no block
		}
		if rng.IntN(12) == 0 && len(s) > 3 {
			s = s[:rng.IntN(len(s))]
		}
		if !utf8.ValidString(s) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// synapseTyped is what Synapse's Agent.press hands MiniWoBType for a key
// (selenium's Keys for the arrows and backspace).
var synapseTyped = map[string]string{"enter": "\n", "space": " ", "arrowleft": "\ue012", "arrowright": "\ue014", "backspace": "\ue003", "arrowup": "\ue013", "arrowdown": "\ue015"}

// TestSynapseMiniwobParserParity: the MiniWoB++ turn under Synapse's
// prompt (synapseMiniwob.ParseReply, then miniwob.ExecProgram, which the
// suite reads turns with once the prompter is built) on the corpus against
// Synapse's extract_from_response(reply, "```") and run_miniwob.py's
// exec(actions) with an Agent that records the MiniWoB actions its
// methods build (testdata/parity/synapse.json): the code, the actions in
// order, and whether the exec raised.
func TestSynapseMiniwobParserParity(t *testing.T) {
	path := filepath.Join(parityDir, "synapse_replies.json")
	replies := miniwobCorpus(2200)
	writeCorpusIfUpdate(t, path, replies)
	var got []string
	readJSON(t, path, &got)
	if !reflect.DeepEqual(got, replies) || len(got) < 2000 {
		t.Fatalf("%s: %d replies, not the generator's %d (run with -update)", path, len(got), len(replies))
	}
	var want []struct {
		Code  string     `json:"code"`
		Calls [][]string `json:"calls"`
		Error *string    `json:"error"`
	}
	readJSON(t, filepath.Join(parityDir, "synapse.json"), &want)
	if len(want) != len(got) {
		t.Fatalf("%d captured results for %d replies (recapture)", len(want), len(got))
	}
	bad := 0
	for i, r := range got {
		code := synapseMiniwob{}.ParseReply(r)
		acts, runErr, compileErr := miniwob.ExecProgram(code)
		calls := [][]string{}
		for _, a := range acts {
			k, arg := string(a.Kind), a.Arg
			if a.Kind == miniwob.Press {
				k, arg = "type", synapseTyped[a.Arg]
			}
			calls = append(calls, []string{k, arg})
		}
		w := want[i]
		if w.Calls == nil {
			w.Calls = [][]string{}
		}
		raised := runErr != nil || compileErr != nil
		if code != w.Code || !reflect.DeepEqual(calls, w.Calls) || raised != (w.Error != nil) {
			if bad++; bad <= 10 {
				e := "none"
				if w.Error != nil {
					e = *w.Error
				}
				t.Errorf("reply %d %q: code %q calls %q raised %v (%v %v); source code %q calls %q error %s", i, r, code, calls, raised, compileErr, runErr, w.Code, w.Calls, e)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d replies run otherwise than Synapse's exec", bad, len(got))
	}
	t.Logf("%d of %d replies identical", len(got)-bad, len(got))
}
