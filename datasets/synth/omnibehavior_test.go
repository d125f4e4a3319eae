package synth_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/datasets/synth"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata golden files")

func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestWriteOmniBehaviorDeterministic(t *testing.T) {
	cfg := synth.OmniBehaviorConfig{Users: 5, MinRecords: 150, MaxRecords: 220, Seed: 7, English: true}
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if err := synth.WriteOmniBehavior(dir, cfg); err != nil {
			t.Fatal(err)
		}
	}
	x, y := readTree(t, a), readTree(t, b)
	if len(x) != 10 {
		t.Fatalf("got %d files, want 5 zh + 5 en", len(x))
	}
	for name, data := range x {
		if !bytes.Equal(data, y[name]) {
			t.Errorf("%s differs between two runs with the same config", name)
		}
	}
	cfg.Seed = 8
	if err := synth.WriteOmniBehavior(c, cfg); err != nil {
		t.Fatal(err)
	}
	z := readTree(t, c)
	if bytes.Equal(x[filepath.Join("zh", "user_001.json")], z[filepath.Join("zh", "user_001.json")]) {
		t.Error("seeds 7 and 8 gave identical files")
	}
	if _, err := synth.GenerateOmniBehavior(synth.OmniBehaviorConfig{MinRecords: 50}); err == nil {
		t.Error("MinRecords 50 accepted")
	}
}

// TestOmniBehaviorGolden pins a one-user sample (also a readable example
// of the output); regenerate with -update after a deliberate change, and
// bump OmniBehaviorVersion.
func TestOmniBehaviorGolden(t *testing.T) {
	dir := t.TempDir()
	cfg := synth.OmniBehaviorConfig{Users: 1, MinRecords: 120, MaxRecords: 120, Seed: 42, English: true}
	if err := synth.WriteOmniBehavior(dir, cfg); err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"zh", "en"} {
		got, err := os.ReadFile(filepath.Join(dir, lang, "user_001.json"))
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "omnibehavior_sample", lang, "user_001.json")
		if *updateGolden {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: output differs from %s (run with -update after a deliberate change)", lang, golden)
		}
	}
}

// Required context keys of a normal record, per scene.
var obContextKeys = map[string][]string{
	synth.OBVideo: {"caption", "ocr", "asr", "duration", "fans_user_num", "fans_user_num_range", "is_verified",
		"verification_type", "photo_type", "upload_timestamp", "show_cnt", "play_cnt", "complete_play_cnt",
		"like_cnt", "comment_cnt", "share_cnt", "collect_cnt", "download_cnt", "follow_cnt", "report_cnt",
		"reduce_similar_cnt"},
	synth.OBLive: {"live_title", "live_category", "is_shop_live", "live_total_user_cnt", "live_total_view_cnt",
		"live_total_view_duration", "live_like_cnt", "live_comment_cnt", "live_cover_content"},
	synth.OBAd: {"product", "industry_main", "industry_sub", "is_verified", "verification_type", "fans_user_num",
		"fans_user_num_op_range", "caption", "photo_type", "duration", "show_cnt", "play_cnt", "upload_timestamp",
		"complete_play_cnt", "like_cnt", "comment_cnt", "follow_cnt", "share_cnt", "download_cnt", "collect_cnt",
		"report_cnt", "reduce_similar_cnt", "ocr_text", "asr_text"},
	synth.OBShop: {"product_source", "product_id", "item_title", "external_item_title", "item_desc",
		"item_main_image_url", "item_price", "category_level1_name", "category_level2_name", "category_level3_name",
		"industry_level1_name", "industry_level2_name", "industry_level3_name", "item_num_180d_sales",
		"item_num_good_assess", "item_num_180d_rebuyer", "item_num_180d_buyer", "item_num_180d_cart", "pay_item_qty"},
	synth.OBService: {"ticket_category", "product_name", "product_category_info", "item_price", "item_qty",
		"express_fee", "pay_order_time"},
}

var obActTypes = map[string][]string{
	synth.OBVideo:   {"watch", "like", "comment", "share", "collect", "follow", "dislike"},
	synth.OBLive:    {"watch", "like", "comment", "send_gift", "follow", "share", "click_cart"},
	synth.OBAd:      {"watch", "like", "comment", "share", "conversion", "activation", "submit"},
	synth.OBShop:    {"cart", "purchase"},
	synth.OBSearch:  {"search", "show", "click"},
	synth.OBService: {"dialogue", "purchase"},
}

func truthy(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case float64:
		return x != 0
	case string:
		return x != ""
	case nil:
		return false
	}
	return true
}

func blank(ctx map[string]any, k string) bool {
	s, _ := ctx[k].(string)
	return strings.TrimSpace(s) == ""
}

// specLabels computes the binary labels of a decoded record by the rules
// of spec §1.6, independently of the generator.
func specLabels(scene string, ctx map[string]any, acts []map[string]any) []string {
	var out []string
	has := func(typ string) map[string]any {
		for _, a := range acts {
			if a["type"] == typ {
				return a
			}
		}
		return nil
	}
	add := func(name string, ok bool) {
		if ok {
			out = append(out, name)
		}
	}
	switch scene {
	case synth.OBVideo:
		if w := has("watch"); w != nil {
			if v, ok := w["is_complete_play"]; ok {
				add("video_completed", truthy(v))
			} else {
				d, _ := ctx["duration"].(float64)
				s, _ := w["play_duration"].(float64)
				add("video_completed", d > 0 && s >= d)
			}
		}
		add("video_liked", has("like") != nil)
		add("video_commented", has("comment") != nil)
		add("video_shared", has("share") != nil)
		add("video_collected", has("collect") != nil)
		add("video_followed", has("follow") != nil)
	case synth.OBLive:
		add("live_liked", has("like") != nil)
		add("live_commented", has("comment") != nil)
		add("live_sent_gift", has("send_gift") != nil)
		add("live_followed", has("follow") != nil)
		add("live_shared", has("share") != nil)
		if truthy(ctx["is_shop_live"]) {
			c := has("click_cart")
			add("live_clicked_cart", c != nil && truthy(c["is_click_cart_action"]))
		}
	case synth.OBAd:
		a := has("activation")
		add("ad_activated", a != nil && a["activation_cnt"].(float64) > 0)
		s := has("submit")
		add("ad_form_submitted", s != nil && s["form_submit_total_cnt"].(float64) > 0)
		add("ad_liked", has("like") != nil)
		add("ad_commented", has("comment") != nil)
	case synth.OBShop:
		c := has("cart")
		add("shop_added_to_cart", c != nil && truthy(c["is_add_to_cart"]))
		p := has("purchase")
		add("shop_order_success", p != nil && (truthy(p["is_pay"]) || truthy(p["paid"]) || truthy(p["order_success"])))
	}
	return out
}

var (
	reTimed = regexp.MustCompile(`^2025-(09|10|11)-\d\d \d\d:\d\d:\d\d$`)
	reDate  = regexp.MustCompile(`^2025-(09|10|11)-\d\d$`)
)

// TestOmniBehaviorSchema decodes the written files with encoding/json and
// checks them against the spec's schema and against the planted truth.
func TestOmniBehaviorSchema(t *testing.T) {
	dir := t.TempDir()
	cfg := synth.OmniBehaviorConfig{Users: 25, MinRecords: 200, MaxRecords: 400, Seed: 3, English: true}
	if err := synth.WriteOmniBehavior(dir, cfg); err != nil {
		t.Fatal(err)
	}
	truth, err := synth.GenerateOmniBehavior(cfg)
	if err != nil {
		t.Fatal(err)
	}
	enAlias := map[string]string{}
	for s := range obActTypes {
		enAlias[synth.OmniBehaviorSceneEN(s)] = s
	}
	var nFilt [3]int // ad show_cnt 0, empty live, play_duration 0
	var nThin, nNull int
	for _, lang := range []string{"zh", "en"} {
		for ui, u := range truth.Users {
			data, err := os.ReadFile(filepath.Join(dir, lang, u.ID+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var file map[string]struct {
				Profile *string          `json:"user_profile"`
				History []map[string]any `json:"action_history"`
			}
			if err := json.Unmarshal(data, &file); err != nil {
				t.Fatalf("%s/%s: %v", lang, u.ID, err)
			}
			entry, ok := file[u.ID]
			if len(file) != 1 || !ok || entry.Profile == nil || *entry.Profile == "" {
				t.Fatalf("%s/%s: want one key %q with a profile", lang, u.ID, u.ID)
			}
			if len(entry.History) != len(u.Records) || len(entry.History) < cfg.MinRecords || len(entry.History) > cfg.MaxRecords {
				t.Fatalf("%s/%s: %d records, truth %d", lang, u.ID, len(entry.History), len(u.Records))
			}
			prev := ""
			for i, rec := range entry.History {
				where := func() string { return fmt.Sprintf("%s/%s record %d", lang, u.ID, i) }
				raw, _ := rec["type"].(string)
				scene := raw
				if lang == "en" {
					scene = enAlias[raw]
				}
				if _, ok := obActTypes[scene]; !ok {
					t.Fatalf("%s: scene %q", where(), raw)
				}
				ts, _ := rec["timestamp"].(string)
				if scene == synth.OBAd && !reDate.MatchString(ts) || scene != synth.OBAd && !reTimed.MatchString(ts) {
					t.Fatalf("%s: timestamp %q for %s", where(), ts, scene)
				}
				if ts < prev || ts < "2025-09-01" || ts > "2025-11-30 23:59:59" {
					t.Fatalf("%s: timestamp %q after %q or out of range", where(), ts, prev)
				}
				prev = ts
				ctx, hasCtx := rec["context"].(map[string]any)
				if scene == synth.OBSearch {
					if _, present := rec["context"]; present {
						t.Fatalf("%s: search record has a context", where())
					}
				} else if !hasCtx {
					t.Fatalf("%s: no context", where())
				}
				actList, _ := rec["action"].([]any)
				if len(actList) == 0 {
					t.Fatalf("%s: no action", where())
				}
				acts := make([]map[string]any, len(actList))
				for k, a := range actList {
					acts[k], _ = a.(map[string]any)
					if typ, _ := acts[k]["type"].(string); !slices.Contains(obActTypes[scene], typ) {
						t.Fatalf("%s: act %q in %s", where(), typ, scene)
					}
				}
				// should_filter and has_sufficient_context, by the spec's rules.
				filtered := false
				if scene == synth.OBAd {
					if v, ok := ctx["show_cnt"].(float64); ok && v == 0 {
						filtered = true
						nFilt[0]++
					}
				}
				if scene == synth.OBLive && len(ctx) == 2 && ctx["live_comment_cnt"] == 0.0 && ctx["live_like_cnt"] == 0.0 {
					filtered = true
					nFilt[1]++
				}
				for _, a := range acts {
					if a["type"] == "watch" && (a["play_duration"] == 0.0 || a["watch_seconds"] == 0.0) {
						filtered = true
						nFilt[2]++
					}
				}
				thin := scene == synth.OBVideo && blank(ctx, "caption") && blank(ctx, "ocr") && blank(ctx, "asr") ||
					scene == synth.OBLive && blank(ctx, "live_title") && blank(ctx, "live_category")
				if thin {
					nThin++
				}
				want := u.Records[i]
				if filtered != want.Filtered || thin != want.Thin {
					t.Fatalf("%s: filtered/thin %v/%v, truth %v/%v", where(), filtered, thin, want.Filtered, want.Thin)
				}
				if !filtered && !thin {
					for _, k := range obContextKeys[scene] {
						if _, ok := ctx[k]; !ok {
							t.Fatalf("%s: %s context lacks %q", where(), scene, k)
						}
					}
				}
				for _, v := range ctx {
					if v == nil {
						nNull++
					}
				}
				if got := specLabels(scene, ctx, acts); !slices.Equal(got, want.Labels) {
					t.Fatalf("%s: labels %v, truth %v", where(), got, want.Labels)
				}
				if u.Habit.Match(rec) != want.HabitHit {
					t.Fatalf("%s: habit match %v, truth %v", where(), !want.HabitHit, want.HabitHit)
				}
			}
			_ = ui
		}
	}
	t.Logf("filtered (ad/live/watch) %v, thin %d, null context values %d", nFilt, nThin, nNull)
	if nFilt[0] == 0 || nFilt[1] == 0 || nFilt[2] == 0 || nThin == 0 || nNull == 0 {
		t.Errorf("missing special records: filtered %v thin %d nulls %d", nFilt, nThin, nNull)
	}
}

// TestOmniBehaviorPlantedSignals checks the default dataset's planted truth.
func TestOmniBehaviorPlantedSignals(t *testing.T) {
	d, err := synth.GenerateOmniBehavior(synth.OmniBehaviorConfig{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Users) != 200 || d.Users[199].ID != "user_200" {
		t.Fatalf("got %d users, last %q", len(d.Users), d.Users[len(d.Users)-1].ID)
	}
	labels := synth.OmniBehaviorLabels()
	pos := map[string]int{}
	asked := map[string]int{} // records of the label's scene
	prefix := map[string]string{synth.OBVideo: "video_", synth.OBLive: "live_", synth.OBAd: "ad_", synth.OBShop: "shop_"}
	var habitPos, habitN, otherPos, otherN int // test window, habit scene & label
	var lateHits, earlyHits, windows, missed int
	var burstPos, burstN, afterPos, afterN int
	for _, u := range d.Users {
		nSep := 0
		for _, r := range u.Records {
			if r.Timestamp < "2025-10" {
				nSep++
			}
		}
		for i, r := range u.Records {
			for _, l := range r.Labels {
				pos[l]++
			}
			if p := prefix[r.Scene]; p != "" && !r.Filtered {
				for _, l := range labels {
					if strings.HasPrefix(l, p) {
						asked[l]++
					}
				}
			}
			has := slices.Contains(r.Labels, u.Habit.Label)
			switch {
			case i >= nSep && r.Scene == u.Habit.Scene && r.HabitHit:
				habitN++
				if has {
					habitPos++
				}
				// Would the last ~50 records (an 8K-token window) show the habit?
				windows++
				if !slices.ContainsFunc(u.Records[max(0, i-50):i], func(x synth.OBRecord) bool { return x.HabitHit }) {
					missed++
				}
			case i >= nSep && r.Scene == u.Habit.Scene:
				otherN++
				if has {
					otherPos++
				}
			case i < nSep-100 && r.HabitHit:
				earlyHits++
			case i < nSep && r.HabitHit:
				lateHits++
			}
			if r.Scene == u.Burst.Scene && !r.Filtered {
				day := r.Timestamp[:10]
				switch {
				case day >= u.Burst.From && day <= u.Burst.To:
					burstN++
					if slices.Contains(r.Labels, u.Burst.Label) {
						burstPos++
					}
				case r.Timestamp >= "2025-10" && r.Timestamp < "2025-10-08":
					afterN++
					if slices.Contains(r.Labels, u.Burst.Label) {
						afterPos++
					}
				}
			}
		}
	}
	for _, l := range labels {
		rate := float64(pos[l]) / float64(asked[l])
		t.Logf("%-20s positives %6d / %6d = %.3f", l, pos[l], asked[l], rate)
		if pos[l] == 0 || pos[l] == asked[l] {
			t.Errorf("%s: %d positives of %d", l, pos[l], asked[l])
		}
		if l != "video_completed" && rate > 0.25 {
			t.Errorf("%s: positive rate %.3f, want rare", l, rate)
		}
	}
	hr, or := float64(habitPos)/float64(habitN), float64(otherPos)/float64(otherN)
	t.Logf("habit, test window: %d/%d = %.2f on habit records, %d/%d = %.3f elsewhere in the scene",
		habitPos, habitN, hr, otherPos, otherN, or)
	if hr < 0.8 || or > 0.1 {
		t.Errorf("habit does not hold in the test window: %.2f vs %.3f", hr, or)
	}
	users := float64(len(d.Users))
	t.Logf("habit records per user: %.1f before the last 100 September records, %.2f in them",
		float64(earlyHits)/users, float64(lateHits)/users)
	if float64(lateHits)/users > 1 || float64(earlyHits)/users < 8 {
		t.Errorf("habit not concentrated early: %.1f early vs %.2f late per user", float64(earlyHits)/users, float64(lateHits)/users)
	}
	t.Logf("test-window habit records whose 50 preceding records show none: %d/%d", missed, windows)
	if float64(missed) < 0.3*float64(windows) {
		t.Errorf("recent windows show the habit too often: %d/%d missed", missed, windows)
	}
	br, ar := float64(burstPos)/float64(burstN), float64(afterPos)/float64(afterN)
	t.Logf("burst label: %.2f in the burst week, %.3f in Oct 1-7", br, ar)
	if br < 0.7 || ar > 0.2 {
		t.Errorf("recency trap: %.2f in the burst vs %.3f after", br, ar)
	}
	// Base rates differ between users and, for one user, between scenes.
	var spread int
	for _, u := range d.Users {
		if u.Rates["video_liked"]/obMean("video_liked") > 2*u.Rates["live_liked"]/obMean("live_liked") ||
			u.Rates["live_liked"]/obMean("live_liked") > 2*u.Rates["video_liked"]/obMean("video_liked") {
			spread++
		}
	}
	if spread < len(d.Users)/4 {
		t.Errorf("only %d users have scene-specific engagement", spread)
	}
}

func obMean(l string) float64 {
	return map[string]float64{"video_liked": 0.06, "live_liked": 0.08}[l]
}

// BenchmarkGenerateOmniBehavior measures the default generation, which make
// perf holds to its target (≤ 2 s); tests never assert wall-clock times.
func BenchmarkGenerateOmniBehavior(b *testing.B) {
	for b.Loop() {
		if _, err := synth.GenerateOmniBehavior(synth.OmniBehaviorConfig{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteOmniBehavior(b *testing.B) {
	d, err := synth.GenerateOmniBehavior(synth.OmniBehaviorConfig{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	for b.Loop() {
		if err := d.Write(dir, false); err != nil {
			b.Fatal(err)
		}
	}
}
