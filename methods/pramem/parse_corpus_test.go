package pramem

// Practice reply parsers against the release's. The corpus is ours
// (practiceCorpus, deterministic; -update writes it to
// testdata/parsers/practice.inputs.jsonl, untracked, for the capture
// script); testdata/capture/parser_capture.py (our script) ran the
// release's own SelfPractice methods on it with call_llm returning each
// reply and wrote practice.source.jsonl: per reply, what the release took
// from it (proposals; scenes; the verdicts on three proposals; the
// perturbation plans as [str(desc), str(details)]; the reviewed memory, or null when it kept the old
// one).
//
// The source-mode parsers (parser: source, as prompts: release sets it)
// must read every reply as the release does. Our own parsers remove
// reasoning blocks first, fall back to a plain fence or the outermost
// brackets, and keep only typed values; their agreement is logged.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the practice parser corpus")

type practiceReply struct {
	ID     int    `json:"id"`
	Parser string `json:"parser"`
	Kind   string `json:"kind"`
	Reply  string `json:"reply"`
}

// practiceCorpus builds n replies per parser: payloads (well-formed and
// odd: wrong types, missing keys, a dict for a list) in wrappers.
func practiceCorpus(seed uint64, n int) []practiceReply {
	rng := rand.New(rand.NewPCG(seed, seed^0x51ed270b27a9d3c5))
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	texts := []string{"喜欢美食直播", "often skips ads", "晚上更活跃", "buys when discounted", "关注 \"达人\" 的视频", "x"}
	scene := func(i int) string { return fmt.Sprintf("虚拟场景 %d：%s", i, pick(texts)) }
	payloads := map[string][]func() string{
		"scenes": {
			func() string {
				k := 5 + rng.IntN(5)
				s := make([]string, k)
				for i := range s {
					s[i] = scene(i)
				}
				b, _ := json.Marshal(s)
				return string(b)
			},
			func() string { return `["a", 1, "b", null, "c", "d", "e", "f", true]` },
			func() string { return `[{"scene": "s1"}, "s2", "s3", "s4", "s5", "s6", "s7"]` },
			func() string { return `{"scenes": ["s1", "s2"]}` },
			func() string { return `["", " ", "s3", "s4", "s5", "s6", "s7", "s8"]` },
			func() string {
				return `[1.5, 2.0, 1e16, 1e-5, 0.0001, 123456789.0, -0.0, 12345678901234567890, 2.5e-300]`
			},
			func() string {
				return `[{"q": "it's", "n": [1, "a\tb"]}, {"a": "say \"hi\"", "a": 2}, "\u0007bell", "tab\there", "s5", "s6", "s7"]`
			},
		},
		"generalize": {
			func() string {
				return fmt.Sprintf(`[{"proposal_idx": 0, "generalization_passed": %v}, {"proposal_idx": 1, "generalization_passed": %v}, {"proposal_idx": 2, "generalization_passed": %v}]`,
					rng.IntN(2) == 0, rng.IntN(2) == 0, rng.IntN(2) == 0)
			},
			func() string { return `[{"proposal_idx": 1, "generalization_passed": false}]` },
			func() string { return `[{"proposal_idx": "0", "generalization_passed": false}, {"proposal_idx": 2}]` },
			func() string {
				return `[{"proposal_idx": 0, "generalization_passed": "false"}, {"proposal_idx": 1, "generalization_passed": 0}]`
			},
			func() string {
				return `[{"proposal_idx": 5, "generalization_passed": false}, {"proposal_idx": -1, "generalization_passed": false}]`
			},
			func() string { return `{"proposal_idx": 0, "generalization_passed": false}` },
			func() string {
				return `[{"proposal_idx": 0, "generalization_passed": false}, "oops", {"proposal_idx": 1, "generalization_passed": false}]`
			},
			func() string {
				return `[{"proposal_idx": true, "generalization_passed": false}, {"proposal_idx": 2.0, "generalization_passed": false}]`
			},
			func() string { return `[{"proposal_idx": 0, "generalization_passed": null}]` },
		},
		"judge": {
			func() string {
				return fmt.Sprintf(`[{"proposal_idx": 0, "is_sensitive": %v}, {"proposal_idx": 1, "is_sensitive": %v}, {"proposal_idx": 2, "is_sensitive": %v}]`,
					rng.IntN(2) == 0, rng.IntN(2) == 0, rng.IntN(2) == 0)
			},
			func() string { return `[{"proposal_idx": 2, "is_sensitive": true}]` },
			func() string {
				return `[{"proposal_idx": 0, "is_sensitive": "yes"}, {"proposal_idx": 1, "is_sensitive": 1}]`
			},
			func() string {
				return `[{"proposal_idx": 0}, {"proposal_idx": 1, "is_sensitive": true, "reason": "x"}]`
			},
			func() string { return `{"proposal_idx": 0, "is_sensitive": true}` },
		},
		"perturb": {
			func() string {
				return fmt.Sprintf(`[{"perturbation_desc": %q, "perturbation_details": %q}]`, pick(texts), pick(texts))
			},
			func() string {
				return `[{"perturbation_desc": "d"}, {"perturbation_desc": "d2", "perturbation_details": 3}]`
			},
			func() string { return `["just text", {"perturbation_desc": "d", "perturbation_details": ["x", 1]}]` },
			func() string {
				return `["perturbation_desc perturbation_details", {"perturbation_desc": "d", "perturbation_details": "x"}]`
			},
			func() string { return `[7, {"perturbation_desc": "d", "perturbation_details": "x"}]` },
			func() string {
				return `[["perturbation_desc"], {"perturbation_desc": null, "perturbation_details": "x"}]`
			},
			func() string { return `{"perturbation_desc": "d", "perturbation_details": "x"}` },
		},
		"review": {
			func() string {
				return fmt.Sprintf(`{"user_exp": [%q, %q], "model_exp": [%q], "proposal": []}`, pick(texts), pick(texts), pick(texts))
			},
			func() string { return `{"user_exp": ["a"], "model_exp": []}` },
			func() string { return `{"user_exp": [], "model_exp": [], "proposal": [], "note": "kept"}` },
			func() string {
				return fmt.Sprintf(`{"user_exp": [%q], "model_exp": ["b"], "proposal": ["c"]}`, pick(texts))
			},
			func() string { return `[{"user_exp": []}]` },
		},
	}
	around := []string{"", "Here is the result:\n", "思考完毕。\n", "Sure.\n\n"}
	after := []string{"", "\nDone.", "\n以上。", "\n\n(end)"}
	wrappers := []func(p string) (string, string){
		func(p string) (string, string) { return "fenced", "```json\n" + p + "\n```" },
		func(p string) (string, string) {
			return "fenced+text", pick(around) + "```json\n" + p + "\n```" + pick(after)
		},
		func(p string) (string, string) {
			return "two-fences", "```json\n[\"draft\"]\n```\nRevised:\n```json\n" + p + "\n```"
		},
		func(p string) (string, string) {
			// A quote the release's repair escapes.
			return "repair", "```json\n" + strings.Replace(p, `"`+pick(texts), `"他说"好"`, 1) + "\n```"
		},
		func(p string) (string, string) { return "bare", p },
		func(p string) (string, string) { return "bare+text", p + pick(after) },
		func(p string) (string, string) { return "plain-fence", "```\n" + p + "\n```" },
		func(p string) (string, string) {
			return "think", "<think>```json\n[]\n```</think>\n```json\n" + p + "\n```"
		},
		func(p string) (string, string) {
			r := []rune("```json\n" + p + "\n```")
			return "truncated", string(r[:rng.IntN(len(r)+1)])
		},
		func(string) (string, string) {
			return "empty", pick([]string{"", " ", "```json\n```", "```json\n\n```", "null"})
		},
	}
	proposalLines := []func() (string, string){
		func() (string, string) { return "fenced", "【提议】 " + pick(texts) },
		func() (string, string) { return "indented", "   【提议】" + pick(texts) + "  " },
		func() (string, string) { return "empty", "【提议】   " },
		func() (string, string) { return "midline", "理由：【提议】 " + pick(texts) },
		func() (string, string) { return "other", pick(texts) },
		func() (string, string) { return "crlf", "【提议】 " + pick(texts) + "\r" },
		func() (string, string) { return "fullwidth", "\u3000【提议】\u3000" + pick(texts) },
		func() (string, string) { return "think", "<think>【提议】 " + pick(texts) + "</think>" },
	}
	var out []practiceReply
	for _, parser := range []string{"proposals", "scenes", "generalize", "judge", "perturb", "review"} {
		for range n {
			var kind, reply string
			if parser == "proposals" {
				var lines, kinds []string
				for range 1 + rng.IntN(5) {
					k, l := proposalLines[rng.IntN(len(proposalLines))]()
					lines, kinds = append(lines, l), append(kinds, k)
				}
				kind, reply = strings.Join(kinds, "+"), strings.Join(lines, "\n")
			} else {
				ps := payloads[parser]
				p := ps[0]()
				if rng.IntN(3) == 0 {
					p = ps[rng.IntN(len(ps))]()
				}
				kind, reply = wrappers[rng.IntN(len(wrappers))](p)
			}
			out = append(out, practiceReply{ID: len(out), Parser: parser, Kind: kind, Reply: reply})
		}
	}
	return out
}

const practiceCorpusPath = "testdata/parsers/practice.inputs.jsonl"

// sourceReading is what the release took from a reply (practice.source.jsonl).
type sourceReading struct {
	Proposals []string         `json:"proposals"`
	Scenes    []string         `json:"scenes"`
	Pass      []bool           `json:"pass"`
	Plans     [][2]string      `json:"plans"`
	Memory    *json.RawMessage `json:"memory"`
}

func TestPracticeParserParity(t *testing.T) {
	corpus := practiceCorpus(2407, 2000)
	if *update {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		for _, r := range corpus {
			if err := enc.Encode(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(filepath.Dir(practiceCorpusPath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(practiceCorpusPath, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := corpus
	want := readLines[sourceReading](t, "testdata/parsers/practice.source.jsonl")
	if len(want) != len(in) || len(in) < 6*2000 {
		t.Fatalf("%d replies, %d captured readings; want the same number, at least 2000 per parser (a changed generator: -update, then capture again)", len(in), len(want))
	}
	type tally struct{ own, all int }
	agree := map[string]*tally{}
	source := 0
	for i, r := range in {
		if readsAsRelease(r, want[i], true) {
			source++
		} else if i-source < 10 {
			t.Errorf("reply %d (%s, %s) %q: the source-mode parser reads it otherwise than the release (%+v)", r.ID, r.Parser, r.Kind, r.Reply, want[i])
		}
		key := r.Parser + " " + r.Kind
		if r.Parser == "proposals" {
			key = r.Parser
		}
		if agree[key] == nil {
			agree[key] = &tally{}
		}
		agree[key].all++
		if readsAsRelease(r, want[i], false) {
			agree[key].own++
		}
	}
	if source != len(in) {
		t.Errorf("source-mode practice parsers agree with the release on %d of %d replies", source, len(in))
	}
	t.Logf("source-mode practice parsers: %d of %d replies read as the release reads them", source, len(in))
	for _, k := range slices.Sorted(maps.Keys(agree)) {
		t.Logf("own parser, %-24s %4d of %4d as the release", k, agree[k].own, agree[k].all)
	}
}

// readsAsRelease compares a parser (the source-mode one, or our own)
// with the release's reading.
func readsAsRelease(r practiceReply, w sourceReading, source bool) bool {
	switch r.Parser {
	case "proposals":
		got := ParseProposals(r.Reply)
		if source {
			got = ParseProposalsSource(r.Reply)
		}
		return slices.Equal(got, w.Proposals) || len(got) == 0 && len(w.Proposals) == 0
	case "scenes":
		parse := ParseScenes
		if source {
			parse = ParseScenesSource
		}
		got, ok := parse(r.Reply, 7)
		// The release runs the check only with 7 scenes or more, on the first 7.
		if len(w.Scenes) < 7 {
			return !ok
		}
		return ok && slices.Equal(got, w.Scenes[:7])
	case "generalize":
		parse := ParseGeneralization
		if source {
			parse = ParseGeneralizationSource
		}
		return slices.Equal(parse(r.Reply, 3).Pass, w.Pass)
	case "judge":
		parse := ParsePerturbationJudge
		if source {
			parse = ParsePerturbationJudgeSource
		}
		return slices.Equal(parse(r.Reply, 3).Pass, w.Pass)
	case "perturb":
		parse := ParsePerturbations
		if source {
			parse = ParsePerturbationsSource
		}
		got, _ := parse(r.Reply)
		if len(got) != len(w.Plans) {
			return false
		}
		for i, p := range got {
			if p.Desc != w.Plans[i][0] || p.Details != w.Plans[i][1] {
				return false
			}
		}
		return true
	case "review":
		parse := ParseReview
		if source {
			parse = ParseReviewSource
		}
		m, ok := parse(r.Reply)
		var wm struct {
			UserExp  []string `json:"user_exp"`
			ModelExp []string `json:"model_exp"`
			Proposal []string `json:"proposal"`
		}
		if w.Memory == nil || json.Unmarshal(*w.Memory, &wm) != nil {
			// Kept the old memory, or took a value it cannot list.
			return !ok
		}
		return ok && slices.Equal(m.UserExp, wm.UserExp) && slices.Equal(m.ModelExp, wm.ModelExp) && slices.Equal(m.Proposal, wm.Proposal)
	}
	return false
}

func readLines[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (go test ./methods/pramem -run TestPracticeParserParity -update writes the corpus; testdata/capture/parser_capture.py the readings)", err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
