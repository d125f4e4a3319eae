package omnibehavior

import (
	"bufio"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"github.com/memharness/memharness/internal/pyfmt"
	"io"
	"slices"
	"strconv"
)

// Split is one user's part of an experiment: the windows and the sampled
// test actions (PraMem's prepare_experiment_data output for one user).
type Split struct {
	User    string
	Profile string
	// Base is base_history: the records in the history window.
	Base []Record
	// Window is test_time_all_actions: the records in the test window, in
	// their original order.
	Window []Record
	// Tests are the test_time_index of the sampled test actions (indices
	// into Window), ascending.
	Tests []int
}

// decodeExperiment reads the users of an experiment_data.json, whose
// document p is building. A bad user is reported and skipped.
func decodeExperiment(p *jsonParser, top Fields, file string) fileResult {
	var res fileResult
	users := top.V("users")
	good := make([]bool, users.Len())
	for i, e := range users.Elems() {
		if user, err := checkSplit(e.Val, "users["+strconv.Itoa(i)+"]"); err != nil {
			res.errs = append(res.errs, FileError{File: file, User: user, Err: err})
			continue
		}
		good[i] = true
	}
	p.finish(top.Object().d)
	if m := top.V("metadata"); m.Kind() == KindObject {
		res.meta = m
	}
	for i, e := range users.Elems() {
		if !good[i] {
			continue
		}
		s := buildSplit(e.Val)
		recs := make([]Record, 0, len(s.Base)+len(s.Window))
		recs = append(append(recs, s.Base...), s.Window...)
		res.users = append(res.users, User{ID: s.User, Profile: s.Profile, Records: recs, Source: file})
		res.splits = append(res.splits, s)
	}
	return res
}

// checkSplit checks one user of an experiment file (coercing the numeric
// fields of its records) and returns its user ID as far as it was read.
func checkSplit(v Value, path string) (string, error) {
	if v.Kind() != KindObject {
		return "", fieldErr(path, "an object", v)
	}
	f := v.Fields()
	var user string
	switch id := f.V("user_id"); id.Kind() {
	case KindString, KindInt:
		user = id.Text()
	default:
		return "", fieldErr(path+".user_id", "a string", id)
	}
	if user == "" {
		return user, &FieldError{Path: path + ".user_id", Msg: "empty user ID"}
	}
	if err := wantOptString(f.V("user_profile")); err != nil {
		return user, under(err, path+".user_profile")
	}
	if err := checkRecords(f.V("base_history")); err != nil {
		return user, under(err, path+".base_history")
	}
	window := f.V("test_time_all_actions")
	if err := checkRecords(window); err != nil {
		return user, under(err, path+".test_time_all_actions")
	}
	tests := f.V("test_actions")
	if tests.Kind() != KindArray {
		return user, fieldErr(path+".test_actions", "an array", tests)
	}
	for k, e := range tests.Elems() {
		tp := path + ".test_actions[" + strconv.Itoa(k) + "]"
		if e.Val.Kind() != KindObject {
			return user, fieldErr(tp, "an object", e.Val)
		}
		tf := e.Val.Fields()
		iv := tf.V("test_time_index")
		idx, err := strconv.Atoi(iv.Text())
		if iv.Kind() != KindInt || err != nil {
			return user, fieldErr(tp+".test_time_index", "an integer", iv)
		}
		if idx < 0 || idx >= window.Len() {
			return user, &FieldError{Path: tp + ".test_time_index",
				Msg: fmt.Sprintf("%d is outside test_time_all_actions (%d records)", idx, window.Len())}
		}
		if a := tf.V("action").Fields(); !a.Empty() {
			w := window.Index(idx).Fields()
			wts, _ := optString(w.V("timestamp"))
			wtype, _ := optString(w.V("type"))
			if pyStr(a.V("timestamp")) != wts || pyStr(a.V("type")) != wtype {
				return user, &FieldError{Path: tp + ".action", Msg: fmt.Sprintf("does not match test_time_all_actions[%d] (%s %s)", idx, wtype, wts)}
			}
		}
	}
	return user, nil
}

// buildSplit makes the Split of a user checkSplit accepted.
func buildSplit(v Value) Split {
	f := v.Fields()
	s := Split{User: f.V("user_id").Text()}
	s.Profile, _ = optString(f.V("user_profile"))
	s.Base = buildRecords(f.V("base_history"))
	s.Window = buildRecords(f.V("test_time_all_actions"))
	for _, e := range f.V("test_actions").Elems() {
		idx, _ := strconv.Atoi(e.Val.Fields().V("test_time_index").Text())
		s.Tests = append(s.Tests, idx)
	}
	if !slices.IsSorted(s.Tests) {
		slices.Sort(s.Tests)
	}
	return s
}

// ExperimentInfo is the metadata written with an experiment file.
type ExperimentInfo struct {
	// InputPath is the raw data path, part of the config signature.
	InputPath string
	// CreatedAt is written as is (callers pass a fixed value for
	// reproducible files).
	CreatedAt string
}

// ConfigSignature is the reference's dataset signature: the first 8 hex
// digits of MD5("num_users|test_length|hs|he|ts|te|seed|input_path").
func ConfigSignature(numUsers, testLength int, hs, he, ts, te string, seed int64, inputPath string) string {
	sum := md5.Sum([]byte(fmt.Sprintf("%d|%d|%s|%s|%s|%s|%d|%s", numUsers, testLength, hs, he, ts, te, seed, inputPath)))
	return hex.EncodeToString(sum[:])[:8]
}

// Skip reasons written in an experiment file's skipped_actions.
const (
	skipNoContext = "context信息不足"
	skipFiltered  = "评估时会被过滤（如play_duration为0）"
)

// WriteExperiment writes splits in the layout of PraMem's
// experiment_data.json (metadata + users with base_history,
// test_time_all_actions, test_actions, skipped_actions and stats), so the
// file loads back with Load and gives the same instances.
func WriteExperiment(w io.Writer, splits []Split, opts Options, info ExperimentInfo) error {
	opts, err := opts.withDefaults()
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	ew := &jsonWriter{w: bw}
	typeCount := map[string]int{}
	var typeOrder []string
	total := 0
	for _, s := range splits {
		for _, t := range s.Tests {
			typ := s.Window[t].Type
			if typeCount[typ] == 0 {
				typeOrder = append(typeOrder, typ)
			}
			typeCount[typ]++
			total++
		}
	}
	sig := ConfigSignature(opts.Users, opts.TestPerUser, opts.HistoryStart, opts.HistoryEnd, opts.TestStart, opts.TestEnd, opts.Seed, info.InputPath)
	ew.raw(`{"metadata":{`)
	ew.key("num_users", true)
	ew.raw(strconv.Itoa(len(splits)))
	ew.key("test_length", false)
	ew.raw(strconv.Itoa(opts.TestPerUser))
	for _, kv := range [][2]string{
		{"history_time_start", opts.HistoryStart}, {"history_time_end", opts.HistoryEnd},
		{"test_time_start", opts.TestStart}, {"test_time_end", opts.TestEnd},
		{"sampling_strategy", "balanced"}, {"created_at", info.CreatedAt}, {"config_signature", sig},
	} {
		ew.key(kv[0], false)
		ew.str(kv[1])
	}
	ew.key("seed", false)
	ew.raw(strconv.FormatInt(opts.Seed, 10))
	ew.key("use_separated_time_range", false)
	ew.raw("true")
	ew.key("action_type_statistics", false)
	ew.raw("{")
	for i, t := range typeOrder {
		ew.key(t, i == 0)
		ew.raw(strconv.Itoa(typeCount[t]))
	}
	ew.raw("}")
	ew.key("covered_action_types", false)
	ew.raw("[")
	for i, t := range typeOrder {
		if i > 0 {
			ew.raw(",")
		}
		ew.str(t)
	}
	ew.raw("]")
	ew.key("total_test_actions", false)
	ew.raw(strconv.Itoa(total))
	ew.raw("},\n\"users\":[")
	for i, s := range splits {
		if i > 0 {
			ew.raw(",")
		}
		ew.raw("\n")
		writeSplit(ew, s)
	}
	ew.raw("\n]}\n")
	if ew.err != nil {
		return fmt.Errorf("omnibehavior: write experiment: %w", ew.err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("omnibehavior: write experiment: %w", err)
	}
	return nil
}

func writeSplit(ew *jsonWriter, s Split) {
	ew.raw("{")
	ew.key("user_id", true)
	ew.str(s.User)
	ew.key("user_profile", false)
	ew.str(s.Profile)
	ew.key("base_history", false)
	ew.records(s.Base)
	ew.key("test_time_all_actions", false)
	ew.records(s.Window)
	ew.key("test_actions", false)
	ew.raw("[")
	for k, t := range s.Tests {
		if k > 0 {
			ew.raw(",")
		}
		ew.raw(`{"action":`)
		ew.value(s.Window[t].Raw)
		ew.raw(`,"test_time_index":` + strconv.Itoa(t) + "}")
	}
	ew.raw("]")
	ew.key("skipped_actions", false)
	ew.raw("[")
	skipped := 0
	for i := range s.Window {
		r := &s.Window[i]
		reason := ""
		switch {
		case !HasSufficientContext(r):
			reason = skipNoContext
		case ShouldFilter(r):
			reason = skipFiltered
		default:
			continue
		}
		if skipped > 0 {
			ew.raw(",")
		}
		skipped++
		ew.raw(`{"action":`)
		ew.value(r.Raw)
		ew.key("skip_reason", false)
		ew.str(reason)
		ew.key("action_type", false)
		ew.str(r.Type)
		ew.key("timestamp", false)
		ew.str(r.Timestamp)
		ew.raw("}")
	}
	ew.raw("]")
	baseTokens := 0
	for i := range s.Base {
		baseTokens += RecordTokens(&s.Base[i])
	}
	ew.key("stats", false)
	ew.raw(fmt.Sprintf(`{"base_history_count":%d,"test_time_all_actions_count":%d,"test_count":%d,"skipped_count":%d,"base_history_tokens":%d}`,
		len(s.Base), len(s.Window), len(s.Tests), skipped, baseTokens))
	ew.raw("}")
}

// jsonWriter writes JSON text, keeping the first error.
type jsonWriter struct {
	w   *bufio.Writer
	err error
	buf []byte
}

func (j *jsonWriter) raw(s string) {
	if j.err == nil {
		_, j.err = j.w.WriteString(s)
	}
}

func (j *jsonWriter) key(k string, first bool) {
	if !first {
		j.raw(",")
	}
	j.str(k)
	j.raw(":")
}

func (j *jsonWriter) str(s string) {
	j.buf = pyfmt.AppendJSONString(j.buf[:0], s)
	j.raw(string(j.buf))
}

func (j *jsonWriter) value(v Value) {
	j.buf = appendJSON(j.buf[:0], v)
	j.raw(string(j.buf))
}

func (j *jsonWriter) records(rs []Record) {
	j.raw("[")
	for i := range rs {
		if i > 0 {
			j.raw(",")
		}
		j.value(rs[i].Raw)
	}
	j.raw("]")
}

// appendJSON appends v as compact JSON, members in order.
func appendJSON(b []byte, v Value) []byte {
	switch v.Kind() {
	case KindNull:
		return append(b, "null"...)
	case KindTrue:
		return append(b, "true"...)
	case KindFalse:
		return append(b, "false"...)
	case KindInt, KindFloat:
		return append(b, v.Text()...)
	case KindString:
		return pyfmt.AppendJSONString(b, v.Text())
	case KindArray:
		b = append(b, '[')
		for i, m := range v.Elems() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, m.Val)
		}
		return append(b, ']')
	}
	b = append(b, '{')
	for i, m := range v.Elems() {
		if i > 0 {
			b = append(b, ',')
		}
		b = pyfmt.AppendJSONString(b, m.Key)
		b = append(b, ':')
		b = appendJSON(b, m.Val)
	}
	return append(b, '}')
}
