package omnibehavior

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

const goodUser = `{"%s": {"user_profile": "p", "action_history": [
 {"type": "视频浏览", "timestamp": "2025-09-02 10:00:00", "context": {"caption": "c", "duration": 30},
  "action": [{"type": "watch", "play_duration": 12}]}]}}`

func userJSON(id string) string { return strings.Replace(goodUser, "%s", id, 1) }

func TestLoadErrorsNameFileAndPath(t *testing.T) {
	for _, tc := range []struct {
		name, content, want string
	}{
		{"bad number", `{"user_7": {"user_profile": "p", "action_history": [
			{"type": "视频浏览", "timestamp": "2025-09-02", "action": []},
			{"type": "视频浏览", "timestamp": "2025-09-03", "context": {}, "action": [{"type": "watch", "play_duration": "abc"}]}]}}`,
			`u7.json: user_7.action_history[1].action[0].play_duration: want a number, got "abc"`},
		{"bad context number", `{"user_7": {"action_history": [{"type": "广告推荐", "context": {"show_cnt": [1]}, "action": []}]}}`,
			`u7.json: user_7.action_history[0].context.show_cnt: want a number, got array`},
		{"context not an object", `{"user_7": {"action_history": [{"type": "直播间", "context": [], "action": []}]}}`,
			`u7.json: user_7.action_history[0].context: want an object, got array`},
		{"action not a list", `{"user_7": {"action_history": [{"type": "直播间", "action": {"type": "watch"}}]}}`,
			`u7.json: user_7.action_history[0].action: want an array, got object`},
		{"act not an object", `{"user_7": {"action_history": [{"type": "直播间", "action": ["watch"]}]}}`,
			`u7.json: user_7.action_history[0].action[0]: want an object, got "watch"`},
		{"timestamp", `{"user_7": {"action_history": [{"type": "直播间", "timestamp": 20250901, "action": []}]}}`,
			`u7.json: user_7.action_history[0].timestamp: want a string, got 20250901`},
		{"history", `{"user_7": {"user_profile": "p", "action_history": "none"}}`,
			`u7.json: user_7.action_history: want an array, got "none"`},
		{"profile", `{"user_7": {"user_profile": 3, "action_history": []}}`,
			`u7.json: user_7.user_profile: want a string, got 3`},
		{"no history", `{"user_7": {"user_profile": "p"}}`, `u7.json: user_7: no action_history`},
		{"user not an object", `{"user_7": []}`, `u7.json: user_7: want an object with user_profile and action_history, got array`},
		{"syntax", "{\"user_7\": {\"action_history\": [\n {\"type\": \"直播间\", \"action\": [}]}}",
			`u7.json: line 2 col 29 (at user_7.action_history[0].action[0]): invalid JSON: unexpected character '}'`},
		{"top level", `[1]`, `u7.json: top level: want an object of users, got array`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "users")
			writeFile(t, filepath.Join(dir, "u7.json"), tc.content)
			writeFile(t, filepath.Join(dir, "u8.json"), userJSON("user_8"))
			d, err := Load(dir, "")
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if len(d.Users) != 1 || d.Users[0].ID != "user_8" {
				t.Fatalf("good user lost: %d users", len(d.Users))
			}
			if len(d.Errors) != 1 {
				t.Fatalf("errors = %v", d.Errors)
			}
			got := d.Errors[0].Error()
			want := filepath.Join(dir, "") + "/" + tc.want
			if got != want {
				t.Errorf("error\n got %s\nwant %s", got, want)
			}
		})
	}
}

func TestLoadCoercesNumbers(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "u.json"), `{"u1": {"user_profile": null, "action_history": [
	 {"type": "Video Browsing", "timestamp": "2025-10-02", "context": {"caption": "x", "duration": "185", "like_cnt": " 12 ", "show_cnt": ""},
	  "action": [{"type": "watch", "play_duration": "194秒", "watch_seconds": "2.5"}]},
	 {"type": " live streaming ", "timestamp": "2025-10-03", "context": null, "action": null}]}}`)
	d, err := Load(filepath.Join(dir, "u.json"), "")
	if err != nil || len(d.Errors) > 0 {
		t.Fatal(err, d.Errors)
	}
	r := d.Users[0].Records[0]
	for _, tc := range []struct {
		v    Value
		kind Kind
		text string
	}{
		{r.Context.V("duration"), KindInt, "185"},
		{r.Context.V("like_cnt"), KindInt, "12"},
		{r.Context.V("show_cnt"), KindNull, ""},
		{r.Actions[0].Fields.V("play_duration"), KindString, "194秒"},
		{r.Actions[0].Fields.V("watch_seconds"), KindFloat, "2.5"},
	} {
		if tc.v.Kind() != tc.kind || tc.v.Text() != tc.text {
			t.Errorf("got %v %q, want %v %q", tc.v.Kind(), tc.v.Text(), tc.kind, tc.text)
		}
	}
	if got := ResultText(&r); got != "观看了 194秒" {
		t.Errorf("result %q", got)
	}
	if r.Scene != SceneVideo || r.Type != "Video Browsing" {
		t.Errorf("scene %q raw %q", r.Scene, r.Type)
	}
	r2 := d.Users[0].Records[1]
	if r2.Scene != SceneLive || !r2.Context.Empty() || len(r2.Actions) != 0 {
		t.Errorf("null-tolerant record = %+v", r2)
	}
}

func TestLoadLayouts(t *testing.T) {
	root := t.TempDir()
	rel := filepath.Join(root, "release")
	writeFile(t, filepath.Join(rel, "zh", "user_001.json"), userJSON("user_001"))
	writeFile(t, filepath.Join(rel, "zh", "user_002.json"), userJSON("user_002"))
	writeFile(t, filepath.Join(rel, "zh", OffsetsFile), `{"user_001": 812123274}`)
	writeFile(t, filepath.Join(rel, "en", "user_001.json"), strings.ReplaceAll(userJSON("user_001"), "视频浏览", "Video Browsing"))
	many := filepath.Join(root, "many.json")
	one := `{"user_profile": "p", "action_history": [{"type": "视频浏览", "timestamp": "2025-09-02", "action": []}]}`
	writeFile(t, many, `{"b": `+one+`, "a": `+one+`}`)
	for _, tc := range []struct {
		path, lang string
		users      []string
		raw        string
	}{
		{rel, "", []string{"user_001", "user_002"}, "视频浏览"},
		{rel, LangEN, []string{"user_001"}, "Video Browsing"},
		{filepath.Join(rel, "zh"), LangEN, []string{"user_001", "user_002"}, "视频浏览"},
		{many, "", []string{"a", "b"}, "视频浏览"},
	} {
		d, err := Load(tc.path, tc.lang)
		if err != nil || len(d.Errors) > 0 {
			t.Fatalf("%s: %v %v", tc.path, err, d.Errors)
		}
		var ids []string
		for _, u := range d.Users {
			ids = append(ids, u.ID)
			if u.Records[0].Type != tc.raw || u.Records[0].Scene != SceneVideo {
				t.Errorf("%s: raw %q scene %q", tc.path, u.Records[0].Type, u.Records[0].Scene)
			}
		}
		if strings.Join(ids, ",") != strings.Join(tc.users, ",") {
			t.Errorf("%s (%s): users %v, want %v", tc.path, tc.lang, ids, tc.users)
		}
	}
}

func TestLoadFailures(t *testing.T) {
	root := t.TempDir()
	if _, err := Load(filepath.Join(root, "nope"), ""); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "jiawei-ucas/OmniBehavior") {
		t.Errorf("missing path: %v", err)
	}
	if _, err := Load(root, ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("empty dir: %v", err)
	}
	if _, err := Load(root, "fr"); err == nil {
		t.Error("unknown language accepted")
	}
	bad := filepath.Join(root, "bad")
	writeFile(t, filepath.Join(bad, "a.json"), `{`)
	d, err := Load(bad, "")
	if err == nil || len(d.Errors) != 1 || !strings.Contains(err.Error(), "a.json") {
		t.Errorf("all-bad dir: %v", err)
	}
	dup := filepath.Join(root, "dup")
	writeFile(t, filepath.Join(dup, "a.json"), userJSON("u"))
	writeFile(t, filepath.Join(dup, "b.json"), userJSON("u"))
	d, err = Load(dup, "")
	if err != nil || len(d.Users) != 1 || len(d.Errors) != 1 || d.Errors[0].User != "u" ||
		!strings.Contains(d.Errors[0].Error(), "b.json: user u: already read from") {
		t.Errorf("duplicate: %v %v", err, d.Errors)
	}
}

// TestReaderReuseKeepsEarlierUsers decodes two files with one reader (whose
// buffers the second file overwrites) and wants the first file's user,
// coerced numbers and escaped keys included, as a fresh decode gives it.
func TestReaderReuseKeepsEarlierUsers(t *testing.T) {
	dir := t.TempDir()
	first := `{"u1": {"user_profile": "p\u00e9", "action_history": [
		{"type": "视频浏览", "timestamp": "2025-09-02", "context": {"caption": "first caption", "duration": " 31 ", "k\u0065y": "v"},
		 "action": [{"type": "watch", "play_duration": "1.50"}]}]}}`
	second := `{"u2": {"user_profile": "` + strings.Repeat("x", 4096) + `", "action_history": [
		{"type": "直播间", "timestamp": "2025-09-09", "context": {"live_title": "` + strings.Repeat("y", 4096) + `"}, "action": []}]}}`
	writeFile(t, filepath.Join(dir, "a.json"), first)
	writeFile(t, filepath.Join(dir, "b.json"), second)
	var r fileReader
	a := r.load(filepath.Join(dir, "a.json"))
	b := r.load(filepath.Join(dir, "b.json"))
	if len(a.errs)+len(b.errs) > 0 || len(a.users) != 1 || len(b.users) != 1 {
		t.Fatalf("errors %v %v, users %d %d", a.errs, b.errs, len(a.users), len(b.users))
	}
	fresh := decodeFile(first, filepath.Join(dir, "a.json"))
	got, want := a.users[0], fresh.users[0]
	rg, rw := &got.Records[0], &want.Records[0]
	if got.Profile != "pé" || got.Profile != want.Profile || RecordBlock(rg) != RecordBlock(rw) ||
		string(appendJSON(nil, rg.Raw)) != string(appendJSON(nil, rw.Raw)) {
		t.Errorf("after reuse: %q %q\n%s\nwant %q\n%s", got.Profile, RecordBlock(rg), appendJSON(nil, rg.Raw), want.Profile, appendJSON(nil, rw.Raw))
	}
	if raw := string(appendJSON(nil, rg.Raw)); !strings.Contains(raw, `"duration":31`) || !strings.Contains(raw, `"play_duration":1.5`) || !strings.Contains(raw, `"key":"v"`) {
		t.Errorf("coerced record %s", raw)
	}
}
