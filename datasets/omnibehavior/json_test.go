package omnibehavior

import (
	"bytes"
	"encoding/json"
	"github.com/memharness/memharness/internal/pyfmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
)

// toAny converts a Value to what encoding/json with UseNumber produces.
func toAny(v Value) any {
	switch v.Kind() {
	case KindNull:
		return nil
	case KindTrue:
		return true
	case KindFalse:
		return false
	case KindInt, KindFloat:
		return json.Number(v.Text())
	case KindString:
		return v.Text()
	case KindArray:
		out := make([]any, v.Len())
		for i, m := range v.Elems() {
			out[i] = toAny(m.Val)
		}
		return out
	}
	out := map[string]any{}
	for _, m := range v.Elems() {
		out[m.Key] = toAny(m.Val)
	}
	return out
}

func stdDecode(src string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(src))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// TestDecodeMatchesEncodingJSON checks our decoder against encoding/json
// with UseNumber on the fixtures, generated users and edge cases.
func TestDecodeMatchesEncodingJSON(t *testing.T) {
	docs := []string{
		`{"a": 59, "b": 59.0, "c": -0, "d": 1e5, "e": 1.5E-3, "f": 12345678901234567890}`,
		`{"s": "tab\tquote\"back\\slash\/uni\u00e9\u4e2d\ud83d\ude00 lone\ud800x", "k": "中文 ok"}`,
		`[true, false, null, [], {}, [[[]]], {"x": {"y": [1, "2", 3.5]}}]`,
		`{"dup": 1, "dup": 2}`,
		"\uFEFF" + `{"bom": true}`,
		` "just a string" `,
		`{"bad utf8": "` + "\xff\xfe ok \xe4\xb8" + `"}`,
	}
	for _, name := range []string{"synth_user_zh.json", "synth_user_en.json", "balanced_sample_candidates.json"} {
		if data, err := os.ReadFile(fixtureDir + "/" + name); err == nil {
			docs = append(docs, string(data))
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3 {
		data, err := json.Marshal(map[string]any{"u": genUser(rng, 50, rng.IntN(2) == 0)})
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(data))
	}
	for i, doc := range docs {
		want, err := stdDecode(strings.TrimPrefix(doc, "\uFEFF"))
		if err != nil {
			t.Fatalf("doc %d: encoding/json: %v", i, err)
		}
		got, err := decodeJSON(doc)
		if err != nil {
			t.Fatalf("doc %d: %v", i, err)
		}
		if !reflect.DeepEqual(toAny(got), want) {
			t.Errorf("doc %d: decoded differently\n got %#v\nwant %#v", i, toAny(got), want)
		}
		// Writing back gives a document that decodes the same.
		again, err := decodeJSON(string(appendJSON(nil, got)))
		if err != nil || !reflect.DeepEqual(toAny(again), want) {
			t.Errorf("doc %d: round trip failed: %v", i, err)
		}
	}
}

func TestDecodeRejectsWhatEncodingJSONRejects(t *testing.T) {
	for _, doc := range []string{
		``, `{`, `{"a"}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":1e}`,
		`{"a":-}`, `{"a":"x` + "\n" + `"}`, `{"a":"\x"}`, `{"a":"\u12"}`, `{"a":tru}`, `{"a":nul}`,
		`{"a":1} x`, `{a:1}`, `{"a":+1}`, `"unterminated`,
	} {
		if json.Valid([]byte(doc)) {
			t.Fatalf("encoding/json accepts %q", doc)
		}
		if _, err := decodeJSON(doc); err == nil {
			t.Errorf("accepted %q", doc)
		}
	}
}

func TestAppendJSONString(t *testing.T) {
	got := string(pyfmt.AppendJSONString(nil, "a\"b\\c\nd\x01中\xff"))
	want := `"a\"b\\c\nd\u0001中\ufffd"`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	var back string
	if err := json.Unmarshal([]byte(got), &back); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal([]byte(back), []byte("a\"b\\c\nd\x01中\uFFFD")) {
		t.Errorf("decoded %q", back)
	}
}

// decodeRecordsJSON decodes src, one record or an array of records, the
// way the loader does: check (coercing numeric fields), finish, build.
func decodeRecordsJSON(src string) ([]Record, error) {
	var p jsonParser
	v, err := p.parse([]byte(src))
	if err != nil {
		return nil, err
	}
	if v.Kind() == KindObject {
		if err := checkRecord(v); err != nil {
			return nil, err
		}
		p.finish(v.d)
		return []Record{buildRecord(v)}, nil
	}
	if err := checkRecords(v); err != nil {
		return nil, err
	}
	p.finish(v.d)
	return buildRecords(v), nil
}

// decodeFile decodes one file's text as the loader does.
func decodeFile(src, file string) fileResult {
	var p jsonParser
	return p.decodeFile([]byte(src), file)
}

func TestFieldsLenCountsDistinctKeys(t *testing.T) {
	for src, want := range map[string]int{`{}`: 0, `{"a": 1}`: 1, `{"a": 1, "b": 2, "a": 3}`: 2, `{"a": {"a": 1}, "b": null}`: 2, `[1]`: 0} {
		v, err := decodeJSON(src)
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Fields().Len(); got != want {
			t.Errorf("%s: Len %d, want %d", src, got, want)
		}
	}
}
