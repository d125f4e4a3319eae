package omnibehavior

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// genText returns n code points of Chinese-looking filler.
func genText(rng *rand.Rand, n int) string {
	const pool = "今天我们来聊一聊如何在家做一道好吃的红烧肉主播正在展示锅具和调料这是一款非常实用的厨房好物欢迎大家关注点赞分享"
	runes := []rune(pool)
	var b strings.Builder
	for range n {
		b.WriteRune(runes[rng.IntN(len(runes))])
	}
	return b.String()
}

// genRecord builds one record of a realistic shape and size (the demo
// user's records average about 1.2 KB).
func genRecord(rng *rand.Rand, ts string, en bool) map[string]any {
	scene := func(zh, e string) string {
		if en {
			return e
		}
		return zh
	}
	var rec map[string]any
	switch p := rng.IntN(100); {
	case p < 40:
		acts := []any{map[string]any{"type": "watch", "play_duration": rng.IntN(300), "played_loop_cnt": rng.IntN(2),
			"is_complete_play": rng.IntN(4) == 0, "is_fast_forward_play": false, "is_backward_play": false, "is_enlarge_play": false}}
		for _, t := range []string{"like", "comment", "share", "collect", "follow"} {
			if rng.IntN(8) == 0 {
				acts = append(acts, map[string]any{"type": t})
			}
		}
		rec = map[string]any{"type": scene(SceneVideo, "Video Browsing"), "context": map[string]any{
			"caption": genText(rng, 20), "ocr": genText(rng, 80), "asr": genText(rng, 150), "duration": 10 + rng.IntN(400),
			"fans_user_num": rng.IntN(2_000_000), "fans_user_num_range": "10w-100w", "is_verified": rng.IntN(2) == 0,
			"verification_type": nil, "photo_type": "VIDEO", "upload_timestamp": "2025-08-28 12:00:00",
			"show_cnt": rng.IntN(1e6), "play_cnt": rng.IntN(1e6), "complete_play_cnt": rng.IntN(1e5), "like_cnt": rng.IntN(1e4),
			"comment_cnt": rng.IntN(1e3), "follow_cnt": rng.IntN(100), "share_cnt": rng.IntN(100), "download_cnt": 0,
			"collect_cnt": rng.IntN(500), "report_cnt": 0, "reduce_similar_cnt": rng.IntN(3)}, "action": acts}
	case p < 65:
		acts := []any{map[string]any{"type": "watch", "play_duration": rng.IntN(3000), "play_count": 1 + rng.IntN(3)}}
		if rng.IntN(5) == 0 {
			acts = append(acts, map[string]any{"type": "comment", "comment_cnt": 1 + rng.IntN(9)})
		}
		if rng.IntN(8) == 0 {
			acts = append(acts, map[string]any{"type": "send_gift", "gift_amount": 1 + rng.IntN(5)})
		}
		ctx := map[string]any{"live_comment_cnt": rng.IntN(1e4), "live_like_cnt": rng.IntN(1e5), "live_cover_content": genText(rng, 150)}
		if rng.IntN(4) != 0 {
			ctx["live_title"], ctx["live_category"] = genText(rng, 12), "美食"
			ctx["live_total_view_cnt"], ctx["live_total_view_duration"] = rng.IntN(1e7), rng.IntN(1e9)
			ctx["live_total_user_cnt"], ctx["is_shop_live"] = rng.IntN(1e5), rng.IntN(3) == 0
		}
		rec = map[string]any{"type": scene(SceneLive, "Live Streaming"), "context": ctx, "action": acts}
	case p < 75:
		ctx := map[string]any{"product": genText(rng, 6), "industry_main": "工具软件", "industry_sub": "效率工具", "show_cnt": rng.IntN(5),
			"ocr_text": genText(rng, 40), "asr_text": nil, "caption": genText(rng, 30), "duration": nil}
		for _, k := range []string{"is_verified", "verification_type", "fans_user_num", "fans_user_num_op_range", "photo_type",
			"play_cnt", "upload_timestamp", "complete_play_cnt", "like_cnt", "comment_cnt", "follow_cnt", "share_cnt",
			"download_cnt", "collect_cnt", "report_cnt", "reduce_similar_cnt"} {
			ctx[k] = nil
		}
		acts := []any{map[string]any{"type": "watch", "is_complete_play": rng.IntN(2) == 0}}
		if rng.IntN(10) == 0 {
			acts = append(acts, map[string]any{"type": "activation", "activation_cnt": 1})
		}
		rec = map[string]any{"type": scene(SceneAd, "Advertisement"), "context": ctx, "action": acts}
		ts = ts[:10] // ads are date-only
	case p < 87:
		rec = map[string]any{"type": scene(SceneShop, "E-commerce"), "context": map[string]any{
			"product_source": "直播间", "product_id": fmt.Sprint(rng.Int64()), "item_title": genText(rng, 20),
			"external_item_title": genText(rng, 20), "item_desc": nil, "item_main_image_url": "https://example.invalid/img.jpg",
			"item_price": float64(rng.IntN(50000)) / 100, "category_level1_name": "厨具", "category_level2_name": "锅具",
			"category_level3_name": "炒锅", "industry_level1_name": "家居", "industry_level2_name": "厨房", "industry_level3_name": "锅具",
			"item_num_180d_sales": rng.IntN(1e5), "item_num_good_assess": rng.IntN(1e4), "item_num_180d_rebuyer": rng.IntN(100),
			"item_num_180d_buyer": rng.IntN(1e4), "item_num_180d_cart": rng.IntN(1e5), "pay_item_qty": 1},
			"action": []any{map[string]any{"type": "cart", "is_add_to_cart": rng.IntN(3) == 0},
				map[string]any{"type": "purchase", "is_pay": rng.IntN(6) == 0}}}
	case p < 95:
		rec = map[string]any{"type": scene(SceneSearch, "Search Behavior"), "action": []any{
			map[string]any{"type": "search", "keyword": genText(rng, 4)}, map[string]any{"type": "show", "show_cnt": rng.IntN(20)},
			map[string]any{"type": "click", "click_cnt": rng.IntN(3)}}}
	default:
		var turns []any
		for i := range 2 + rng.IntN(8) {
			role := "user"
			if i%2 == 1 {
				role = "assistant"
			}
			turns = append(turns, map[string]any{"role": role, "content": genText(rng, 10+rng.IntN(30))})
		}
		rec = map[string]any{"type": scene(SceneCustomerService, "Customer Service"), "context": map[string]any{
			"ticket_category": "售后", "product_name": genText(rng, 10), "product_category_info": "厨具", "item_price": 89.9,
			"item_qty": 1, "express_fee": 0, "pay_order_time": "2025-09-01 10:00:00"},
			"action": []any{map[string]any{"type": "dialogue", "content": turns}, map[string]any{"type": "purchase", "paid": true}}}
	}
	rec["timestamp"] = ts
	return rec
}

// genUser builds a user with n records spread over Sep 1 – Nov 30, sorted
// by timestamp string as in the release.
func genUser(rng *rand.Rand, n int, en bool) map[string]any {
	stamps := make([]string, n)
	for i := range stamps {
		day := rng.IntN(91)
		month, dom := 9, day+1
		if day >= 30 {
			month, dom = 10, day-29
		}
		if day >= 61 {
			month, dom = 11, day-60
		}
		stamps[i] = fmt.Sprintf("2025-%02d-%02d %02d:%02d:%02d", month, dom, rng.IntN(24), rng.IntN(60), rng.IntN(60))
	}
	sort.Strings(stamps)
	recs := make([]any, n)
	for i, ts := range stamps {
		recs[i] = genRecord(rng, ts, en)
	}
	sort.SliceStable(recs, func(i, j int) bool {
		return recs[i].(map[string]any)["timestamp"].(string) < recs[j].(map[string]any)["timestamp"].(string)
	})
	return map[string]any{"user_profile": "这是一位年龄在31-40岁的女性用户，学历为本科。", "action_history": recs}
}

// writeUsers writes users user_001.. as per-user files in dir.
func writeUsers(tb testing.TB, dir string, users, minRecs, maxRecs int, seed uint64) int64 {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	var total int64
	for i := 1; i <= users; i++ {
		id := fmt.Sprintf("user_%03d", i)
		n := minRecs + rng.IntN(maxRecs-minRecs+1)
		data, err := json.Marshal(map[string]any{id: genUser(rng, n, false)})
		if err != nil {
			tb.Fatal(err)
		}
		total += int64(len(data))
		if err := os.WriteFile(filepath.Join(dir, id+".json"), data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return total
}

// BenchmarkLoad200Users loads 200 generated users of 1500–3000 records
// each (all scenes, realistic field sizes) from per-user files; the target
// is under 2 s on 2 cores.
func BenchmarkLoad200Users(b *testing.B) {
	dir := b.TempDir()
	size := writeUsers(b, dir, 200, 1500, 3000, 1)
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		d, err := Load(dir, "")
		if err != nil || len(d.Users) != 200 || len(d.Errors) != 0 {
			b.Fatalf("users %d, errors %v, err %v", len(d.Users), d.Errors, err)
		}
	}
}
