package pramem

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/datasets/movielens"
	"github.com/memharness/memharness/datasets/pyrandom"
	"github.com/memharness/memharness/datasets/synth"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/predict"
)

func TestSamplePractice(t *testing.T) {
	u := tinyUser()
	book := newQuestionBook(u)
	pool := u.Instances[0].History
	tests := []struct {
		name                     string
		minHist, poolSize, round int
		wantLen                  int
	}{
		{"defaults", 10, 100, 80, 80},
		{"fewer items than rounds", 10, 5, 80, 5},
		{"no candidates", 30, 100, 80, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := samplePractice(pool, book, tt.minHist, tt.poolSize, tt.round, drawSeed, "u1", false)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := samplePractice(pool, book, tt.minHist, tt.poolSize, tt.round, drawSeed, "u1", false)
			c, _ := samplePractice(pool, book, tt.minHist, tt.poolSize, tt.round, drawSeed, "u2", false)
			if len(a) != tt.wantLen || !slices.Equal(a, b) {
				t.Fatalf("items %v (again %v), want %d deterministic items", a, b, tt.wantLen)
			}
			if tt.wantLen > 10 && slices.Equal(a, c) {
				t.Error("two users drew the same items")
			}
			recent := 0
			for _, i := range a {
				if i < tt.minHist || i >= len(pool) {
					t.Fatalf("item %d outside [%d, %d)", i, tt.minHist, len(pool))
				}
				if i >= 20 {
					recent++
				}
			}
			// (rank+1)² weights: the newest 10 of 20 candidates carry 7/8 of the mass.
			if tt.wantLen == 80 && recent < 60 {
				t.Errorf("only %d of 80 items among the newest candidates", recent)
			}
		})
	}
}

// TestPracticeHistory: the practice input shows only records before the
// target, unless the released leak is reproduced; the label is the
// target's reaction; the self-review texts are located in the input.
func TestPracticeHistory(t *testing.T) {
	u := tinyUser()
	// Records from October on are the test window: the leak shifts the
	// history by the September records (all 30 here).
	for i := 20; i < 30; i++ {
		u.Instances[0].History[i].Time = fmt.Sprintf("2025-10-01 %02d:00:00", i-10)
	}
	full := append(slices.Clone(u.Instances[0].History), behavior.Event{Time: "2025-10-02 09:00:00", Scene: "直播间", Context: "测试动作之后的记录。", Result: "送出礼物"})
	u.Instances = append(u.Instances, behavior.Instance{History: full})
	pool := u.Instances[0].History
	sp := mustPrompts(t)
	p, _ := predict.LoadPrompts("zh")
	for _, leak := range []bool{false, true} {
		t.Run(fmt.Sprint("leak=", leak), func(t *testing.T) {
			m, err := New(predict.Spec{Kind: Kind, PraMem: &predict.PraMemSpec{ReproduceReleaseLeak: leak}})
			if err != nil {
				t.Fatal(err)
			}
			it, err := m.(*method).buildItem(predict.Env{}, p, sp, u, pool, full, 15, leakOffset(pool, full[len(full)-1]), newQuestionBook(u))
			if err != nil {
				t.Fatal(err)
			}
			showsTarget := strings.Contains(it.input, "这是第 15 个直播间。\n  反应")
			showsLater := strings.Contains(it.input, "测试动作之后的记录")
			if showsTarget != leak || showsLater != leak {
				t.Errorf("target shown %v, later record shown %v; want both %v", showsTarget, showsLater, leak)
			}
			if !leak && len(it.visible) != 15 {
				t.Errorf("%d visible records, want the 15 before the target", len(it.visible))
			}
			if !strings.Contains(it.label, "【练习任务答案 1】") || !strings.Contains(it.label, "仅浏览未进行其他操作") {
				t.Errorf("label:\n%s", it.label)
			}
			if got := it.truth(); got["live_sent_gift"] != 1 {
				t.Errorf("truth %v", got)
			}
			hist := historyText(it.input, sp.marker("marker_history"), sp.marker("marker_details"), sp.marker("marker_task"), detailLimit, false)
			if !strings.HasPrefix(hist, "## 输入二") || strings.Contains(hist, "Practice task") || !strings.Contains(hist, "【行为 1】") {
				t.Errorf("history text:\n%s", hist)
			}
			if historyText(it.input, sp.marker("marker_history"), sp.marker("marker_details"), sp.marker("marker_task"), detailLimit, true) != "" {
				t.Error("the released no-op found a history")
			}
			if got := realScene(it.input, sp.marker("marker_scene"), 14); !strings.HasPrefix(got, sp.marker("marker_scene")) || !strings.HasSuffix(got, "...") || len([]rune(got)) != 17 {
				t.Errorf("real scene %q", got)
			}
		})
	}
}

func TestCutDetails(t *testing.T) {
	in := "## 输入二：历史\n【行为 1】时间：t\n  详情：" + strings.Repeat("长", 200) + "\n  反应：r\n\n===== Practice task 1 =====\nq"
	got := historyText(in, "## 输入二", "  详情：", "===== Practice task", 128, false)
	want := "## 输入二：历史\n【行为 1】时间：t\n  详情：" + strings.Repeat("长", 128) + "...\n  反应：r"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

// TestMovieLensPractice: a rating user practises on its ratings (the
// practice task asks the rating with its classes) and the sim's reflection
// proposes rating facts.
func TestMovieLensPractice(t *testing.T) {
	dir := t.TempDir()
	if err := synth.WriteMovieLens(dir, synth.MovieLensConfig{Users: 3, Movies: 400, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	d, err := movielens.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	sets, err := movielens.BuildInstances(d, movielens.Options{MaxUsers: 1, TestPerUser: 3, MinRatings: 20})
	if err != nil || len(sets) == 0 {
		t.Fatalf("%d users, %v", len(sets), err)
	}
	var trial string
	var reflected []string
	cm := llm.ModelFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		resp, err := simEnv(nil).Model.Generate(ctx, req)
		if h, ok := req.Hint.(PraMemTrial); ok && trial == "" {
			trial = req.Messages[0].Content
			if len(h.Task.Questions) != 1 || h.Task.Questions[0].Kind != behavior.MultiClass {
				t.Errorf("questions %+v", h.Task.Questions)
			}
		}
		if req.Purpose == "pramem.reflect" {
			reflected = append(reflected, ParseProposals(resp.Text)...)
		}
		return resp, err
	})
	m, err := New(predict.Spec{Kind: Kind, PraMem: &predict.PraMemSpec{Rounds: 10}})
	if err != nil {
		t.Fatal(err)
	}
	mem, err := m.PrepareUser(context.Background(), predict.Env{Model: cm}, sets[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(trial, "请从 [1,2,3,4,5] 中选择一个分数") {
		t.Errorf("practice task without the rating classes:\n%s", trial[max(0, len(trial)-600):])
	}
	if len(reflected) == 0 || mem.Meta["rounds"] != 10 {
		t.Errorf("rounds %v, proposals %q", mem.Meta["rounds"], reflected)
	}
	out, err := m.Predict(context.Background(), predict.Env{Model: simEnv(nil).Model}, mem, sets[0].Instances[0])
	if err != nil || !out.Valid {
		t.Errorf("predict %+v %v", out, err)
	}
}

// TestReleaseSampling checks the release's seeds: the shuffle is z_2's
// random.seed(1024) shuffle of the draws, the same for every user.
func TestReleaseSampling(t *testing.T) {
	pool := make([]behavior.Event, 40)
	for i := range pool {
		pool[i] = behavior.Event{Time: "t", Context: "c", Outcomes: map[string]float64{"video_liked": 0}}
	}
	book := questionBook{order: []string{"video_liked"}, byKey: map[string]question{"video_liked": {Field: "video_liked", Kind: behavior.Binary}}}
	a, err := samplePractice(pool, book, 10, 100, 80, 7, "user_a", true)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := samplePractice(pool, book, 10, 100, 80, 7, "user_b", true)
	if !slices.Equal(a, b) {
		t.Error("release sampling depends on the user; the release seeds every user alike")
	}
	own, _ := samplePractice(pool, book, 10, 100, 80, 7, "user_a", false)
	if slices.Equal(a, own) {
		t.Error("release sampling equals the per-user draws")
	}
	// Re-derive: random.seed(42); choices; random.seed(1024); shuffle.
	w := make([]float64, 30)
	for r := range w {
		w[r] = float64((r + 1) * (r + 1))
	}
	picks, _ := pyrandom.New(42).Choices(w, 100)
	want := make([]int, len(picks))
	for i, p := range picks {
		want[i] = 10 + p
	}
	pyrandom.ShuffleSlice(pyrandom.New(1024), want)
	if !slices.Equal(a, want[:80]) {
		t.Errorf("release sampling = %v, want %v", a[:5], want[:5])
	}
}

// TestReleaseDrawChecks: the release's draw counts positions in the
// unfiltered timeline, drops the records failing its own enough-context
// check, and keeps records without a yes/no question; the practice history
// drops the records failing the practice stage's check instead.
func TestReleaseDrawChecks(t *testing.T) {
	pool := make([]behavior.Event, 40)
	for i := range pool {
		pool[i] = behavior.Event{Time: "t", Context: "c", Outcomes: map[string]float64{"video_liked": 0},
			// Four should_filter records were dropped before the pool.
			Source: behavior.Source{Pos: i + 5, Base: 44}}
	}
	pool[30].Source.ThinForDraw = true
	pool[31].Source.ThinForPractice = true
	pool[32].Outcomes = nil // a search record: no yes/no question
	book := questionBook{order: []string{"video_liked"}, byKey: map[string]question{"video_liked": {Field: "video_liked", Kind: behavior.Binary}}}
	for _, release := range []bool{false, true} {
		cands := practiceCandidates(pool, book, 10, release)
		// Position minHist (10) of the timeline is pool index 6.
		want := []int{10, 11, 12, 13}
		if release {
			want = []int{6, 7, 8, 9}
		}
		if !slices.Equal(cands[:4], want) || slices.Contains(cands, 30) || !slices.Contains(cands, 31) || slices.Contains(cands, 32) != release {
			t.Errorf("release=%v: candidates %v (want from %v, without 30, with 31, with 32 only for the release)", release, cands, want)
		}
	}
	hist := practiceHistory(pool, pool, 35, 0, false)
	if len(hist) != 34 || slices.ContainsFunc(hist, func(e behavior.Event) bool { return e.Source.ThinForPractice }) {
		t.Errorf("practice history keeps %d records (want 34, without the thin one)", len(hist))
	}
	if pool[31].Source.ThinForPractice != true || len(pool) != 40 {
		t.Error("the practice history changed the pool")
	}
	// The leak: z_2 slices base + window by position, here up to
	// position 44 + 39 - 1 = 82, past every record.
	if got := practiceHistory(pool[:20], pool, 15, 0, true); len(got) != 39 {
		t.Errorf("leaky history keeps %d records, want 39", len(got))
	}
}

// TestReleaseDrawDropsQuestionless: the release's rounds skip the drawn
// targets it asks nothing of (z_2 cannot build their input) and keep a
// record with only a text question; the harness's own draw never draws
// either.
func TestReleaseDrawDropsQuestionless(t *testing.T) {
	pool := make([]behavior.Event, 30)
	for i := range pool {
		pool[i] = behavior.Event{Time: "t", Context: "c", Outcomes: map[string]float64{"video_liked": 0}}
		switch i % 3 {
		case 1: // a search without keyword: no question at all
			pool[i].Outcomes = nil
		case 2: // a search with a keyword: a text question only
			pool[i].Outcomes = nil
			pool[i].Source.Text = []behavior.TextQuestion{{Field: "search_keyword"}}
		}
	}
	book := questionBook{order: []string{"video_liked"}, byKey: map[string]question{"video_liked": {Field: "video_liked", Kind: behavior.Binary}}}
	for _, release := range []bool{false, true} {
		items, err := samplePractice(pool, book, 5, 100, 50, 42, "u", release)
		if err != nil {
			t.Fatal(err)
		}
		text := 0
		for _, i := range items {
			if i%3 == 1 || (!release && i%3 == 2) {
				t.Fatalf("release=%v: drew pool record %d", release, i)
			}
			if i%3 == 2 {
				text++
			}
		}
		if len(items) != 50 || release && text == 0 {
			t.Errorf("release=%v: %d rounds (want 50), %d text-question targets", release, len(items), text)
		}
	}
}

// TestRealSceneMissing: an input without the scene marker (a text-question
// target) has no real scene, so check1 is skipped.
func TestRealSceneMissing(t *testing.T) {
	if got := realScene("history only\n===== Practice task 1 =====\nkeyword?", "场景详细信息如下：", 128); got != "" {
		t.Errorf("realScene = %q, want empty", got)
	}
	if got := realScene("x 场景详细信息如下：\nabc  ", "场景详细信息如下：", 128); got != "场景详细信息如下：\nabc..." {
		t.Errorf("realScene = %q", got)
	}
}
