package lifememrel

import (
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/memharness/memharness/envs/mind2web"
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
