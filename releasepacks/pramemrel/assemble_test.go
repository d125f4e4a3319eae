package pramemrel

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/template"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm/tokens"
	"github.com/memharness/memharness/methods/predict"
)

// writeTemplates renders the stand-in pack's templates to a file.
func writeTemplates(t *testing.T) string {
	t.Helper()
	text, err := openStandin(t).Templates()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "release.tmpl")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var sampleHistory = []behavior.Event{
	{Time: "2025-09-02 08:00:00", Scene: "视频浏览", Context: "a clip about {braces} and 【行为 markers", Result: "watched"},
	{Time: "2025-09-03", Scene: "广告推荐", Context: "an ad", Result: "skipped"},
}

// TestEvalPromptsGolden renders the yes/no and rating prompts through the
// harness's own predict.Prompts with the pack's templates.
func TestEvalPromptsGolden(t *testing.T) {
	p, err := predict.LoadPrompts("zh", writeTemplates(t))
	if err != nil {
		t.Fatal(err)
	}
	c := tokens.Approx{}
	w, err := p.SelectWindow(c, sampleHistory, 8000)
	if err != nil {
		t.Fatal(err)
	}
	hist, err := p.HistoryBlock(sampleHistory[w.Start:], w.Tokens)
	if err != nil {
		t.Fatal(err)
	}
	empty, err := p.HistoryBlock(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	target := behavior.Event{Time: "2025-10-01 20:00:00", Scene: "直播间", Context: "a live room", Result: "gift"}
	inst := behavior.Instance{ID: "u/0/live_sent_gift", Profile: "First sentence。Second.", Target: target,
		Question: behavior.Question{Field: "live_sent_gift", Kind: behavior.Binary, Text: openStandin(t).Question("live_sent_gift")}}
	binary, err := p.Question(inst, hist)
	if err != nil {
		t.Fatal(err)
	}
	inst.Question = behavior.Question{Field: "movie_rating", Kind: behavior.MultiClass, Classes: []string{"1", "2", "3", "4", "5"}}
	rating, err := p.Question(inst, empty)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "binary.txt", predict.WithMemory(binary, "MEMORY"))
	golden(t, "rating.txt", rating)
	// The record costed for the window is the unnumbered form.
	cost, err := p.RecordCost(tokens.CounterFunc(func(s string) int { return len(s) }), sampleHistory[1])
	if err != nil {
		t.Fatal(err)
	}
	if want := len("[Rec]at 2025-09-03\n  kind: 广告推荐\n  seen: an ad\n  did: skipped\n"); cost != want {
		t.Errorf("record cost %d, want %d", cost, want)
	}
}

// pq is what methods/pramem passes to practice_question.
type pq struct {
	Field, Text string
	Continuous  bool
}

// textPrompt and textQuestion are what methods/pramem passes to
// practice_text_prompt and practice_text_question.
type textPrompt struct{ Field, Profile, History, Question string }

type textQuestion struct {
	Field, Context, Dialogue string
	HasDialogue              bool
}

// stageFuncs mirror methods/pramem's template functions.
var stageFuncs = template.FuncMap{
	"inc":        func(i int) int { return i + 1 },
	"dec":        func(i int) int { return i - 1 },
	"trimspace":  strings.TrimSpace,
	"trimsuffix": strings.TrimSuffix,
	"replace":    strings.ReplaceAll,
}

// TestStagePromptsGolden renders the PraMem templates with the data shapes
// methods/pramem passes (the end-to-end run in package bench checks they
// execute there too).
func TestStagePromptsGolden(t *testing.T) {
	text, err := openStandin(t).Templates()
	if err != nil {
		t.Fatal(err)
	}
	tm, err := template.New("").Funcs(stageFuncs).Option("missingkey=error").Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	run := func(name string, data any) string {
		var b strings.Builder
		if err := tm.ExecuteTemplate(&b, name, data); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return b.String()
	}
	type memoryData struct {
		Pattern, Calibration, Proposal []string
		WithProposal                   bool
	}
	mem := run("memory", memoryData{Pattern: []string{"likes cooking lives"}, Proposal: []string{"p1"}})
	memPool := run("memory", memoryData{Pattern: []string{"a", "b"}, Calibration: []string{"c"}, Proposal: []string{"p1"}, WithProposal: true})
	task := run("practice_task", struct {
		K                    int
		Time, Scene, Context string
		Questions            []string
	}{1, "2025-09-20", "直播间", "room {x}", []string{"Q1?", "", "Q2?"}})
	input := run("practice_input", struct{ Before, Task string }{"role\n## Part B: history\nrecords\n\n", task})
	label := run("practice_label", struct {
		K                            int
		Time, Scene, Context, Result string
	}{1, "2025-09-20", "直播间", "ctx with [Rec inside", "sent a gift"})
	var out strings.Builder
	for _, s := range []struct{ name, text string }{
		{"memory", mem},
		{"memory with pool", memPool},
		{"eval", run("eval", struct{ Memory string }{mem})},
		{"practice input", input},
		{"practice label", label},
		{"trial", run("trial", struct{ Input, Memory string }{input, mem})},
		{"reflect", run("reflect", struct {
			Memory, Input, Trial, Label string
			N                           int
		}{mem, input, "Yes", label, 0})},
		{"scenes", run("scenes", struct {
			RealText string
			M        int
		}{"Scene details:\nroom...", 7})},
		{"generalize", run("generalize", struct{ Options, Proposals string }{"A. real\nB. other\n", "0. p0\n1. p1"})},
		{"perturb", run("perturb", struct {
			History string
			N       int
		}{"## Part B: history\n...", 1})},
		{"perturb_judge", run("perturb_judge", struct{ History, Desc, Details, Proposals string }{"h", "d", "x", "0. p0"})},
		{"review", run("review", struct {
			Memory, Pool string
			Support      int
		}{mem, "1. p1", 3})},
		{"markers", run("marker_history", nil) + "|" + run("marker_details", nil) + "|" + run("marker_scene", nil) + "|" + run("marker_task", nil)},
		{"practice_question_rating", run("practice_question_rating", struct{ Text, Classes string }{"t", "[1]"})},
		{"practice_field_order", run("practice_field_order", nil)},
		{"practice_text_prompt", strings.Join([]string{
			run("practice_text_prompt", textPrompt{"search_keyword", "me", "HIST", "unused"}),
			run("practice_text_prompt", textPrompt{"next_user_message", "me", "HIST", "Q?"}),
			run("practice_text_prompt", textPrompt{"other_text", "me", "HIST", "Q?"}),
		}, "\n--\n")},
		{"practice_text_question", strings.Join([]string{
			run("practice_text_question", textQuestion{"search_keyword", "ctx", "", false}),
			run("practice_text_question", textQuestion{"next_user_message", "order 7", "", false}),
			run("practice_text_question", textQuestion{"next_user_message", "order 7", "用户: hi\n客服: hello", true}),
		}, "\n--\n")},
		{"practice_task_text", run("practice_task_text", struct {
			K         int
			Questions []string
		}{1, []string{"line one", "line two"}})},
		{"practice_question", strings.Join([]string{
			run("practice_question", pq{"video_liked", "own", false}),
			run("practice_question", pq{"live_watch_seconds", "", true}),
			run("practice_question", pq{"ad_watch_seconds", "", true}),
			run("practice_question", pq{"ad_clicked", "own", false}),
		}, "\n")},
	} {
		out.WriteString("===== " + s.name + " =====\n" + s.text + "\n")
	}
	golden(t, "stages.txt", out.String())
}
