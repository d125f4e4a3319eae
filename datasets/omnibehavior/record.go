package omnibehavior

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/memharness/memharness/datasets/sampling"
	"github.com/memharness/memharness/internal/pyfmt"
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
	// Context is Empty when the record has no context (search), or it is
	// null or {}.
	Context Fields
	Actions []Act
	// Raw is the record as decoded (numeric strings already coerced), for
	// writing it back. Context, Actions and Raw are views into the user's
	// compact document (see doc).
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

// coerce normalises a numeric field in place: numeric strings become
// numbers, blank strings null; strings with 秒 stay strings (the reference
// prints them as written). Anything else is an error (with an empty path).
// It runs on a document being built, and is idempotent.
func coerce(v Value) error {
	switch v.Kind() {
	case KindNull, KindInt, KindFloat, KindTrue, KindFalse:
		return nil
	case KindString:
		s := strings.TrimSpace(v.Text())
		nd := &v.d.nodes[v.i]
		if s == "" {
			*nd = node{kk: nd.kk&^0xff | uint32(KindNull)}
			return nil
		}
		n, ok := parseNumString(s)
		if !ok {
			return fieldErr("", "a number", v)
		}
		if strings.Contains(s, "秒") {
			return nil
		}
		kind, lit := KindInt, ""
		if n.isInt {
			lit = strconv.FormatInt(n.i, 10)
		} else {
			kind, lit = KindFloat, pyfmt.Float(n.f)
		}
		off := len(v.d.buf)
		if off+len(lit) > math.MaxUint32 {
			return &FieldError{Msg: "the strings and numbers of the document exceed 4 GiB"}
		}
		v.d.buf = append(v.d.buf, lit...)
		*nd = node{kk: nd.kk&^0xff | uint32(kind), off: uint32(off), n: uint32(len(lit))}
		return nil
	}
	return fieldErr("", "a number", v)
}

func optString(v Value) (string, error) {
	switch v.Kind() {
	case KindString:
		return v.Text(), nil
	case KindNull:
		return "", nil
	}
	return "", fieldErr("", "a string", v)
}

// wantOptString checks that v is a string or null.
func wantOptString(v Value) error {
	switch v.Kind() {
	case KindString, KindNull:
		return nil
	}
	return fieldErr("", "a string", v)
}

// Decoding runs in two steps so that what a user keeps points into the
// finished, compact document: check validates a record and coerces its
// numeric fields while the document is being built; build then makes the
// Record, and cannot fail.

// checkRecord checks one action_history element, coercing its numeric
// fields in place. Error paths are relative to the record.
func checkRecord(v Value) error {
	if v.Kind() != KindObject {
		return fieldErr("", "an object", v)
	}
	f := v.Fields()
	if err := wantOptString(f.V("type")); err != nil {
		return under(err, "type")
	}
	if err := wantOptString(f.V("timestamp")); err != nil {
		return under(err, "timestamp")
	}
	switch c := f.V("context"); c.Kind() {
	case KindObject:
		for _, m := range c.Elems() {
			if numericContext(m.Key) {
				if err := coerce(m.Val); err != nil {
					return under(under(err, m.Key), "context")
				}
			}
		}
	case KindNull:
	default:
		return fieldErr("context", "an object", c)
	}
	acts := f.V("action")
	switch acts.Kind() {
	case KindArray, KindNull:
	default:
		return fieldErr("action", "an array", acts)
	}
	for i, e := range acts.Elems() {
		if e.Val.Kind() != KindObject {
			return under(fieldErr(index(i), "an object", e.Val), "action")
		}
		af := e.Val.Fields()
		if err := wantOptString(af.V("type")); err != nil {
			return under(under(under(err, "type"), index(i)), "action")
		}
		for _, m := range af.All() {
			if numericAct(m.Key) {
				if err := coerce(m.Val); err != nil {
					return under(under(under(err, m.Key), index(i)), "action")
				}
			}
		}
	}
	return nil
}

// buildRecord makes the Record of an element checkRecord accepted.
func buildRecord(v Value) Record {
	f := v.Fields()
	r := Record{Raw: v}
	r.Type, _ = optString(f.V("type"))
	r.Scene, _ = CanonicalScene(r.Type)
	r.Timestamp, _ = optString(f.V("timestamp"))
	r.Context = f.V("context").Fields()
	acts := f.V("action")
	if n := acts.Len(); n > 0 {
		r.Actions = make([]Act, n)
		for i, e := range acts.Elems() {
			af := e.Val.Fields()
			t, _ := optString(af.V("type"))
			r.Actions[i] = Act{Type: t, Fields: af}
		}
	}
	return r
}

// checkRecords checks a list of records; error paths are relative to the
// list.
func checkRecords(v Value) error {
	switch v.Kind() {
	case KindNull:
		return nil
	case KindArray:
	default:
		return fieldErr("", "an array", v)
	}
	for i, e := range v.Elems() {
		if err := checkRecord(e.Val); err != nil {
			return under(err, index(i))
		}
	}
	return nil
}

// buildRecords makes the records of a list checkRecords accepted.
func buildRecords(v Value) []Record {
	if v.Len() == 0 {
		return nil
	}
	out := make([]Record, v.Len())
	for i, e := range v.Elems() {
		out[i] = buildRecord(e.Val)
	}
	return out
}

// checkUser checks {user_profile, action_history} found under key id.
// Error paths start with the user ID.
func checkUser(id string, v Value) error {
	if v.Kind() != KindObject {
		return fieldErr(id, "an object with user_profile and action_history", v)
	}
	f := v.Fields()
	if err := wantOptString(f.V("user_profile")); err != nil {
		return under(under(err, "user_profile"), id)
	}
	h, ok := f.Get("action_history")
	if !ok {
		return &FieldError{Path: id, Msg: "no action_history"}
	}
	if err := checkRecords(h); err != nil {
		return under(under(err, "action_history"), id)
	}
	return nil
}

// buildUser makes the User of a value checkUser accepted.
func buildUser(id string, v Value, source string) User {
	f := v.Fields()
	u := User{ID: id, Source: source}
	u.Profile, _ = optString(f.V("user_profile"))
	u.Records = buildRecords(f.V("action_history"))
	return u
}
