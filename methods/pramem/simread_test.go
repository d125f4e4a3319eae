package pramem

import (
	"context"
	"encoding/json"
	"github.com/memharness/memharness/llm/sim"
	"strconv"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
)

// pmTask: 12 visible live records; category 手工 gifts 5 of 6 times,
// others never; the target is a 手工 live.
func pmTask() PraMemTask {
	var vis []hint.Event
	for i := range 12 {
		cat, y := "户外", 0.0
		if i%2 == 0 {
			cat = "手工"
			if i != 4 {
				y = 1
			}
		}
		vis = append(vis, hint.Event{Scene: "直播间", Attrs: map[string]string{"live_category": cat, "items": "商品" + strconv.Itoa(i)},
			Outcomes: map[string]float64{"live_sent_gift": y, "live_liked": 0}})
	}
	return PraMemTask{
		Visible:   vis,
		Target:    hint.Event{Scene: "直播间", Attrs: map[string]string{"live_category": "手工", "items": "奶瓶"}},
		Questions: []PraMemQuestion{{Field: "live_liked", Kind: "binary"}, {Field: "live_sent_gift", Kind: "binary"}},
	}
}

func pmGenerate(t *testing.T, h any) string {
	t.Helper()
	resp, err := newSim(sim.Config{}).Generate(context.Background(), llm.Request{Purpose: "pramem.test", Hint: h})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Text
}

func TestPraMemTrialAndReflect(t *testing.T) {
	task := pmTask()
	trial := pmGenerate(t, PraMemTrial{Task: task})
	if !strings.Contains(trial, "Prediction [live_sent_gift]: Yes") || !strings.Contains(trial, "Prediction [live_liked]: No") {
		t.Fatalf("trial:\n%s", trial)
	}
	// A memory fact moves the deep-thinking trial, not the direct one.
	mem := "- [live_liked] live_category=手工: mean 1.00 over 40 records\n- [live_liked] bias: shift +0.20"
	if got := pmGenerate(t, PraMemTrial{Task: task, Memory: mem}); !strings.Contains(got, "Prediction [live_liked]: Yes") {
		t.Errorf("trial with memory:\n%s", got)
	}
	if got := pmGenerate(t, PraMemTrial{Task: task, Memory: mem, Direct: true}); !strings.Contains(got, "Prediction [live_liked]: No") {
		t.Errorf("direct trial used the memory:\n%s", got)
	}

	tests := []struct {
		name   string
		label  map[string]float64
		memory string
		direct bool
		want   []string // proposal contents (after the last '|')
	}{
		// Right answers still teach: per field its strongest habit, or the
		// scene's decided rate where no value stands out (live_liked is
		// never 1 here).
		{"all correct: each field's habit", map[string]float64{"live_liked": 0, "live_sent_gift": 1}, "", false,
			[]string{"- [live_liked] scene=直播间: mean 0.00 over 12 records (sum 0)", "- [live_sent_gift] live_category=手工: mean 0.83 over 6 records (sum 5)"}},
		{"all correct, memory holds the habits: nothing new", map[string]float64{"live_liked": 0, "live_sent_gift": 1},
			"- [live_liked] scene=直播间: mean 0.00 over 10 records (sum 0)\n- [live_sent_gift] live_category=手工: mean 0.80 over 5 records (sum 4)", false, nil},
		{"all correct, direct: no analysis, nothing", map[string]float64{"live_liked": 0, "live_sent_gift": 1}, "", true, nil},
		{"over-predicted gift: calibration, the scene's habit, the right field's rate", map[string]float64{"live_liked": 0, "live_sent_gift": 0}, "", false,
			[]string{"- [live_sent_gift] bias: shift -0.10", "- [live_sent_gift] live_category=手工: mean 0.83 over 6 records (sum 5)",
				"- [live_liked] scene=直播间: mean 0.00 over 12 records (sum 0)"}},
		{"missed like: habit of the scene proposed", map[string]float64{"live_liked": 1, "live_sent_gift": 1}, "", false,
			[]string{"- [live_liked] bias: shift +0.10", "- [live_sent_gift] live_category=手工: mean 0.83 over 6 records (sum 5)"}},
		{"direct: calibration only", map[string]float64{"live_liked": 1, "live_sent_gift": 1}, "", true,
			[]string{"- [live_liked] bias: shift +0.10"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := pmGenerate(t, PraMemReflect{Task: task, Trial: trial, Label: tt.label, Memory: tt.memory, Direct: tt.direct})
			var got []string
			for line := range strings.Lines(out) {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "【提议】"); ok {
					parts := strings.Split(rest, "|")
					content := strings.TrimSpace(parts[len(parts)-1])
					if _, ok := sim.ParseFact(content); !ok {
						t.Errorf("proposal %q is not in the fact grammar", content)
					}
					got = append(got, content)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("proposals:\n%s\nwant:\n%s\nfull answer:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"), out)
			}
			if len(tt.want) == 0 && !strings.Contains(out, "No proposals this round.") {
				t.Errorf("no 'no proposals' line:\n%s", out)
			}
		})
	}
}

func TestPraMemSelfReview(t *testing.T) {
	real := "这是一个直播间，直播类型是手工场景，在卖奶瓶。"
	out := pmGenerate(t, PraMemScenes{RealText: real, Real: hint.Event{Attrs: map[string]string{"live_category": "手工", "items": "奶瓶"}}, M: 3})
	_, body, _ := strings.Cut(out, "```json\n")
	body, _, _ = strings.Cut(body, "```")
	var scenes []string
	if err := json.Unmarshal([]byte(body), &scenes); err != nil || len(scenes) != 3 {
		t.Fatalf("scenes %q (%v):\n%s", scenes, err, out)
	}
	for _, s := range scenes {
		if strings.Contains(s, "奶瓶") || !strings.Contains(s, "手工") {
			t.Errorf("virtual scene %q keeps the entity or loses the category", s)
		}
	}
	options := append([]string{real}, scenes...)
	gen := pmGenerate(t, PraMemGeneralize{Options: options, Proposals: []string{
		"直播间 | add Pattern | - [live_sent_gift] live_category=手工: mean 0.83 over 6 records",
		"直播间 | add Pattern | - [live_sent_gift] items=奶瓶: mean 1.00 over 3 records",
		"直播间 | add Calibration | - [live_sent_gift] bias: shift +0.10",
		"free prose",
	}})
	for i, want := range []string{`"generalization_passed": true`, `"generalization_passed": false`, `"generalization_passed": true`, `"generalization_passed": true`} {
		if !strings.Contains(strings.Split(gen, "proposal_idx")[i+1], want) {
			t.Errorf("proposal %d: want %s in\n%s", i, want, gen)
		}
	}

	hist := pmTask().Visible
	judge := pmGenerate(t, PraMemPerturbJudge{History: hist, Proposals: []string{
		"- [live_sent_gift] live_category=手工: mean 0.83 over 6 records", // grounded: flips to 0.17
		"- [live_sent_gift] live_category=钓鱼: mean 0.90 over 9 records", // no shown record: fabricated
		"- [live_sent_gift] all: mean 0.50 over 12 records",             // unchanged by the flip
		"- [live_sent_gift] bias: shift +0.10",
	}})
	for i, want := range []string{`"is_sensitive": true`, `"is_sensitive": false`, `"is_sensitive": false`, `"is_sensitive": true`} {
		if !strings.Contains(strings.Split(judge, "proposal_idx")[i+1], want) {
			t.Errorf("proposal %d: want %s in\n%s", i, want, judge)
		}
	}
}

func TestPraMemReview(t *testing.T) {
	h := PraMemReview{
		UserExp:  []string{"- [live_liked] all: mean 0.10 over 10 records (sum 1)"},
		ModelExp: []string{},
		Proposal: []string{
			"直播间 | add Pattern | - [live_sent_gift] live_category=手工: mean 0.80 over 10 records (sum 8)",
			"直播间 | add Calibration | - [live_liked] bias: shift +0.10",
			"直播间 | add Pattern | - [live_sent_gift] live_category=手工: mean 1.00 over 5 records (sum 5)",
			"直播间 | add Calibration | - [live_liked] bias: shift -0.10",
			"直播间 | add Pattern | - [live_sent_gift] live_category=手工: mean 0.60 over 5 records (sum 3)",
			"直播间 | add Calibration | - [live_liked] bias: shift +0.10",
		},
		Support: 3,
	}
	out := pmGenerate(t, h)
	_, body, _ := strings.Cut(out, "```json\n")
	body, _, _ = strings.Cut(body, "```")
	var got struct{ UserExp, ModelExp, Proposal []string }
	if err := json.Unmarshal([]byte(strings.NewReplacer("user_exp", "UserExp", "model_exp", "ModelExp", "proposal", "Proposal").Replace(body)), &got); err != nil {
		t.Fatal(err, out)
	}
	wantUser := []string{h.UserExp[0], "- [live_sent_gift] live_category=手工: mean 0.80 over 20 records (sum 16)"}
	if strings.Join(got.UserExp, "\n") != strings.Join(wantUser, "\n") || strings.Join(got.ModelExp, "\n") != "- [live_liked] bias: shift +0.03" || len(got.Proposal) != 0 {
		t.Errorf("review memory %+v", got)
	}
	h.Support = 4
	out = pmGenerate(t, h)
	if !strings.Contains(out, "0 observation(s)") || strings.Count(out, "add Pattern") != 3 {
		t.Errorf("support 4 adopted something:\n%s", out)
	}
}

func TestPraMemDispatch(t *testing.T) {
	s := newSim(sim.Config{})
	if _, err := s.Generate(context.Background(), llm.Request{Purpose: "pramem.review", Hint: &PraMemReview{Support: 3}}); err != nil {
		t.Errorf("pointer hint: %v", err)
	}
	var nilHint *PraMemTrial
	if _, err := s.Generate(context.Background(), llm.Request{Purpose: "pramem.trial", Hint: nilHint}); err == nil || !strings.Contains(err.Error(), "pramem.trial") {
		t.Errorf("nil pointer hint: err %v", err)
	}
}
