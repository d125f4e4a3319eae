package omnibehavior

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/datasets/sampling"
	"github.com/memharness/memharness/internal/testfixture"
)

// fixtureDir holds the spec's fixtures (shared/fixtures/pramem).
var fixtureDir = testfixture.Path("pramem")

func fixture(t *testing.T, name string) string {
	t.Helper()
	return filepath.Join(testfixture.Need(t, "pramem", name), name)
}

func loadFixtureUser(t *testing.T, lang string) User {
	t.Helper()
	d, err := Load(fixture(t, "synth_user_"+lang+".json"), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Errors) != 0 || len(d.Users) != 1 {
		t.Fatalf("users %d, errors %v", len(d.Users), d.Errors)
	}
	return d.Users[0]
}

// fixtureWant are the expected values of spec §1.9 (from the Python
// reference run on synth_user_zh.json).
var fixtureWant = []struct {
	scene                        string
	filter, sufficient, high     bool
	binary                       map[string]int
	continuous                   map[string]float64
	text                         map[string]string
	tokens                       int
	noClickedCart, noAdWatchTime bool
}{
	{scene: SceneAd, sufficient: true, high: true, tokens: 149,
		binary:     map[string]int{"ad_liked": 0, "ad_commented": 0, "ad_activated": 1, "ad_form_submitted": 0},
		continuous: map[string]float64{"ad_watch_seconds": 0}},
	{scene: SceneLive, sufficient: true, high: true, tokens: 228,
		binary: map[string]int{"live_liked": 0, "live_commented": 1, "live_sent_gift": 1, "live_followed": 0,
			"live_shared": 0, "live_clicked_cart": 0},
		continuous: map[string]float64{"live_watch_seconds": 95}},
	{scene: SceneVideo, sufficient: true, high: true, tokens: 268,
		binary: map[string]int{"video_completed": 1, "video_liked": 0, "video_commented": 0, "video_shared": 0,
			"video_collected": 1, "video_followed": 1},
		continuous: map[string]float64{"video_watch_seconds": 185}},
	{scene: SceneShop, sufficient: true, high: true, tokens: 183,
		binary: map[string]int{"shop_added_to_cart": 1, "shop_order_success": 1}},
	{scene: SceneSearch, sufficient: true, high: false, tokens: 83,
		text: map[string]string{"search_keyword": "咖啡豆"}},
	{scene: SceneLive, filter: true, tokens: 59,
		binary: map[string]int{"live_liked": 0, "live_commented": 0, "live_sent_gift": 0, "live_followed": 0,
			"live_shared": 0},
		continuous: map[string]float64{"live_watch_seconds": 3}},
	{scene: SceneVideo, filter: true, tokens: 56,
		binary: map[string]int{"video_completed": 0, "video_liked": 0, "video_commented": 0, "video_shared": 0,
			"video_collected": 0, "video_followed": 0},
		continuous: map[string]float64{"video_watch_seconds": 0}},
}

func splitLabels(ls []Label) (map[string]int, map[string]float64, map[string]string) {
	bin, cont, text := map[string]int{}, map[string]float64{}, map[string]string{}
	for _, l := range ls {
		switch l.Kind {
		case behavior.Binary:
			bin[l.Field] = int(l.Value)
		case Continuous:
			cont[l.Field] = l.Value
		case Text:
			text[l.Field] = l.Text
		}
	}
	return bin, cont, text
}

func TestFixtureVectors(t *testing.T) {
	for _, lang := range []string{LangZH, LangEN} {
		u := loadFixtureUser(t, lang)
		if len(u.Records) != len(fixtureWant) {
			t.Fatalf("%s: %d records, want %d", lang, len(u.Records), len(fixtureWant))
		}
		for i, want := range fixtureWant {
			r := &u.Records[i]
			if r.Scene != want.scene {
				t.Errorf("%s record %d: scene %q, want %q", lang, i, r.Scene, want.scene)
			}
			if got := ShouldFilter(r); got != want.filter {
				t.Errorf("%s record %d: should_filter %v, want %v", lang, i, got, want.filter)
			}
			if got := HasSufficientContext(r); got != want.sufficient {
				t.Errorf("%s record %d: sufficient_context %v, want %v", lang, i, got, want.sufficient)
			}
			if got := HighValue(r); got != want.high {
				t.Errorf("%s record %d: high_value %v, want %v", lang, i, got, want.high)
			}
			bin, cont, text := splitLabels(Labels(r))
			if want.binary == nil {
				want.binary = map[string]int{}
			}
			if want.continuous == nil {
				want.continuous = map[string]float64{}
			}
			if want.text == nil {
				want.text = map[string]string{}
			}
			if !reflect.DeepEqual(bin, want.binary) {
				t.Errorf("%s record %d: binary labels %v, want %v", lang, i, bin, want.binary)
			}
			if !reflect.DeepEqual(cont, want.continuous) {
				t.Errorf("%s record %d: continuous labels %v, want %v", lang, i, cont, want.continuous)
			}
			if !reflect.DeepEqual(text, want.text) {
				t.Errorf("%s record %d: text labels %v, want %v", lang, i, text, want.text)
			}
			// The token table is the reference's run on the Chinese file
			// (the block shows the raw scene string).
			if lang == LangZH {
				if got := RecordTokens(r); got != want.tokens {
					t.Errorf("record %d: %d tokens, want %d\n%s", i, got, want.tokens, RecordBlock(r))
				}
			}
		}
	}
}

// TestFixtureLanguagesAgree checks that alias folding makes the English
// file identical to the Chinese one in everything but the raw scene.
func TestFixtureLanguagesAgree(t *testing.T) {
	zh, en := loadFixtureUser(t, LangZH), loadFixtureUser(t, LangEN)
	for i := range zh.Records {
		a, b := &zh.Records[i], &en.Records[i]
		if a.Type == b.Type {
			t.Errorf("record %d: raw scenes %q and %q should differ", i, a.Type, b.Type)
		}
		if a.Scene != b.Scene || ShouldFilter(a) != ShouldFilter(b) || HasSufficientContext(a) != HasSufficientContext(b) ||
			HighValue(a) != HighValue(b) {
			t.Errorf("record %d: flags differ between zh and en", i)
		}
		if !reflect.DeepEqual(Labels(a), Labels(b)) {
			t.Errorf("record %d: labels differ: %v vs %v", i, Labels(a), Labels(b))
		}
		if ContextText(a) != ContextText(b) || ResultText(a) != ResultText(b) {
			t.Errorf("record %d: texts differ:\n%s\n%s", i, RecordBlock(a), RecordBlock(b))
		}
	}
	if !reflect.DeepEqual(stripUser(Inspect([]User{zh})), stripUser(Inspect([]User{en}))) {
		t.Error("Inspect differs between zh and en")
	}
}

func stripUser(ls []InspectLine) []InspectLine {
	out := make([]InspectLine, len(ls))
	for i, l := range ls {
		l.User = ""
		out[i] = l
	}
	return out
}

func TestFixtureTexts(t *testing.T) {
	u := loadFixtureUser(t, LangZH)
	for _, tc := range []struct {
		name, got, want string
	}{
		{"record 1 context", ContextText(&u.Records[1]),
			"这是一个标题为今晚做红烧肉的直播间，直播类型是美食 场景，主播正在进行带货直播。该直播已有 累计 880 人次观看、总观看量达到 1.2万。累计观看时长 1500.0 小时。直播封面的内容是：主播在厨房展示锅具。直播间目前有 3021个赞、57条评论。"},
		{"record 1 result", ResultText(&u.Records[1]),
			"在直播间停留了 1 分 35 秒，观看了 1 次，在直播间发送了 2 条弹幕，给主播送了价值 1 元的礼物"},
		{"record 2 result", ResultText(&u.Records[2]),
			"观看了 3 分 5 秒、完整看完了整个视频，收藏了该视频，关注了视频作者"},
		{"record 0 context", ContextText(&u.Records[0]),
			"这是一条推广记账助手App的广告，属于工具软件行业中的效率工具品类。该广告已经向用户曝光过 3 次。广告画面中的文字内容为：每天一分钟，轻松记账。"},
		{"record 4 target hides the keyword", TargetContext(&u.Records[4]), "用户进行了搜索。"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, tc.got, tc.want)
		}
	}
}

// TestBalancedSampleFixture feeds the spec's sampler vector through our
// records (scene folding, high-value flags) into the shared sampler.
func TestBalancedSampleFixture(t *testing.T) {
	data, err := os.ReadFile(fixture(t, "balanced_sample_candidates.json"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := decodeRecordsJSON(string(data))
	if err != nil {
		t.Fatal(err)
	}
	var cands []sampling.Candidate
	for _, r := range recs {
		idx, _ := numOf(r.Raw.Fields().V("test_time_index"))
		cands = append(cands, sampling.Candidate{Scene: r.Scene, High: HighValue(&r), TestTimeIndex: int(idx.toInt())})
	}
	var got []int
	for _, p := range sampling.BalancedSample(cands, 12, 42+812123274) {
		got = append(got, cands[p].TestTimeIndex)
	}
	want := []int{1, 3, 4, 6, 11, 15, 18, 20, 26, 31, 35, 37}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sample = %v, want %v", got, want)
	}
}

func TestInspectJSON(t *testing.T) {
	u := loadFixtureUser(t, LangZH)
	lines := Inspect([]User{u})
	if len(lines) != 7 {
		t.Fatalf("%d lines", len(lines))
	}
	data, err := json.Marshal(lines[1])
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	wantKeys := map[string]bool{"user": true, "index": true, "scene": true, "should_filter": true,
		"sufficient_context": true, "high_value": true, "labels": true}
	if len(keys) != len(wantKeys) {
		t.Errorf("keys %v", keys)
	}
	for _, k := range keys {
		if !wantKeys[k] {
			t.Errorf("unexpected key %q", k)
		}
	}
	if lines[1].User != "user_901" || lines[1].Index != 1 || lines[1].Scene != SceneLive || lines[1].Labels["live_sent_gift"] != 1 {
		t.Errorf("line 1 = %+v", lines[1])
	}
	if _, ok := lines[0].Labels["ad_watch_seconds"]; ok {
		t.Error("continuous fields must not be in labels")
	}
	s := ComputeStats([]User{u})
	want := Stats{Users: 1, Records: 7, Filtered: 2, FirstTimestamp: "2025-09-03", LastTimestamp: "2025-10-08 10:00:00",
		Scenes: map[string]int{SceneAd: 1, SceneLive: 2, SceneVideo: 2, SceneShop: 1, SceneSearch: 1}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("stats = %+v, want %+v", s, want)
	}
	data, _ = json.Marshal(s)
	for _, k := range []string{`"users":1`, `"records":7`, `"scenes":{`, `"filtered":2`} {
		if !strings.Contains(string(data), k) {
			t.Errorf("stats JSON %s lacks %s", data, k)
		}
	}
}
