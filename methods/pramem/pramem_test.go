package pramem

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/predict"
)

// TestResumeAfterCrash cancels the build mid-round, resumes it from the
// checkpoints and compares the final memory with an uninterrupted build.
func TestResumeAfterCrash(t *testing.T) {
	sets, _ := omniUsers(t, 2, 10, 5)
	spec := predict.Spec{Kind: Kind, PraMem: &predict.PraMemSpec{Rounds: 14}}
	build := func(st *memStore, cm *countingModel, ctx context.Context) ([]predict.Memory, error) {
		m, err := New(spec)
		if err != nil {
			t.Fatal(err)
		}
		env := simEnv(st)
		env.Model = cm
		var out []predict.Memory
		for _, u := range sets {
			mem, err := m.PrepareUser(ctx, env, u)
			if err != nil {
				return out, err
			}
			out = append(out, mem)
		}
		return out, nil
	}
	first := &countingModel{Model: simEnv(nil).Model}
	whole, err := build(newMemStore(), first, context.Background())
	if err != nil {
		t.Fatal(err)
	}

	for _, crashAt := range []int{1, 23, 60} {
		t.Run(fmt.Sprint(crashAt), func(t *testing.T) {
			st := newMemStore()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			crash := &countingModel{Model: simEnv(nil).Model, after: crashAt, cancel: cancel}
			if _, err := build(st, crash, ctx); !errors.Is(err, context.Canceled) {
				t.Fatalf("crash run: err %v, want context.Canceled", err)
			}
			resume := &countingModel{Model: simEnv(nil).Model}
			got, err := build(st, resume, context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for i := range whole {
				if got[i].Text != whole[i].Text || got[i].Meta["memory_json"] != whole[i].Meta["memory_json"] {
					t.Errorf("user %d: resumed memory differs:\n%v\nwant\n%v", i, got[i].Meta["memory_json"], whole[i].Meta["memory_json"])
				}
				if d := cmp.Diff(whole[i].Meta["snapshot_tokens"], got[i].Meta["snapshot_tokens"]); d != "" {
					t.Errorf("user %d: snapshot tokens (-whole +resumed):\n%s", i, d)
				}
			}
			// The rounds finished before the crash are not replayed.
			if crashAt > 10 && resume.n >= first.n {
				t.Errorf("resume made %d calls (a whole build makes %d) after a crash at call %d: nothing was reused", resume.n, first.n, crashAt)
			}
		})
	}
}

// scripted answers each practice stage with a fixed text and predictions
// with "No".
type scripted map[string]string

func (s scripted) Generate(_ context.Context, req llm.Request) (llm.Response, error) {
	stage := strings.TrimPrefix(req.Purpose, "pramem.")
	if req.Purpose == "predict" {
		return llm.Response{Text: "No"}, nil
	}
	text, ok := s[stage]
	if !ok {
		return llm.Response{}, fmt.Errorf("scripted: no answer for %s", req.Purpose)
	}
	return llm.Response{Text: text, Usage: llm.Usage{PromptTokens: 3, CompletionTokens: 1}}, nil
}

const (
	twoProposals = "分析……\n【提议】 直播间 | add Pattern | 手工直播常送礼\n【提议】 直播间 | add Calibration | 别高估点赞\n"
	sevenScenes  = "```json\n[\"s1\",\"s2\",\"s3\",\"s4\",\"s5\",\"s6\",\"s7\"]\n```"
	genSplit     = "```json\n[{\"proposal_idx\":0,\"generalization_passed\":true},{\"proposal_idx\":1,\"generalization_passed\":false}]\n```"
	genAllPass   = "```json\n[{\"proposal_idx\":0,\"generalization_passed\":true},{\"proposal_idx\":1,\"generalization_passed\":true}]\n```"
	onePlan      = "```json\n[{\"perturbation_desc\":\"flip\",\"perturbation_details\":\"all\"}]\n```"
	allSensitive = "```json\n[{\"proposal_idx\":0,\"is_sensitive\":true},{\"proposal_idx\":1,\"is_sensitive\":true}]\n```"
	reviewAdopt  = "Adopt the first.\n```json\n{\"user_exp\":[\"手工直播常送礼\"],\"model_exp\":[],\"proposal\":[]}\n```"
)

func tinyUser() behavior.UserSet {
	var hist []behavior.Event
	for i := range 30 {
		hist = append(hist, behavior.Event{
			Time: fmt.Sprintf("2025-09-%02d 10:00:00", i%28+1), Scene: "直播间", RawScene: "直播间",
			Context: fmt.Sprintf("这是第 %d 个直播间。", i), Result: "仅浏览未进行其他操作",
			Attrs: map[string]string{"live_category": "手工"}, Outcomes: map[string]float64{"live_sent_gift": float64(i % 2)},
		})
	}
	inst := behavior.Instance{
		ID: "omnibehavior/u1/0/live_sent_gift", Dataset: "omnibehavior", User: "u1", Profile: "一位用户。",
		History: hist, PracticeCut: 30,
		Target:   behavior.Event{Time: "2025-10-02 10:00:00", Scene: "直播间", Context: "目标直播间。"},
		Question: behavior.Question{Field: "live_sent_gift", Kind: behavior.Binary, Text: "会送礼吗？", Label: "1"},
	}
	return behavior.UserSet{User: "u1", Profile: "一位用户。", Instances: []behavior.Instance{inst}}
}

// TestMalformedOutputBehaviour checks the §4.8 table stage by stage: what
// passes, what is rejected, what the memory becomes, and that each case is
// counted in the round's events.
func TestMalformedOutputBehaviour(t *testing.T) {
	good := scripted{"trial": "whatever", "reflect": twoProposals, "scenes": sevenScenes, "generalize": genSplit,
		"perturb": onePlan, "perturb_judge": allSensitive, "review": reviewAdopt}
	with := func(stage, text string) scripted {
		s := scripted{}
		for k, v := range good {
			s[k] = v
		}
		s[stage] = text
		return s
	}
	tests := []struct {
		name       string
		model      scripted
		spec       predict.PraMemSpec
		wantPool   []string // pool after round 0 (no review there)
		wantEvents []string
		wantFinal  ExpMemory
	}{
		{"all good", good, predict.PraMemSpec{}, []string{"直播间 | add Pattern | 手工直播常送礼"}, nil,
			ExpMemory{UserExp: []string{"手工直播常送礼"}}},
		{"no proposals", with("reflect", "本轮无提议"), predict.PraMemSpec{}, []string{}, []string{EvNoProposals},
			ExpMemory{UserExp: []string{"手工直播常送礼"}}},
		{"scenes unparsable: all pass", with("scenes", "no json"), predict.PraMemSpec{},
			[]string{"直播间 | add Pattern | 手工直播常送礼", "直播间 | add Calibration | 别高估点赞"}, []string{EvScenesUnparsable}, ExpMemory{UserExp: []string{"手工直播常送礼"}}},
		{"too few scenes: all pass", with("scenes", `["s1"]`), predict.PraMemSpec{},
			[]string{"直播间 | add Pattern | 手工直播常送礼", "直播间 | add Calibration | 别高估点赞"}, []string{EvScenesUnparsable}, ExpMemory{UserExp: []string{"手工直播常送礼"}}},
		{"judge unparsable: all pass", with("generalize", "garbage"), predict.PraMemSpec{},
			[]string{"直播间 | add Pattern | 手工直播常送礼", "直播间 | add Calibration | 别高估点赞"}, []string{EvGeneralizeBad}, ExpMemory{UserExp: []string{"手工直播常送礼"}}},
		{"judge missing index passes", with("generalize", `[{"proposal_idx":1,"generalization_passed":false}]`), predict.PraMemSpec{},
			[]string{"直播间 | add Pattern | 手工直播常送礼"}, []string{EvGeneralizeDefault}, ExpMemory{UserExp: []string{"手工直播常送礼"}}},
		{"perturbation unparsable: all pass", with("perturb", "none"), predict.PraMemSpec{},
			[]string{"直播间 | add Pattern | 手工直播常送礼"}, []string{EvPerturbUnparsable}, ExpMemory{UserExp: []string{"手工直播常送礼"}}},
		{"perturbation judge unparsable: all rejected", with("perturb_judge", "hmm"), predict.PraMemSpec{},
			[]string{}, []string{EvJudgeBad}, ExpMemory{UserExp: []string{"手工直播常送礼"}}},
		{"perturbation judge missing index rejected", with("perturb_judge", `[{"proposal_idx":1,"is_sensitive":true}]`), predict.PraMemSpec{},
			[]string{}, []string{EvJudgeDefault}, ExpMemory{UserExp: []string{"手工直播常送礼"}}},
		{"review unparsable: old memory kept", with("review", "I keep it all."), predict.PraMemSpec{},
			[]string{"直播间 | add Pattern | 手工直播常送礼"}, nil,
			ExpMemory{Proposal: slices.Repeat([]string{"直播间 | add Pattern | 手工直播常送礼"}, 5)}},
		{"released no-op grounding", good, predict.PraMemSpec{ReleaseNoopGrounding: true},
			[]string{"直播间 | add Pattern | 手工直播常送礼"}, []string{EvHistoryNotFound}, ExpMemory{UserExp: []string{"手工直播常送礼"}}},
		{"no generalization", with("generalize", "unused"), predict.PraMemSpec{NoGeneralization: true},
			[]string{"直播间 | add Pattern | 手工直播常送礼", "直播间 | add Calibration | 别高估点赞"}, nil, ExpMemory{UserExp: []string{"手工直播常送礼"}}},
		{"no groundedness", with("perturb_judge", "unused"), predict.PraMemSpec{NoGroundedness: true},
			[]string{"直播间 | add Pattern | 手工直播常送礼"}, nil, ExpMemory{UserExp: []string{"手工直播常送礼"}}},
		{"no consensus adopts by type", with("generalize", genAllPass), predict.PraMemSpec{NoConsensus: true},
			[]string{}, []string{EvDirectAdoption},
			ExpMemory{UserExp: slices.Repeat([]string{"手工直播常送礼"}, 5), ModelExp: slices.Repeat([]string{"别高估点赞"}, 5)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := tt.spec
			spec.Rounds = 5
			m, err := New(predict.Spec{Kind: Kind, PraMem: &spec})
			if err != nil {
				t.Fatal(err)
			}
			st := newMemStore()
			mem, err := m.PrepareUser(context.Background(), predict.Env{Model: tt.model, Checkpoints: st}, tinyUser())
			if err != nil {
				t.Fatal(err)
			}
			var r0 Round
			if ok, _ := st.Load("u1", roundName(m.(*method).cfg.ns, 0), &r0); !ok {
				t.Fatal("no checkpoint of round 0")
			}
			if d := cmp.Diff(tt.wantPool, r0.After.Proposal); d != "" && !spec.NoConsensus {
				t.Errorf("pool after round 0 (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.wantEvents, r0.Events); d != "" {
				t.Errorf("events of round 0 (-want +got):\n%s", d)
			}
			want := tt.wantFinal.normalize()
			if got := mem.Meta["memory_json"]; got != mustJSON(t, want) {
				t.Errorf("final memory %v, want %s", got, mustJSON(t, want))
			}
			if r0.Calls == 0 || mem.Calls == 0 || mem.Usage.PromptTokens == 0 {
				t.Errorf("calls not accounted: round %d, memory %d, usage %+v", r0.Calls, mem.Calls, mem.Usage)
			}
		})
	}
}

func mustJSON(t *testing.T, m ExpMemory) string {
	t.Helper()
	m2, err := (&method{}).memory(predict.Env{}, mustPrompts(t), config{sections: SectionsBoth}, m, map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	return m2.Meta["memory_json"].(string)
}

func mustPrompts(t *testing.T) *stagePrompts {
	t.Helper()
	sp, err := loadStagePrompts("zh", nil)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// failing fails every call of one stage.
type failing struct {
	scripted
	stage string
}

func (f failing) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	if req.Purpose == "pramem."+f.stage {
		return llm.Response{}, errors.New("HTTP 500")
	}
	return f.scripted.Generate(ctx, req)
}

// TestFailedCallSkipsRound: a call failing twice skips the round, records
// the error and keeps the pool mutations made before it.
func TestFailedCallSkipsRound(t *testing.T) {
	model := failing{scripted: scripted{"trial": "x", "reflect": twoProposals, "scenes": sevenScenes, "generalize": genSplit,
		"perturb": onePlan, "perturb_judge": allSensitive}, stage: "review"}
	m, err := New(predict.Spec{Kind: Kind, PraMem: &predict.PraMemSpec{Rounds: 5}})
	if err != nil {
		t.Fatal(err)
	}
	st := newMemStore()
	mem, err := m.PrepareUser(context.Background(), predict.Env{Model: model, Checkpoints: st}, tinyUser())
	if err != nil {
		t.Fatal(err)
	}
	var r4 Round
	st.Load("u1", roundName(m.(*method).cfg.ns, 4), &r4)
	if r4.Error == "" || !slices.Contains(r4.Events, EvRoundError) {
		t.Errorf("round 4: error %q events %v", r4.Error, r4.Events)
	}
	if len(r4.After.Proposal) != 5 || mem.Meta["round_errors"] != 1 {
		t.Errorf("pool after the failed review %q (want 5 kept), round errors %v", r4.After.Proposal, mem.Meta["round_errors"])
	}
}

func TestAblationPrompts(t *testing.T) {
	tests := []struct {
		spec       predict.PraMemSpec
		lang       string
		wantTrial  string // a phrase only that stage's template has
		wantReflex string
	}{
		{predict.PraMemSpec{}, "", "列出与该任务相关的模式经验条目", "第一步"},
		{predict.PraMemSpec{NoTrial: true, NoReflection: true}, "", "直接给出上面每个练习任务的预测", "不需要逐题分析"},
		{predict.PraMemSpec{N: 10}, "en", "list the Pattern entries relevant", "Write exactly 10 proposals."},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%+v/%s", tt.spec, tt.lang), func(t *testing.T) {
			spec := tt.spec
			spec.Rounds = 1
			var reqs []llm.Request
			model := llm.ModelFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
				reqs = append(reqs, req)
				return scripted{"trial": "x", "reflect": "none", "review": reviewAdopt}.Generate(ctx, req)
			})
			// A purpose's settings reach that stage's requests only.
			m, err := New(predict.Spec{Kind: Kind, Language: tt.lang, PraMem: &spec,
				Sampling: map[string]llm.Params{Purpose("trial"): {MaxTokens: 123}}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := m.PrepareUser(context.Background(), predict.Env{Model: model}, tinyUser()); err != nil {
				t.Fatal(err)
			}
			if len(reqs) != 3 || !strings.Contains(reqs[0].Messages[0].Content, tt.wantTrial) || !strings.Contains(reqs[1].Messages[0].Content, tt.wantReflex) {
				t.Fatalf("%d calls; trial/reflect prompts lack %q / %q", len(reqs), tt.wantTrial, tt.wantReflex)
			}
			if !strings.Contains(reqs[0].Messages[0].Content, "===== Practice task 1 =====") || reqs[0].Params.MaxTokens != 123 || reqs[1].Params.MaxTokens != 0 {
				t.Errorf("trial prompt without the task header, or max tokens %d (trial) and %d (reflect), want 123 and 0", reqs[0].Params.MaxTokens, reqs[1].Params.MaxTokens)
			}
		})
	}
}

func TestMemoryDirAndFallback(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "u1_0.json"), []byte(`{"user_exp":["常给手工直播送礼"],"model_exp":["别高估点赞"],"proposal":["pending"]}`), 0o644)
	u := tinyUser()
	missing := tinyUser()
	missing.User, missing.Instances[0].User = "u2", "u2"
	// A user ID that would name a file outside the memory folder has none
	// (outside_0.json sits beside the folder, and must not be read).
	os.WriteFile(filepath.Join(filepath.Dir(dir), "outside_0.json"), []byte(`{"user_exp":["leaked"]}`), 0o644)
	escaping := tinyUser()
	escaping.User, escaping.Instances[0].User = "../outside", "../outside"
	tests := []struct {
		name     string
		spec     predict.PraMemSpec
		user     behavior.UserSet
		wantErr  string
		wantText []string
		noText   []string
	}{
		{"loads the released layout", predict.PraMemSpec{MemoryDir: dir}, u, "", []string{"1. 常给手工直播送礼", "1. 别高估点赞"}, []string{"pending"}},
		{"pattern only", predict.PraMemSpec{MemoryDir: dir, Sections: SectionsPattern}, u, "", []string{"1. 常给手工直播送礼"}, []string{"别高估点赞"}},
		{"bias only", predict.PraMemSpec{MemoryDir: dir, Sections: SectionsBias}, u, "", []string{"1. 别高估点赞"}, []string{"常给手工直播送礼"}},
		{"missing is an error", predict.PraMemSpec{MemoryDir: dir}, missing, "no memory file", nil, nil},
		{"missing falls back", predict.PraMemSpec{MemoryDir: dir, FallbackTruncation: true}, missing, "", nil, []string{"经验记忆"}},
		{"an ID leaving the folder has no file", predict.PraMemSpec{MemoryDir: dir}, escaping, "cannot name a file", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := tt.spec
			m, err := New(predict.Spec{Kind: Kind, PraMem: &spec})
			if err != nil {
				t.Fatal(err)
			}
			var prompt string
			model := llm.ModelFunc(func(_ context.Context, req llm.Request) (llm.Response, error) {
				prompt = req.Messages[0].Content
				return llm.Response{Text: "Yes"}, nil
			})
			env := predict.Env{Model: model}
			mem, err := m.PrepareUser(context.Background(), env, tt.user)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			out, err := m.Predict(context.Background(), env, mem, tt.user.Instances[0])
			if err != nil || !out.Valid || out.Pred != "1" {
				t.Fatalf("predict: %+v, %v", out, err)
			}
			if !strings.Contains(prompt, "你的回答：") {
				t.Fatal("not the question prompt")
			}
			if mem.Text != "" && !strings.HasSuffix(prompt, "你的回答：\n\n"+mem.Text) {
				t.Error("memory block not appended after the whole question")
			}
			for _, s := range tt.wantText {
				if !strings.Contains(prompt, s) {
					t.Errorf("prompt lacks %q", s)
				}
			}
			for _, s := range tt.noText {
				if strings.Contains(prompt, s) {
					t.Errorf("prompt shows %q", s)
				}
			}
		})
	}
	m, _ := New(predict.Spec{Kind: Kind})
	if _, err := m.Predict(context.Background(), predict.Env{Model: scripted{}}, predict.Memory{}, u.Instances[0]); err == nil {
		t.Error("Predict without memory succeeded; want an error unless fallback_truncation")
	}
}

func TestNewRejectsBadKnobs(t *testing.T) {
	for _, ps := range []predict.PraMemSpec{{Init: "full"}, {Sections: "all"}, {Q: 2}, {EvalRound: -1}} {
		if _, err := New(predict.Spec{Kind: Kind, PraMem: &ps}); err == nil {
			t.Errorf("%+v accepted", ps)
		}
	}
	if _, err := New(predict.Spec{Kind: predict.KindTruncation}); err == nil {
		t.Error("kind truncation accepted")
	}
}

// TestCheckpointNamespace: knobs that only choose what is shown share the
// construction; knobs that change it do not.
func TestCheckpointNamespace(t *testing.T) {
	ns := func(ps predict.PraMemSpec) string {
		m, err := New(predict.Spec{Kind: Kind, PraMem: &ps})
		if err != nil {
			t.Fatal(err)
		}
		return m.(*method).cfg.ns
	}
	full := ns(predict.PraMemSpec{})
	for _, same := range []predict.PraMemSpec{{Sections: SectionsBias}, {EvalRound: 10}, {FallbackTruncation: true}, {Rounds: DefaultRounds}} {
		if ns(same) != full {
			t.Errorf("%+v does not share the default construction", same)
		}
	}
	for _, diff := range []predict.PraMemSpec{{NoTrial: true}, {Support: 2}, {ReproduceReleaseLeak: true}, {Rounds: 40}, {Init: InitPaper}} {
		if ns(diff) == full {
			t.Errorf("%+v shares the default construction", diff)
		}
	}
}
