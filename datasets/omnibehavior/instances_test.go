package omnibehavior

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memharness/memharness/datasets/behavior"
)

// genDataset decodes n generated users (user_001..) of the given size.
func genDataset(t *testing.T, n, records int, seed uint64) []User {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	m := map[string]any{}
	for i := 1; i <= n; i++ {
		m[fmt.Sprintf("user_%03d", i)] = genUser(rng, records, i%2 == 0)
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	res := decodeFile(string(data), "gen.json")
	if len(res.errs) > 0 {
		t.Fatal(res.errs)
	}
	return res.users
}

func TestWindowsCompareRawStrings(t *testing.T) {
	var recs []string
	add := func(ts, typ, ctx string) {
		recs = append(recs, fmt.Sprintf(`{"type": %q, "timestamp": %q, "context": %s, "action": [{"type": "like"}]}`, typ, ts, ctx))
	}
	video := `{"caption": "c"}`
	add("2025-08-31 23:00:00", "视频浏览", video)
	add("2025-09-01", "广告推荐", `{}`)
	add("2025-09-01 00:00:01", "视频浏览", video)
	add("2025-09-30", "广告推荐", `{}`)
	add("2025-09-30 09:28:22", "视频浏览", video) // timed record of the last day: outside
	add("2025-10-01", "广告推荐", `{}`)
	add("2025-10-01 00:00:00", "视频浏览", video)
	add("2025-11-30", "广告推荐", `{}`)
	add("2025-11-30 10:00:00", "视频浏览", video) // outside the test window
	add("2025-12-01", "广告推荐", `{}`)
	src := `{"u": {"user_profile": "", "action_history": [` + strings.Join(recs, ",") + `]}}`
	res := decodeFile(src, "w.json")
	if len(res.errs) > 0 {
		t.Fatal(res.errs)
	}
	splits, err := Prepare(res.users, Options{TestPerUser: 2})
	if err != nil || len(splits) != 1 {
		t.Fatalf("splits %v, err %v", splits, err)
	}
	stamps := func(rs []Record) string {
		var s []string
		for _, r := range rs {
			s = append(s, r.Timestamp)
		}
		return strings.Join(s, " | ")
	}
	if got, want := stamps(splits[0].Base), "2025-09-01 | 2025-09-01 00:00:01 | 2025-09-30"; got != want {
		t.Errorf("base = %s\nwant %s", got, want)
	}
	if got, want := stamps(splits[0].Window), "2025-10-01 | 2025-10-01 00:00:00 | 2025-11-30"; got != want {
		t.Errorf("window = %s\nwant %s", got, want)
	}
	for _, tc := range []struct {
		ts   string
		want bool
	}{
		{"2025-09-30 00:00:00", false}, {"2025-09-30", true}, {"2025-09-01", true}, {"2025-08-31", false}, {"", false},
	} {
		if got := InWindow(tc.ts, "2025-09-01", "2025-09-30"); got != tc.want {
			t.Errorf("InWindow(%q) = %v", tc.ts, got)
		}
	}
}

func TestUserSelection(t *testing.T) {
	users := genDataset(t, 8, 200, 5)
	users[0].Records = users[0].Records[:59] // fewer than 2×30 records
	var noSep []Record                       // no history-window record
	for _, r := range users[1].Records {
		if !InWindow(r.Timestamp, DefaultHistoryStart, DefaultHistoryEnd) {
			noSep = append(noSep, r)
		}
	}
	users[1].Records = noSep
	all, err := Prepare(users, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range all {
		ids = append(ids, s.User)
		if len(s.Tests) != DefaultTestPerUser {
			t.Errorf("%s: %d tests", s.User, len(s.Tests))
		}
	}
	if want := "user_003,user_004,user_005,user_006,user_007,user_008"; strings.Join(ids, ",") != want {
		t.Errorf("valid users %v, want %s", ids, want)
	}
	some, err := Prepare(users, Options{Users: 3})
	if err != nil || len(some) != 3 {
		t.Fatalf("%d users, %v", len(some), err)
	}
	again, _ := Prepare(users, Options{Users: 3})
	if !reflect.DeepEqual(some, again) {
		t.Error("user sampling is not deterministic")
	}
	for i := 1; i < len(some); i++ {
		if some[i-1].User >= some[i].User {
			t.Errorf("picked users not sorted: %s, %s", some[i-1].User, some[i].User)
		}
	}
	for _, s := range some {
		full := all[indexOfUser(all, s.User)]
		if !reflect.DeepEqual(s.Tests, full.Tests) {
			t.Errorf("%s: test actions depend on the user cap", s.User)
		}
	}
	if _, err := Prepare(users, Options{Users: -1}); err == nil {
		t.Error("negative Users accepted")
	}
}

func indexOfUser(splits []Split, id string) int {
	for i, s := range splits {
		if s.User == id {
			return i
		}
	}
	return -1
}

func TestInstanceInvariants(t *testing.T) {
	users := genDataset(t, 4, 400, 9)
	splits, err := Prepare(users, Options{})
	if err != nil || len(splits) != 4 {
		t.Fatalf("%d splits, %v", len(splits), err)
	}
	sets, err := BuildInstances(&Dataset{Users: users}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	labelFields := map[string]bool{}
	for _, s := range splits {
		for i := range s.Window {
			for _, l := range Labels(&s.Window[i]) {
				labelFields[l.Field] = true
			}
		}
	}
	kinds := map[string]int{}
	for si, set := range sets {
		s := splits[si]
		if set.User != s.User {
			t.Fatalf("set %d is %s, split %s", si, set.User, s.User)
		}
		keptBase := 0
		for i := range s.Base {
			if !ShouldFilter(&s.Base[i]) {
				keptBase++
			}
		}
		keptBefore := func(t int) int {
			n := keptBase
			for i := range s.Window[:t] {
				if !ShouldFilter(&s.Window[i]) {
					n++
				}
			}
			return n
		}
		cut := keptBefore(s.Tests[0])
		seen := map[string]bool{}
		for _, in := range set.Instances {
			kinds[in.Question.Kind]++
			if seen[in.ID] {
				t.Errorf("duplicate ID %s", in.ID)
			}
			seen[in.ID] = true
			tIdx := s.Tests[in.Index]
			r := &s.Window[tIdx]
			if want := fmt.Sprintf("omnibehavior/%s/%d/%s", s.User, in.Index, in.Question.Field); in.ID != want {
				t.Errorf("ID %s, want %s", in.ID, want)
			}
			if !HasSufficientContext(r) || ShouldFilter(r) || !InWindow(r.Timestamp, DefaultTestStart, DefaultTestEnd) {
				t.Errorf("%s: test action is not a valid candidate", in.ID)
			}
			tg := in.Target
			if tg.Result != "" || tg.Outcomes != nil {
				t.Errorf("%s: target leaks its result: %q %v", in.ID, tg.Result, tg.Outcomes)
			}
			for k := range tg.Attrs {
				if labelFields[k] {
					t.Errorf("%s: target attr %s is a label", in.ID, k)
				}
			}
			if r.Scene == SceneSearch && strings.Contains(tg.Context, in.Question.Label) {
				t.Errorf("%s: search target shows its keyword", in.ID)
			}
			if tg.Time != r.Timestamp || tg.Scene != r.Scene || tg.RawScene != r.Type {
				t.Errorf("%s: target = %+v", in.ID, tg)
			}
			if got, want := len(in.History), keptBefore(tIdx); got != want {
				t.Errorf("%s: history %d events, want %d", in.ID, got, want)
			}
			if cap(in.History) != len(in.History) {
				t.Errorf("%s: history capacity leaks later events", in.ID)
			}
			for _, ev := range in.History {
				if ev.Time > tg.Time {
					t.Fatalf("%s: history event at %s after target %s", in.ID, ev.Time, tg.Time)
				}
				if ev.Result == "" {
					t.Fatalf("%s: history event without result", in.ID)
				}
			}
			if in.PracticeCut != cut {
				t.Errorf("%s: practice cut %d, want %d", in.ID, in.PracticeCut, cut)
			}
			var want Label
			for _, l := range Labels(r) {
				if l.Field == in.Question.Field {
					want = l
				}
			}
			if in.Question.Label != formatLabel(want) || in.Question.Kind != want.Kind || in.Question.Text == "" {
				t.Errorf("%s: question %+v, want label %+v", in.ID, in.Question, want)
			}
		}
	}
	if kinds[behavior.Binary] == 0 || kinds[Continuous] == 0 || kinds[Text] == 0 {
		t.Errorf("question kinds %v", kinds)
	}
	again, _ := BuildInstances(&Dataset{Users: users}, Options{})
	if !reflect.DeepEqual(sets, again) {
		t.Error("instances are not deterministic")
	}
	en, _ := BuildInstances(&Dataset{Users: users}, Options{Language: LangEN})
	for _, in := range en[0].Instances {
		if _, want := questionTexts(in.Question.Field); in.Question.Field != "next_user_message" && in.Question.Text != want {
			t.Errorf("%s: English question %q, want %q", in.ID, in.Question.Text, want)
		}
	}
	if _, err := BuildInstances(&Dataset{Users: users}, Options{Language: "de"}); err == nil {
		t.Error("unknown language accepted")
	}
}

func TestExperimentRoundTrip(t *testing.T) {
	users := genDataset(t, 3, 300, 21)
	splits, err := Prepare(users, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteExperiment(&buf, splits, Options{}, ExperimentInfo{InputPath: "gen", CreatedAt: "2026-01-01T00:00:00"}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "experiment_data.json")
	writeFile(t, path, buf.String())
	d, err := Load(path, "")
	if err != nil || len(d.Errors) > 0 {
		t.Fatal(err, d.Errors)
	}
	if len(d.Splits) != len(splits) || d.Metadata.Fields().V("test_length").Text() != "30" {
		t.Fatalf("%d splits, metadata %v", len(d.Splits), d.Metadata)
	}
	for i, s := range d.Splits {
		w := splits[i]
		if s.User != w.User || s.Profile != w.Profile || !reflect.DeepEqual(s.Tests, w.Tests) ||
			len(s.Base) != len(w.Base) || len(s.Window) != len(w.Window) {
			t.Fatalf("split %d differs", i)
		}
		for j := range s.Window {
			if a, b := appendJSON(nil, s.Window[j].Raw), appendJSON(nil, w.Window[j].Raw); !bytes.Equal(a, b) {
				t.Fatalf("split %d record %d: %s != %s", i, j, a, b)
			}
		}
	}
	fromFile, err := BuildInstances(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fromRaw, err := BuildInstances(&Dataset{Users: users}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromFile, fromRaw) {
		t.Error("instances from the experiment file differ from the raw build")
	}
	// The file is written once more identically.
	var again bytes.Buffer
	if err := WriteExperiment(&again, d.Splits, Options{}, ExperimentInfo{InputPath: "gen", CreatedAt: "2026-01-01T00:00:00"}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("rewriting the loaded experiment changes it")
	}
	if sig := ConfigSignature(200, 30, "2025-09-01", "2025-09-30", "2025-10-01", "2025-11-30", 42, "./raw_user_data/zh"); len(sig) != 8 {
		t.Errorf("signature %q", sig)
	}
}

func TestExperimentTiny(t *testing.T) {
	d, err := Load(filepath.Join("testdata", "experiment_tiny.json"), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Errors) != 1 || d.Errors[0].User != "user_003" ||
		!strings.HasSuffix(d.Errors[0].Error(), "users[1].test_actions[0].test_time_index: 5 is outside test_time_all_actions (1 records)") {
		t.Fatalf("errors = %v", d.Errors)
	}
	if len(d.Users) != 1 || len(d.Users[0].Records) != 5 || len(d.Splits) != 1 {
		t.Fatalf("users %d, splits %d", len(d.Users), len(d.Splits))
	}
	sets, err := BuildInstances(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, in := range sets[0].Instances {
		ids = append(ids, fmt.Sprintf("%s h=%d cut=%d %s", in.ID, len(in.History), in.PracticeCut, in.Question.Label))
	}
	want := []string{
		// The ad (show_cnt 0) is filtered out of the history.
		"omnibehavior/user_002/0/live_watch_seconds h=2 cut=2 40",
		"omnibehavior/user_002/0/live_liked h=2 cut=2 0",
		"omnibehavior/user_002/0/live_commented h=2 cut=2 0",
		"omnibehavior/user_002/0/live_sent_gift h=2 cut=2 0",
		"omnibehavior/user_002/0/live_followed h=2 cut=2 0",
		"omnibehavior/user_002/0/live_shared h=2 cut=2 0",
		"omnibehavior/user_002/0/live_clicked_cart h=2 cut=2 1",
		"omnibehavior/user_002/1/search_keyword h=3 cut=2 咖啡豆",
	}
	if strings.Join(ids, "\n") != strings.Join(want, "\n") {
		t.Errorf("instances:\n%s\nwant:\n%s", strings.Join(ids, "\n"), strings.Join(want, "\n"))
	}
	in := sets[0].Instances[0]
	if in.Profile != "这是一位男性用户。喜欢做饭。" || in.Target.Attrs["live_category"] != "美食" || in.Target.Attrs["shop_live"] != "true" {
		t.Errorf("instance = %+v", in)
	}
	if h := in.History[0]; h.Outcomes["live_sent_gift"] != 1 || h.Outcomes["live_watch_seconds"] != 95 || h.RawScene != "直播间" {
		t.Errorf("history event = %+v", h)
	}
}
