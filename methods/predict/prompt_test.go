package predict

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm/tokens"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// checkGolden compares got with testdata/name.golden; on mismatch it writes
// name.got beside it for diffing.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(want) != got {
		_ = os.WriteFile(filepath.Join("testdata", name+".got"), []byte(got), 0o644)
		t.Errorf("%s mismatch (-want +got):\n%s", name, cmp.Diff(string(want), got))
	}
}

// smallUser is a short trace in the given language; the oldest record is
// long enough that a 300-token budget leaves it out.
func smallUser(lang string) behavior.Instance {
	zh := lang == "zh"
	pick := func(z, e string) string {
		if zh {
			return z
		}
		return e
	}
	ev := func(ts, scene, ctx, res string) behavior.Event {
		return behavior.Event{Time: ts, Scene: "视频浏览", RawScene: scene, Context: ctx, Result: res,
			Outcomes: map[string]float64{"video_liked": 0}}
	}
	hist := []behavior.Event{
		ev("2025-09-03", pick("广告推荐", "Ad"),
			pick(strings.Repeat("这是一条很长的记账助手App广告。", 12), strings.Repeat("A long advert for a budgeting app. ", 40)),
			pick("观看了广告，激活了应用", "watched the ad, activated the app")),
		ev("2025-09-05 20:11:09", pick("直播间", "Live"),
			pick("这是一个标题为今晚做红烧肉的直播间，直播类型是美食 场景。", "A live stream titled Braised Pork Tonight, category food."),
			pick("在直播间停留了 1 分 35 秒，给主播送了价值 1 元的礼物", "stayed 1 min 35 s, sent a gift worth 1 yuan")),
		ev("2025-10-02 08:30:00", pick("视频浏览", "Video"),
			pick("视频标题是三分钟学会手冲咖啡。视频时长 3 分 5 秒。", "A video titled Pour-over Coffee in Three Minutes. Duration 3 min 5 s."),
			pick("观看了 3 分 5 秒、完整看完了整个视频，收藏了该视频", "watched 3 min 5 s, completed it, collected it")),
	}
	return behavior.Instance{
		ID: "omni/user_901/0/video_liked", Dataset: "omni", User: "user_901",
		Profile:     pick("这是一位年龄在31-40岁的女性用户，学历为本科。居住在二线城市。", "A woman aged 31-40 with a bachelor's degree, living in a tier-2 city."),
		History:     hist,
		PracticeCut: 2,
		Target: ev("2025-10-08 10:00:00", pick("视频浏览", "Video"),
			pick("视频标题是周末露营装备清单。", "A video titled Weekend Camping Checklist."), ""),
		Question: behavior.Question{Field: "video_liked", Kind: behavior.Binary,
			Text: pick("该用户会点赞这个视频吗？", "Will the user like this video?")},
	}
}

func TestPromptGolden(t *testing.T) {
	for _, lang := range Languages() {
		t.Run(lang, func(t *testing.T) {
			p, err := LoadPrompts(lang)
			if err != nil {
				t.Fatal(err)
			}
			env := Env{Prompts: p, Tokens: tokens.Approx{}}
			inst := smallUser(lang)
			prompt := func(spec Spec, mem Memory, in behavior.Instance) string {
				t.Helper()
				m, err := New(spec)
				if err != nil {
					t.Fatal(err)
				}
				fm := replies("Yes", "3")
				env.Model = fm
				if _, err := m.Predict(context.Background(), env, mem, in); err != nil {
					t.Fatal(err)
				}
				return fm.reqs[0].Messages[0].Content
			}
			checkGolden(t, "binary_"+lang, prompt(Spec{Kind: KindTruncation, HistoryTokens: 300}, Memory{}, inst))
			checkGolden(t, "nohistory_"+lang, prompt(Spec{Kind: KindTruncation, HistoryTokens: -1}, Memory{}, inst))

			rating := inst
			rating.Question = behavior.Question{Field: "movie_rating", Kind: behavior.MultiClass,
				Classes: []string{"1", "2", "3", "4", "5"}}
			checkGolden(t, "rating_summary_"+lang, prompt(Spec{Kind: KindSummary, HistoryTokens: 300}, Memory{Text: "S1"}, rating))

			sum, err := p.Summarize("S0", inst.History[1:], 1000)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "summarize_"+lang, sum)
		})
	}
}

func TestShortProfile(t *testing.T) {
	tests := []struct{ in, want string }{
		{"这是一位女性用户。居住在二线城市。", "这是一位女性用户"},
		{"A woman. Lives in a city.", "A woman. Lives in a city."},
		{"", ""},
		{"。开头", ""},
	}
	for _, tt := range tests {
		if got := ShortProfile(tt.in); got != tt.want {
			t.Errorf("ShortProfile(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestWithMemory(t *testing.T) {
	if got := WithMemory("P", ""); got != "P" {
		t.Errorf("empty memory: %q", got)
	}
	if got := WithMemory("P", "M"); got != "P\n\nM" {
		t.Errorf("memory: %q", got)
	}
}

func TestLoadPromptsOverride(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mine.tmpl")
	body := `{{define "no_history"}}NOTHING YET{{end}}`
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := New(Spec{Kind: KindTruncation, HistoryTokens: -1, Language: "en", Templates: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	fm := replies("No")
	zh, _ := LoadPrompts("zh")
	// The spec's templates beat the runner's.
	if _, err := m.Predict(context.Background(), Env{Model: fm, Prompts: zh}, Memory{}, smallUser("en")); err != nil {
		t.Fatal(err)
	}
	got := fm.reqs[0].Messages[0].Content
	if !strings.Contains(got, "NOTHING YET") || !strings.Contains(got, "Your answer:") {
		t.Errorf("override not applied:\n%s", got)
	}

	bad := filepath.Join(dir, "bad.tmpl")
	os.WriteFile(bad, []byte(`{{define "binary"}}{{.Nope`), 0o644)
	if _, err := LoadPrompts("zh", bad); err == nil || !strings.Contains(err.Error(), "bad.tmpl") {
		t.Errorf("bad override: err %v, want one naming the file", err)
	}
	if _, err := LoadPrompts("zh", filepath.Join(dir, "missing.tmpl")); err == nil {
		t.Error("missing override file: no error")
	}
	unknownField := filepath.Join(dir, "field.tmpl")
	os.WriteFile(unknownField, []byte(`{{define "no_history"}}{{.Nope}}{{end}}`), 0o644)
	p, err := LoadPrompts("zh", unknownField)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.HistoryBlock(nil, 0); err == nil {
		t.Error("template with an unknown field rendered without error")
	}
}
