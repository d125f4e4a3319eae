package omnibehavior

import (
	"github.com/memharness/memharness/internal/pyfmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

func rec(t *testing.T, src string) *Record {
	t.Helper()
	rs, err := decodeRecordsJSON(src)
	if err != nil {
		t.Fatal(err)
	}
	return &rs[0]
}

func TestRenderCases(t *testing.T) {
	long := strings.Repeat("长", 10001)
	for _, tc := range []struct {
		name, record, context, result string
	}{
		{"video float watch, verified author", `{"type": "视频浏览", "context": {"caption": "", "is_verified": true, "duration": 45},
			"action": [{"type": "watch", "play_duration": 11.75, "is_complete_play": false}]}`,
			"这是一个视频。作者已通过平台认证。视频时长为 45 秒。", "观看了 11.8 秒"},
		{"video whole minutes, fans below 1万", `{"type": "视频浏览", "context": {"caption": "c", "fans_user_num": 9999, "is_verified": true, "verification_type": "个人"},
			"action": [{"type": "watch", "play_duration": 120, "played_loop_cnt": 2, "is_fast_forward_play": true}, {"type": "like"}, {"type": "share", "share_cnt": 2}]}`,
			"这是一个标题为《c》的视频。作者拥有 9999 粉丝，并且通过了个人认证。", "观看了 2 分钟、循环播放了 2，使用了快进播放操作，对视频进行点赞操作，分享给朋友，成功分享了2次"},
		{"video float duration prints like Python", `{"type": "视频浏览", "context": {"duration": 185.0}, "action": [{"type": "watch", "watch_seconds": 61}]}`,
			"这是一个视频。视频时长为 3.0 分 5.0 秒。", "观看了 1 分 1 秒"},
		{"video nothing done", `{"type": "视频浏览", "context": {}, "action": []}`, "这是一个视频。", emptyResult},
		{"ad same industry, interactions", `{"type": "广告推荐", "context": {"product": "P", "industry_main": "游戏", "industry_sub": "游戏", "duration": 60,
			"like_cnt": 3, "share_cnt": 2, "report_cnt": 1, "fans_user_num_op_range": "1w-10w"},
			"action": [{"type": "watch", "watch_seconds": 12, "played_loop_cnt": 2}, {"type": "purchase", "pay_cnt": 1, "pay_purchase_amt": 9.9}]}`,
			"这是一条推广P的广告，属于游戏行业。广告主粉丝数范围为1w-10w。广告时长为 1 分钟。广告互动数据：获得点赞 3 次, 被分享 2 次。广告负面反馈：被举报 1 次。",
			"观看了 12.0 秒、循环播放了 2 次，通过广告支付了 1 次、支付金额 9.9 元"},
		{"ad long caption and durations", `{"type": "广告推荐", "context": {"caption": "` + strings.Repeat("a", 501) + `", "duration": 75},
			"action": [{"type": "watch", "play_duration": "7秒"}]}`,
			"这是一条广告。广告标题为：" + strings.Repeat("a", 500) + "...。广告时长为 1 分 15 秒。", "观看了 7.0 秒"},
		{"live without title", `{"type": "直播间", "context": {"live_category": "美食", "is_shop_live": false, "live_total_user_cnt": 12345,
			"live_total_view_cnt": 500, "live_total_view_duration": 1800, "items": [{"title": "锅", "price": 9.9}, {"title": "铲子"}]},
			"action": [{"type": "watch", "play_duration": 3600}, {"type": "like", "like_cnt": 15000},
			{"type": "comment", "comment_cnt": 3, "comment_content": ["a", "b", "c", "d"]}, {"type": "follow", "is_follow_action": false},
			{"type": "click_cart", "is_click_cart_action": true, "item_title": "锅", "item_price": 9.9}, {"type": "join_group", "join_fans_group_cnt": 1}]}`,
			"这是一个直播间，直播类型是美食 场景，这是一场娱乐性的非带货直播。该直播已有 累计 1.2万 人次观看、总观看量 500。累计观看时长 30 分钟。主播正在推荐 2 件商品：锅售价 9.9 元, 铲子。",
			"在直播间停留了 60 分钟，为主播点赞 1.5万 次，在直播间发送了 3 条弹幕，评论内容包括：「a」、「b」、「c」 等，把商品 锅（售价9.9元）加入了购物车，加入了粉丝团（1次）"},
		{"shop long description", `{"type": "商城购物", "context": {"item_desc": "` + long + `", "item_price": 0, "item_num_180d_sales": 500},
			"action": [{"type": "cart", "is_add_to_cart": false}, {"type": "purchase", "is_pay": false}]}`,
			"这是一件商品。商品描述：" + strings.Repeat("长", 10000) + "...。该商品近180天已售出 500 件。", "浏览了商品但未加入购物车，未购买该商品"},
		{"search with intent", `{"type": "搜索行为", "action": [{"type": "search", "keyword": "k", "query_category": "查询型"}, {"type": "click"}]}`,
			"用户在搜索框中输入了关键词 k，希望查找相关信息。", "点击了搜索结果"},
		{"customer service", `{"type": "电商客服对话", "context": {"ticket_category": "售后", "product_name": "锅", "item_price": 89.9, "item_qty": 2.0, "express_fee": 5},
			"action": [{"type": "dialogue", "content": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}, {"role": "user", "content": "c"}]},
			{"type": "purchase", "paid": true}]}`,
			"这是一次售后类型的咨询。涉及商品为《锅》；单价 89.9 元，购买数量 2 件，运费 5.0 元。", "与客服进行了对话（用户发送 2 条消息，客服回复 1 条），最终完成了支付"},
		{"unknown scene falls back to str(dict)", `{"type": "Gaming", "context": {"a": 1, "b": "x'y", "c": null, "d": true, "e": 2.0, "f": [1, "z"]},
			"action": [{"type": "like"}, {"type": "watch", "play_duration": 3}]}`,
			`{'a': 1, 'b': "x'y", 'c': None, 'd': True, 'e': 2.0, 'f': [1, 'z']}`, "点赞，观看了内容"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rec(t, tc.record)
			if got := ContextText(r); got != tc.context {
				t.Errorf("context\n got %q\nwant %q", got, tc.context)
			}
			if got := ResultText(r); got != tc.result {
				t.Errorf("result\n got %q\nwant %q", got, tc.result)
			}
		})
	}
}

func TestPredicates(t *testing.T) {
	for _, tc := range []struct {
		name, record       string
		filter, sufficient bool
	}{
		{"ad shown 0 times", `{"type": "广告推荐", "context": {"show_cnt": 0}, "action": []}`, true, true},
		{"ad show count as string", `{"type": "Advertisement", "context": {"show_cnt": "0"}, "action": []}`, true, true},
		{"ad show count null", `{"type": "广告推荐", "context": {"show_cnt": null}, "action": []}`, false, true},
		{"live two zero keys", `{"type": "直播间", "context": {"live_like_cnt": 0, "live_comment_cnt": 0.0}, "action": []}`, true, false},
		{"live three keys", `{"type": "直播间", "context": {"live_like_cnt": 0, "live_comment_cnt": 0, "live_cover_content": "x"}, "action": []}`, false, false},
		{"live blank title, category", `{"type": "直播间", "context": {"live_title": " ", "live_category": "x"}, "action": []}`, false, true},
		{"watch seconds 0", `{"type": "广告推荐", "context": {}, "action": [{"type": "watch", "watch_seconds": 0}]}`, true, true},
		{"play duration 0秒", `{"type": "直播间", "context": {"live_title": "t"}, "action": [{"type": "watch", "play_duration": "0秒"}]}`, true, true},
		{"play duration null", `{"type": "视频浏览", "context": {"asr": "a"}, "action": [{"type": "watch", "play_duration": null}]}`, false, true},
		{"blank video texts", `{"type": "视频浏览", "context": {"caption": "  ", "ocr": null, "asr": ""}, "action": []}`, false, false},
		{"search has no context", `{"type": "搜索行为", "action": [{"type": "search", "keyword": "k"}]}`, false, true},
	} {
		r := rec(t, tc.record)
		if got := ShouldFilter(r); got != tc.filter {
			t.Errorf("%s: should_filter %v, want %v", tc.name, got, tc.filter)
		}
		if got := HasSufficientContext(r); got != tc.sufficient {
			t.Errorf("%s: sufficient %v, want %v", tc.name, got, tc.sufficient)
		}
	}
}

func TestLabelRules(t *testing.T) {
	for _, tc := range []struct {
		name, record string
		want         map[string]any // field -> int (binary), float64 (continuous), string (text)
		high         bool
	}{
		{"live not selling: no clicked_cart; follow counts by presence", `{"type": "直播间", "context": {"is_shop_live": false},
			"action": [{"type": "follow", "is_follow_action": false}]}`,
			map[string]any{"live_watch_seconds": 0.0, "live_liked": 0, "live_commented": 0, "live_sent_gift": 0, "live_followed": 1, "live_shared": 0}, true},
		{"selling live", `{"type": "直播间", "context": {"is_shop_live": 1}, "action": [{"type": "watch", "play_duration": "30秒"},
			{"type": "click_cart", "is_click_cart_action": true}]}`,
			map[string]any{"live_watch_seconds": 30.0, "live_liked": 0, "live_commented": 0, "live_sent_gift": 0, "live_followed": 0, "live_shared": 0, "live_clicked_cart": 1}, false},
		{"ad without watch: no watch time", `{"type": "广告推荐", "context": {}, "action": [{"type": "activation", "activation_cnt": 0},
			{"type": "submit", "form_submit_total_cnt": 2}]}`,
			map[string]any{"ad_liked": 0, "ad_commented": 0, "ad_activated": 0, "ad_form_submitted": 1}, true},
		{"ad watch from play_duration", `{"type": "广告推荐", "context": {}, "action": [{"type": "watch", "play_duration": "7秒"}, {"type": "like"}]}`,
			map[string]any{"ad_watch_seconds": 7.0, "ad_liked": 1, "ad_commented": 0, "ad_activated": 0, "ad_form_submitted": 0}, false},
		{"shop unpaid purchase is still high-value", `{"type": "商城购物", "context": {}, "action": [{"type": "purchase", "is_pay": false, "paid": 0}]}`,
			map[string]any{"shop_added_to_cart": 0, "shop_order_success": 0}, true},
		{"video completion from duration", `{"type": "视频浏览", "context": {"duration": "30秒"}, "action": [{"type": "watch", "play_duration": 30}]}`,
			map[string]any{"video_watch_seconds": 30.0, "video_completed": 1, "video_liked": 0, "video_commented": 0, "video_shared": 0, "video_collected": 0, "video_followed": 0}, false},
		{"video short of duration", `{"type": "视频浏览", "context": {"duration": 30}, "action": [{"type": "watch", "play_duration": "29秒"}, {"type": "comment"}]}`,
			map[string]any{"video_watch_seconds": 29.0, "video_completed": 0, "video_liked": 0, "video_commented": 1, "video_shared": 0, "video_collected": 0, "video_followed": 0}, true},
		{"search without keyword", `{"type": "搜索行为", "action": [{"type": "search", "keyword": ""}]}`, map[string]any{}, false},
		{"next user message", `{"type": "电商客服对话", "context": {}, "action": [{"type": "dialogue", "content": [
			{"role": "user", "content": "你好"}, {"role": "assistant", "content": "您好"}, {"role": "user", "content": "我想退货怎么办"},
			{"role": "assistant", "content": "好的"}, {"role": "user", "content": "感谢评价"}, {"role": "user", "content": "嗯嗯"}]}]}`,
			map[string]any{"next_user_message": "我想退货怎么办"}, false},
	} {
		r := rec(t, tc.record)
		got := map[string]any{}
		for _, l := range Labels(r) {
			switch l.Kind {
			case Continuous:
				got[l.Field] = l.Value
			case Text:
				got[l.Field] = l.Text
			default:
				got[l.Field] = int(l.Value)
			}
			if zh, en := questionTexts(l.Field); zh == "" || en == "" {
				t.Errorf("%s: no question text for %s", tc.name, l.Field)
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: labels %v, want %v", tc.name, got, tc.want)
		}
		if HighValue(r) != tc.high {
			t.Errorf("%s: high_value %v, want %v", tc.name, HighValue(r), tc.high)
		}
	}
	ls := Labels(rec(t, `{"type": "电商客服对话", "action": [{"type": "dialogue", "content": [
		{"role": "user", "content": "你好"}, {"role": "assistant", "content": "您好"}, {"role": "user", "content": "我想退货怎么办"}]}]}`))
	if len(ls) != 1 || ls[0].Dialogue != "用户: 你好\n客服: 您好" {
		t.Fatalf("dialogue = %+v", ls)
	}
	if q := QuestionText(ls[0], LangZH); !strings.HasSuffix(q, "【对话历史记录】\n用户: 你好\n客服: 您好") {
		t.Errorf("question %q", q)
	}
}

func TestPythonFormatting(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{59, "59.0"}, {0.1, "0.1"}, {1e16, "1e+16"}, {1.5e-5, "1.5e-05"}, {0.0001, "0.0001"},
		{123456789012345.6, "123456789012345.6"}, {math.Copysign(0, -1), "-0.0"}, {1500, "1500.0"},
	} {
		if got := pyfmt.Float(tc.f); got != tc.want {
			t.Errorf("pyfmt.Float(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
	for _, tc := range []struct {
		n         num
		div, mod_ string
	}{
		{intNum(185), "3", "5"}, {intNum(-7), "-1", "53"}, {floatNum(185), "3.0", "5.0"}, {floatNum(-7.5), "-1.0", "52.5"},
	} {
		if d, m := tc.n.floorDiv(60).String(), tc.n.mod(60).String(); d != tc.div || m != tc.mod_ {
			t.Errorf("%v: //60 = %s, %%60 = %s; want %s, %s", tc.n, d, m, tc.div, tc.mod_)
		}
	}
	for _, tc := range []struct {
		src  string
		want string
	}{
		{`59`, "59"}, {`59.0`, "59.0"}, {`1E2`, "100.0"}, {`true`, "True"}, {`null`, "None"}, {`-0`, "0"},
		{`"s"`, "s"}, {`["a", 1, {"k": "it's"}]`, `['a', 1, {'k': "it's"}]`}, {`"a\nb"`, "a\nb"},
		{`[12345678901234567890]`, "[12345678901234567890]"},
	} {
		v, err := decodeJSON(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		if got := pyStr(v); got != tc.want {
			t.Errorf("pyStr(%s) = %q, want %q", tc.src, got, tc.want)
		}
	}
	if got := pyfmt.Str("a'b\"c\\\n\x01\u3000中"); got != `'a\'b"c\\\n\x01\u3000中'` {
		t.Errorf("pyQuote = %s", got)
	}
	if s, cut := runePrefix("中文abc", 3); s != "中文a" || !cut {
		t.Errorf("runePrefix = %q %v", s, cut)
	}
	if s, cut := runePrefix("中文", 2); s != "中文" || cut {
		t.Errorf("runePrefix exact = %q %v", s, cut)
	}
}

func TestTablesAndAttrs(t *testing.T) {
	per := map[string]int{}
	for _, f := range BinaryFields() {
		per[f[:strings.IndexByte(f, '_')]]++
	}
	if want := map[string]int{"video": 6, "live": 6, "ad": 4, "shop": 2}; !reflect.DeepEqual(per, want) {
		t.Errorf("binary fields per scene %v", per)
	}
	for _, s := range Scenes() {
		if c, ok := CanonicalScene(s); !ok || c != s {
			t.Errorf("scene %s not canonical", s)
		}
	}
	for scene, prefix := range map[string]string{SceneVideo: "video", SceneLive: "live", SceneAd: "ad", SceneShop: "shop", SceneSearch: ""} {
		if got := ScenePrefix(scene); got != prefix {
			t.Errorf("ScenePrefix(%s) = %q", scene, got)
		}
	}
	for _, tc := range []struct {
		record string
		want   map[string]string
	}{
		{`{"type": "视频浏览", "context": {"fans_user_num": 25000, "is_verified": false, "duration": 185, "photo_type": "VIDEO"}, "action": [{"type": "like"}]}`,
			map[string]string{"fans_range": "1w-10w", "verified": "false", "duration_band": "3-10min", "photo_type": "VIDEO"}},
		{`{"type": "商城购物", "context": {"product_id": "1", "item_price": 89.9, "category_level1_name": "厨具", "category_level2_name": "锅|具", "industry_level1_name": "家居"}, "action": []}`,
			map[string]string{"product_id": "1", "price_band": "50-100", "category": "厨具|锅/具", "industry": "家居"}},
		{`{"type": "广告推荐", "context": {"product": "P", "industry_main": "游戏", "industry_sub": "游戏"}, "action": []}`,
			map[string]string{"product": "P", "industry": "游戏"}},
		{`{"type": "电商客服对话", "context": {"ticket_category": "售后", "product_category_info": "厨具"}, "action": []}`,
			map[string]string{"ticket_category": "售后", "product_category": "厨具"}},
		{`{"type": "搜索行为", "action": [{"type": "search", "keyword": "k"}]}`, nil},
	} {
		r := rec(t, tc.record)
		if got := Attrs(r); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Attrs(%s) = %v, want %v", r.Scene, got, tc.want)
		}
	}
	if got := rec(t, `{"type": "商城购物", "action": [{"type": "cart"}, {"type": "purchase"}]}`).ActTypes(); !reflect.DeepEqual(got, []string{"cart", "purchase"}) {
		t.Errorf("ActTypes = %v", got)
	}
}

func TestDecodeLargeContainers(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 10000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"k": 1}`)
	}
	b.WriteString("]")
	v, err := decodeJSON(b.String())
	if err != nil || v.Len() != 10000 || v.Index(9999).Fields().V("k").Text() != "1" {
		t.Fatalf("decoded %d elements, %v", v.Len(), err)
	}
}
