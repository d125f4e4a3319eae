package omnibehavior

import (
	"strconv"
	"strings"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/datasets/sampling"
	"github.com/memharness/memharness/llm/tokens"
)

// Question kinds beyond behavior.Binary.
const (
	Continuous = "continuous"
	Text       = "text"
)

// InWindow reports whether a timestamp lies in [start, end] comparing raw
// strings, as the reference does: with end "2025-09-30" the timed records
// of Sep 30 ("2025-09-30 09:28:22" > "2025-09-30") fall outside while a
// date-only record of that day stays in. An empty bound is open.
func InWindow(ts, start, end string) bool {
	return (start == "" || ts >= start) && (end == "" || ts <= end)
}

// ShouldFilter is the reference's should_filter_action: the record is
// dropped from histories and never sampled as a test action when
//
//	(a) it is an ad whose context.show_cnt is present and equals 0;
//	(b) it is a live record whose context has exactly the two keys
//	    live_comment_cnt and live_like_cnt, both 0;
//	(c) any watch act has play_duration == 0 (a number, or a string such
//	    as "0秒") or watch_seconds == 0.
func ShouldFilter(r *Record) bool {
	c := r.Context
	switch r.Scene {
	case SceneAd:
		if n, ok := numOf(c.V("show_cnt")); ok && n.isZero() {
			return true
		}
	case SceneLive:
		if c.Len() == 2 && isZero(c.V("live_comment_cnt")) && isZero(c.V("live_like_cnt")) {
			return true
		}
	}
	for _, a := range r.Actions {
		if a.Type != "watch" {
			continue
		}
		if pd := a.Fields.V("play_duration"); pd.Kind() != KindNull {
			if n, ok := secondsOf(pd); ok && n.isZero() {
				return true
			}
		}
		if isZero(a.Fields.V("watch_seconds")) {
			return true
		}
	}
	return false
}

// isZero is Python's `v == 0` for a decoded value (False == 0 holds; a
// string never equals 0).
func isZero(v Value) bool {
	n, ok := numOf(v)
	return ok && n.isZero()
}

// blank is the reference's `not s or not s.strip()`.
func blank(v Value) bool {
	return !truthy(v) || strings.TrimSpace(pyStr(v)) == ""
}

// HasSufficientContext is the reference's has_sufficient_context_for_
// prediction: a video needs a non-blank caption, ocr or asr; a live record
// a non-blank live_title or live_category; every other scene passes.
func HasSufficientContext(r *Record) bool {
	c := r.Context
	switch r.Scene {
	case SceneVideo:
		return !blank(c.V("caption")) || !blank(c.V("ocr")) || !blank(c.V("asr"))
	case SceneLive:
		return !blank(c.V("live_title")) || !blank(c.V("live_category"))
	}
	return true
}

// HasSufficientContextForDraw is the release's other copy of that check,
// the one its practice-target draw (z_1_get_practice_source.py) applies: a
// video reads ocr_text and asr_text instead of ocr and asr (the names of an
// advertisement's fields, not a video's), so a video with only an ocr or
// asr text passes the practice-stage check and fails this one.
func HasSufficientContextForDraw(r *Record) bool {
	c := r.Context
	switch r.Scene {
	case SceneVideo:
		return !blank(c.V("caption")) || !blank(c.V("ocr_text")) || !blank(c.V("asr_text"))
	case SceneLive:
		return !blank(c.V("live_title")) || !blank(c.V("live_category"))
	}
	return true
}

// HighValue reports a high-value record for the balanced sampler (one of
// its act types is in the scene's HIGH set, see sampling.HighValue).
func HighValue(r *Record) bool {
	for _, a := range r.Actions {
		if sampling.HighValueAct(r.Scene, a.Type) {
			return true
		}
	}
	return false
}

// Label is one question the reference asks about a record, with its true
// answer.
type Label struct {
	Field string
	// Kind is behavior.Binary, Continuous or Text.
	Kind string
	// Value is 0/1 for binary fields and the seconds for continuous ones.
	Value float64
	// Text is the answer of a text field.
	Text string
	// Dialogue is, for next_user_message, the earlier turns shown with
	// the question (at most 4000 estimated tokens, newest kept), one
	// "用户: ..." / "客服: ..." line per turn; empty when the target is the
	// user's first message.
	Dialogue string
	// HasDialogue: some earlier user or agent turn exists (the question
	// then shows the dialogue rather than opening the conversation).
	HasDialogue bool
}

// BinaryFields returns the 18 binary fields of Table 1, grouped by scene
// (video 6, live 6, ad 4, shop 2) in the reference's question order.
func BinaryFields() []string {
	return []string{
		"video_completed", "video_liked", "video_commented", "video_shared", "video_collected", "video_followed",
		"live_liked", "live_commented", "live_sent_gift", "live_followed", "live_shared", "live_clicked_cart",
		"ad_liked", "ad_commented", "ad_activated", "ad_form_submitted",
		"shop_added_to_cart", "shop_order_success",
	}
}

func bin(field string, yes bool) Label {
	l := Label{Field: field, Kind: behavior.Binary}
	if yes {
		l.Value = 1
	}
	return l
}

// Labels returns the questions of a record with their answers, in the
// reference's order (build_prediction_questions):
//
//   - video: video_watch_seconds, then the 6 binary fields;
//   - live: live_watch_seconds, 5 binary fields, and live_clicked_cart only
//     when context.is_shop_live is truthy;
//   - ad: ad_watch_seconds only when a watch act exists, then 4 binary
//     fields;
//   - shop: 2 binary fields;
//   - search: search_keyword when the keyword is non-empty;
//   - customer service: next_user_message when a usable user turn exists.
//
// Binary labels are presence of an act type, except video_completed,
// live_clicked_cart, ad_activated, ad_form_submitted and the shop fields,
// which read act fields.
func Labels(r *Record) []Label {
	switch r.Scene {
	case SceneVideo:
		return videoLabels(r)
	case SceneLive:
		return liveLabels(r)
	case SceneAd:
		return adLabels(r)
	case SceneShop:
		cart := false
		for _, a := range r.Actions {
			if a.Type == "cart" && truthy(a.Fields.V("is_add_to_cart")) {
				cart = true
				break
			}
		}
		order := false
		for _, a := range r.Actions {
			if a.Type == "purchase" && paid(a) {
				order = true
				break
			}
		}
		return []Label{bin("shop_added_to_cart", cart), bin("shop_order_success", order)}
	case SceneSearch:
		var kw Value
		if a, ok := r.firstAct("search"); ok {
			kw = a.Fields.V("keyword")
		}
		if truthy(kw) {
			return []Label{{Field: "search_keyword", Kind: Text, Text: pyStr(kw)}}
		}
	case SceneCustomerService:
		if l, ok := nextUserMessage(r); ok {
			return []Label{l}
		}
	}
	return nil
}

func videoLabels(r *Record) []Label {
	dur := 0.0
	if n, ok := secondsOf(r.Context.V("duration")); ok {
		dur = n.float()
	}
	watch, completed := 0.0, false
	if a, ok := r.firstAct("watch"); ok {
		if n, ok := secondsOf(a.Fields.V("play_duration")); ok {
			watch = n.float()
		}
		if v, ok := a.Fields.Get("is_complete_play"); ok {
			completed = truthy(v)
		} else if dur > 0 {
			completed = watch >= dur
		}
	}
	return []Label{
		{Field: "video_watch_seconds", Kind: Continuous, Value: watch},
		bin("video_completed", completed),
		bin("video_liked", r.hasAct("like")),
		bin("video_commented", r.hasAct("comment")),
		bin("video_shared", r.hasAct("share")),
		bin("video_collected", r.hasAct("collect")),
		bin("video_followed", r.hasAct("follow")),
	}
}

func liveLabels(r *Record) []Label {
	watch := 0.0
	if a, ok := r.firstAct("watch"); ok {
		watch = liveWatchSeconds(a.Fields)
	}
	out := []Label{
		{Field: "live_watch_seconds", Kind: Continuous, Value: watch},
		bin("live_liked", r.hasAct("like")),
		bin("live_commented", r.hasAct("comment")),
		bin("live_sent_gift", r.hasAct("send_gift")),
		bin("live_followed", r.hasAct("follow")),
		bin("live_shared", r.hasAct("share")),
	}
	if truthy(r.Context.V("is_shop_live")) {
		clicked := false
		for _, a := range r.Actions {
			if a.Type == "click_cart" && truthy(a.Fields.V("is_click_cart_action")) {
				clicked = true
				break
			}
		}
		out = append(out, bin("live_clicked_cart", clicked))
	}
	return out
}

func adLabels(r *Record) []Label {
	var out []Label
	if a, ok := r.firstAct("watch"); ok {
		out = append(out, Label{Field: "ad_watch_seconds", Kind: Continuous, Value: adWatchSeconds(a.Fields).float()})
	}
	countAct := func(t, key string) bool {
		for _, a := range r.Actions {
			if a.Type != t {
				continue
			}
			if n, ok := numOf(a.Fields.V(key)); ok && n.float() > 0 {
				return true
			}
		}
		return false
	}
	return append(out,
		bin("ad_liked", r.hasAct("like")),
		bin("ad_commented", r.hasAct("comment")),
		bin("ad_activated", countAct("activation", "activation_cnt")),
		bin("ad_form_submitted", countAct("submit", "form_submit_total_cnt")),
	)
}

// maxDialogueTokens bounds the dialogue shown with next_user_message.
const maxDialogueTokens = 4000

// nextUserMessage finds the last user turn that is longer than 2 code
// points (after trimming) and mentions neither 评价 nor 会话转移; the turns
// before it are the dialogue context.
func nextUserMessage(r *Record) (Label, bool) {
	a, ok := r.firstAct("dialogue")
	if !ok {
		return Label{}, false
	}
	turns := a.Fields.V("content")
	if turns.Kind() != KindArray {
		return Label{}, false
	}
	target := -1
	for i := turns.Len() - 1; i >= 0; i-- {
		m := turns.Index(i).Fields()
		if pyStr(m.V("role")) != "user" {
			continue
		}
		text := contentOf(m)
		trimmed := strings.TrimSpace(text)
		if trimmed == "" || strings.Contains(text, "评价") || strings.Contains(text, "会话转移") {
			continue
		}
		if len([]rune(trimmed)) <= 2 {
			continue
		}
		target = i
		break
	}
	if target < 0 {
		return Label{}, false
	}
	var prior []string
	for i := range target {
		m := turns.Index(i).Fields()
		role := pyStr(m.V("role"))
		text := contentOf(m)
		if (role == "user" || role == "assistant") && strings.TrimSpace(text) != "" {
			who := "客服"
			if role == "user" {
				who = "用户"
			}
			prior = append(prior, who+": "+text)
		}
	}
	// Keep the newest turns that fit the budget, stopping at the first
	// that does not.
	used, start := 0, len(prior)
	for i := len(prior) - 1; i >= 0; i-- {
		c := tokens.Approx{}.Count(prior[i] + "\n")
		if used+c > maxDialogueTokens {
			break
		}
		used += c
		start = i
	}
	dialogue := strings.Join(prior[start:], "\n")
	if start > 0 {
		dialogue = "（以下是最近 " + strconv.Itoa(len(prior)-start) + " 轮对话，更早的 " + strconv.Itoa(start) + " 轮已省略）\n" + dialogue
	}
	return Label{Field: "next_user_message", Kind: Text, Text: contentOf(turns.Index(target).Fields()), Dialogue: dialogue, HasDialogue: len(prior) > 0}, true
}

func contentOf(m Fields) string {
	v, ok := m.Get("content")
	if !ok || v.Kind() == KindNull {
		return ""
	}
	return pyStr(v)
}

// formatLabel renders a label's answer as behavior.Question.Label: "1"/"0"
// for binary fields, the shortest decimal form of the seconds for
// continuous ones ("95", "11.75"), the text itself for text fields.
func formatLabel(l Label) string {
	switch l.Kind {
	case Text:
		return l.Text
	case behavior.Binary:
		if l.Value != 0 {
			return "1"
		}
		return "0"
	}
	return strconv.FormatFloat(l.Value, 'f', -1, 64)
}
