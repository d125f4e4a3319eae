package memqa

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The streamed decoding gives what the whole-file decoding gives, and the
// same DecodeError (file, line, path, reason) for every semantic fault of
// TestStrictDecoding's LongMemEval cases.
func TestStreamEqualsWholeFile(t *testing.T) {
	small, err := os.ReadFile(filepath.Join("testdata", "longmemeval_small.json"))
	if err != nil {
		t.Fatal(err)
	}
	lme := string(small)
	cases := map[string]string{
		"valid":          lme,
		"bad role":       strings.Replace(lme, `"role": "assistant", "content": "Teal`, `"role": "bot", "content": "Teal`, 1),
		"bad type":       strings.Replace(lme, `"single-session-user"`, `"single-user"`, 1),
		"answer type":    strings.Replace(lme, `"answer": "teal"`, `"answer": ["teal"]`, 1),
		"has_answer":     strings.Replace(lme, `"has_answer": true`, `"has_answer": "yes"`, 1),
		"lengths differ": strings.Replace(lme, `["s-a", "s-b"]`, `["s-a"]`, 1),
		"missing field":  strings.Replace(lme, `"question_date": "2024/03/02 (Sat) 10:15",`, ``, 1),
		"second copy":    strings.Replace(lme, "\n]", ",\n"+strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(lme), "["), "]")+"\n]", 1),
		"not an array":   `{"question_id": "x"}`,
		// Faults the typed fast path must hand to the strict decoder.
		"key twice":     strings.Replace(lme, `"question_type"`, `"question_id": "again", "question_type"`, 1),
		"key case":      strings.Replace(lme, `"question_date"`, `"Question_date"`, 1),
		"null content":  strings.Replace(lme, `"content": "Teal`, `"content": null, "x": "Teal`, 1),
		"null id":       strings.Replace(lme, `"haystack_session_ids": ["s-a", "s-b"]`, `"haystack_session_ids": ["s-a", null]`, 1),
		"number answer": strings.Replace(lme, `"answer": "teal"`, `"answer": 12.50`, 1),
		"bad utf8":      strings.Replace(lme, `"answer": "teal"`, "\"answer\": \"te\xffal\"", 1),
		"empty":         "  \n",
		"empty array":   "[]",
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			whole, werr := DecodeLongMemEval("f.json", []byte(text))
			streamed, serr := ReadLongMemEval("f.json", strings.NewReader(text))
			if (werr == nil) != (serr == nil) {
				t.Fatalf("whole-file error %v, streamed error %v", werr, serr)
			}
			if werr != nil {
				var wd, sd *DecodeError
				if !errors.As(werr, &wd) || !errors.As(serr, &sd) {
					t.Fatalf("not DecodeErrors: %v / %v", werr, serr)
				}
				if wd.Line != sd.Line || wd.Path != sd.Path || !strings.HasPrefix(sd.Reason, strings.SplitN(wd.Reason, ":", 2)[0]) {
					t.Errorf("whole-file %v; streamed %v", werr, serr)
				}
				return
			}
			if !reflect.DeepEqual(whole, streamed) {
				t.Errorf("streamed dataset differs from the whole-file decoding")
			}
		})
	}
}

// Truncating a valid file anywhere gives an error from the stream too,
// never a panic, and a syntax error names a line inside the file.
func TestStreamTruncated(t *testing.T) {
	small, err := os.ReadFile(filepath.Join("testdata", "longmemeval_small.json"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Count(small, []byte{'\n'}) + 1
	for n := 0; n < len(small)-2; n += 5 {
		_, err := ReadLongMemEval("f", bytes.NewReader(small[:n]))
		if err == nil {
			t.Fatalf("%d of %d bytes decode without error", n, len(small))
		}
		var de *DecodeError
		if !errors.As(err, &de) || de.Line < 1 || de.Line > lines {
			t.Fatalf("%d bytes: %v: want a DecodeError on one of the %d lines", n, err, lines)
		}
	}
	if _, err := ReadLongMemEval("f", strings.NewReader("[] []")); err == nil {
		t.Error("data after the top-level array was accepted")
	}
}

// An error the callback returns stops the decoding and comes back as is.
func TestStreamStopsOnCallbackError(t *testing.T) {
	small, err := os.ReadFile(filepath.Join("testdata", "longmemeval_small.json"))
	if err != nil {
		t.Fatal(err)
	}
	stop := errors.New("enough")
	n := 0
	err = StreamLongMemEval("f", bytes.NewReader(small), func(Conversation) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("got %v after %d questions, want the callback's error after 1", err, n)
	}
}
