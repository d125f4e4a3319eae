package omnibehavior

import (
	"fmt"
	"github.com/memharness/memharness/internal/pyfmt"
	"strconv"
	"strings"

	"github.com/memharness/memharness/datasets/sampling"
)

// User is one user's trace.
type User struct {
	ID      string
	Profile string
	// Records are in file order (the release sorts them by the timestamp
	// string).
	Records []Record
	// Source is the file the user was read from.
	Source string
}

// Record is one entry of action_history.
type Record struct {
	// Type is the scene string as found in the data (kept for display).
	Type string
	// Scene is the canonical (Chinese) scene name when Type is a known
	// scene or alias, else Type itself.
	Scene string
	// Timestamp is kept as the raw string: windows compare it as a string.
	Timestamp string
	// Context is nil when the record has no context (search) or it is null.
	Context Fields
	Actions []Act
	// Raw is the record as decoded (numeric strings already coerced), for
	// writing it back.
	Raw Value
}

// Act is one element of a record's action list.
type Act struct {
	Type   string
	Fields Fields // every member, "type" included
}

// ActTypes lists the record's act types in order.
func (r *Record) ActTypes() []string {
	out := make([]string, len(r.Actions))
	for i, a := range r.Actions {
		out[i] = a.Type
	}
	return out
}

// hasAct reports whether an act of type t is present.
func (r *Record) hasAct(t string) bool {
	for _, a := range r.Actions {
		if a.Type == t {
			return true
		}
	}
	return false
}

// firstAct returns the first act of type t.
func (r *Record) firstAct(t string) (Act, bool) {
	for _, a := range r.Actions {
		if a.Type == t {
			return a, true
		}
	}
	return Act{}, false
}

// Canonical scene names (re-exported from datasets/sampling).
const (
	SceneVideo           = sampling.SceneVideo
	SceneLive            = sampling.SceneLive
	SceneShop            = sampling.SceneShop
	SceneAd              = sampling.SceneAd
	SceneCustomerService = sampling.SceneCustomerService
	SceneSearch          = sampling.SceneSearch
	SceneMovie           = sampling.SceneMovie
)

// Scenes returns the OmniBehavior scenes in display order.
func Scenes() []string {
	return []string{SceneVideo, SceneLive, SceneAd, SceneShop, SceneSearch, SceneCustomerService}
}

// CanonicalScene folds a scene string to its canonical Chinese name; the
// English release names are aliases, matched case-insensitively
// (src/action_types.py). It reports false (and returns the trimmed input)
// for an unknown scene.
func CanonicalScene(raw string) (string, bool) {
	s := strings.TrimSpace(raw)
	switch s {
	case SceneVideo, SceneLive, SceneShop, SceneAd, SceneCustomerService, SceneSearch, SceneMovie:
		return s, true
	}
	switch strings.ToLower(s) {
	case "video browsing":
		return SceneVideo, true
	case "live streaming":
		return SceneLive, true
	case "e-commerce":
		return SceneShop, true
	case "advertisement":
		return SceneAd, true
	case "customer service":
		return SceneCustomerService, true
	case "search behavior":
		return SceneSearch, true
	}
	return s, false
}

// ScenePrefix is the metric-field prefix of a scene ("video", "live",
// "ad", "shop"), "" for scenes without binary questions.
func ScenePrefix(scene string) string {
	switch scene {
	case SceneVideo:
		return "video"
	case SceneLive:
		return "live"
	case SceneAd:
		return "ad"
	case SceneShop:
		return "shop"
	case SceneMovie:
		return "movie"
	}
	return ""
}

// numericContext and numericAct name the numeric fields: the loader
// accepts a number, a numeric string or a string with the unit 秒 for
// them, and rejects anything else.
func numericContext(key string) bool {
	switch key {
	case "duration", "fans_user_num", "show_cnt", "play_cnt", "complete_play_cnt",
		"like_cnt", "comment_cnt", "share_cnt", "collect_cnt", "download_cnt", "follow_cnt",
		"report_cnt", "reduce_similar_cnt", "live_total_user_cnt", "live_total_view_cnt",
		"live_total_view_duration", "live_like_cnt", "live_comment_cnt", "item_price",
		"item_num_180d_sales", "item_num_good_assess", "item_num_180d_rebuyer", "item_num_180d_buyer",
		"item_num_180d_cart", "pay_item_qty", "item_qty", "express_fee":
		return true
	}
	return false
}

func numericAct(key string) bool {
	switch key {
	case "play_duration", "watch_seconds", "played_loop_cnt", "play_count", "like_cnt",
		"comment_cnt", "gift_amount", "share_cnt", "collect_cnt", "download_cnt", "report_cnt",
		"reduce_similar_cnt", "reduce_simliar_cnt", "conversion_cnt", "activation_cnt", "pay_cnt",
		"pay_purchase_amt", "form_submit_total_cnt", "join_fans_group_cnt", "show_cnt", "click_cnt",
		"item_price", "rating":
		return true
	}
	return false
}

// FieldError is a well-formed JSON document with a value of the wrong
// shape; Path is the JSON path of the value (e.g.
// user_7.action_history[12].action[0].play_duration).
type FieldError struct {
	Path string
	Msg  string
}

func (e *FieldError) Error() string { return e.Path + ": " + e.Msg }

func fieldErr(path, want string, got Value) error {
	return &FieldError{Path: path, Msg: fmt.Sprintf("want %s, got %s", want, got.describe())}
}

// under prefixes the path of a FieldError with seg (a key, or "[i]"). Paths
// are built only on failure, so decoding good data allocates none.
func under(err error, seg string) error {
	fe, ok := err.(*FieldError)
	if !ok {
		return err
	}
	switch {
	case fe.Path == "":
		fe.Path = seg
	case fe.Path[0] == '[':
		fe.Path = seg + fe.Path
	default:
		fe.Path = seg + "." + fe.Path
	}
	return fe
}

func index(i int) string { return "[" + strconv.Itoa(i) + "]" }

// coerceNumber normalises a numeric field in place: numeric strings become
// numbers, blank strings null; strings with 秒 stay strings (the reference
// prints them as written). Anything else is an error (with an empty path).
func coerceNumber(v *Value) error {
	switch v.Kind {
	case KindNull, KindInt, KindFloat, KindTrue, KindFalse:
		return nil
	case KindString:
		s := strings.TrimSpace(v.Text)
		if s == "" {
			*v = Value{Kind: KindNull}
			return nil
		}
		n, ok := parseNumString(s)
		if !ok {
			return fieldErr("", "a number", *v)
		}
		if strings.Contains(s, "秒") {
			return nil
		}
		if n.isInt {
			*v = Value{Kind: KindInt, Text: strconv.FormatInt(n.i, 10)}
		} else {
			*v = Value{Kind: KindFloat, Text: pyfmt.Float(n.f)}
		}
		return nil
	}
	return fieldErr("", "a number", *v)
}

func optString(v Value) (string, error) {
	switch v.Kind {
	case KindString:
		return v.Text, nil
	case KindNull:
		return "", nil
	}
	return "", fieldErr("", "a string", v)
}

// decodeRecord checks and converts one action_history element. It
// coerces numeric fields in place, so rec shares memory with v. Error
// paths are relative to the record.
func decodeRecord(v Value) (Record, error) {
	if v.Kind != KindObject {
		return Record{}, fieldErr("", "an object", v)
	}
	f := v.Fields()
	var r Record
	var err error
	if r.Type, err = optString(f.V("type")); err != nil {
		return r, under(err, "type")
	}
	r.Scene, _ = CanonicalScene(r.Type)
	if r.Timestamp, err = optString(f.V("timestamp")); err != nil {
		return r, under(err, "timestamp")
	}
	switch c := f.V("context"); c.Kind {
	case KindObject:
		r.Context = c.Fields()
		for i := range r.Context {
			m := &r.Context[i]
			if numericContext(m.Key) {
				if err := coerceNumber(&m.Val); err != nil {
					return r, under(under(err, m.Key), "context")
				}
			}
		}
	case KindNull:
	default:
		return r, fieldErr("context", "an object", c)
	}
	acts := f.V("action")
	switch acts.Kind {
	case KindArray, KindNull:
	default:
		return r, fieldErr("action", "an array", acts)
	}
	if len(acts.Elems) > 0 {
		r.Actions = make([]Act, len(acts.Elems))
	}
	for i, e := range acts.Elems {
		if e.Val.Kind != KindObject {
			return r, under(fieldErr(index(i), "an object", e.Val), "action")
		}
		af := e.Val.Fields()
		t, err := optString(af.V("type"))
		if err != nil {
			return r, under(under(under(err, "type"), index(i)), "action")
		}
		for j := range af {
			m := &af[j]
			if numericAct(m.Key) {
				if err := coerceNumber(&m.Val); err != nil {
					return r, under(under(under(err, m.Key), index(i)), "action")
				}
			}
		}
		r.Actions[i] = Act{Type: t, Fields: af}
	}
	r.Raw = v
	return r, nil
}

// decodeRecords converts a list of records; error paths are relative to
// the list.
func decodeRecords(v Value) ([]Record, error) {
	switch v.Kind {
	case KindNull:
		return nil, nil
	case KindArray:
	default:
		return nil, fieldErr("", "an array", v)
	}
	out := make([]Record, len(v.Elems))
	for i, e := range v.Elems {
		r, err := decodeRecord(e.Val)
		if err != nil {
			return nil, under(err, index(i))
		}
		out[i] = r
	}
	return out, nil
}

// decodeUser converts {user_profile, action_history} found under key id.
// Error paths start with the user ID.
func decodeUser(id string, v Value, source string) (User, error) {
	if v.Kind != KindObject {
		return User{}, fieldErr(id, "an object with user_profile and action_history", v)
	}
	f := v.Fields()
	u := User{ID: id, Source: source}
	var err error
	if u.Profile, err = optString(f.V("user_profile")); err != nil {
		return u, under(under(err, "user_profile"), id)
	}
	h, ok := f.Get("action_history")
	if !ok {
		return u, &FieldError{Path: id, Msg: "no action_history"}
	}
	if u.Records, err = decodeRecords(h); err != nil {
		return u, under(under(err, "action_history"), id)
	}
	return u, nil
}
