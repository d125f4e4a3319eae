package omnibehavior

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestCheckRecordSizes(t *testing.T) {
	big := strings.Repeat("x", 100)
	tests := []struct {
		name, src string
		line      int64
		what      string
	}{
		{"small records", `{"u": {"user_profile": "p", "action_history": [{"a": "` + big[:50] + `"}, {"b": 1}]}}`, 0, ""},
		{"long string", `{"u": {"user_profile": "` + big + `"}}`, 1, "string"},
		{"long string with escapes", `{"u": {"user_profile": "` + strings.Repeat(`\"`, 60) + `"}}`, 1, "string"},
		{"large element of many small strings", "{\"u\": {\"action_history\": [\n{\"a\": 1},\n{" + strings.Repeat(`"k": "abcdefgh", `, 8) + `"z": 0}]}}`, 3, "array element"},
		{"last element measured at ]", `[1, 2, [` + strings.Repeat(`1, `, 40) + `1]]`, 1, "array element"},
		{"many small elements pass", `[` + strings.Repeat(`"abc", `, 200) + `"d"]`, 0, ""},
		{"deep nesting left to the parser", strings.Repeat("[", 5000), 0, ""},
		{"unbalanced left to the parser", `]]]`, 0, ""},
	}
	for _, tt := range tests {
		err := checkRecordSizes([]byte(tt.src), 80)
		var re *RecordTooLargeError
		switch {
		case tt.what == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.what != "" && !errors.As(err, &re):
			t.Errorf("%s: err %v, want a record too large", tt.name, err)
		case tt.what != "" && (re.What != tt.what || re.Line != tt.line || re.Limit != 80 || re.Size <= 80):
			t.Errorf("%s: %+v, want a %s on line %d", tt.name, re, tt.what, tt.line)
		}
	}
}

// A file with a pathological line is skipped with an error naming it and
// the line, before it is decoded: loading it allocates about the file's
// size (it is read whole), not the three times decoding costs. The other
// users load.
func TestLoadBoundsARecord(t *testing.T) {
	dir := t.TempDir()
	good := `{"u_ok": {"user_profile": "p", "action_history": [{"type": "视频浏览", "timestamp": "2025-09-01"}]}}`
	os.WriteFile(filepath.Join(dir, "ok.json"), []byte(good), 0o644)
	const size = 24 << 20
	huge := `{"u_big": {"user_profile": "p", "action_history": [` + "\n" +
		`{"type": "视频浏览", "timestamp": "2025-09-01", "context": {"title": "` + strings.Repeat("x", size) + `"}}]}}`
	os.WriteFile(filepath.Join(dir, "big.json"), []byte(huge), 0o644)

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d, err := LoadWith(dir, LangZH, LoadOptions{MaxRecordBytes: 4 << 20})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Users) != 1 || d.Users[0].ID != "u_ok" {
		t.Errorf("users %v; want u_ok only", d.Users)
	}
	if len(d.Errors) != 1 || !strings.Contains(d.Errors[0].Error(), "big.json: line 2: a string of") ||
		!strings.Contains(d.Errors[0].Error(), "over the limit of 4194304 bytes") {
		t.Errorf("errors %v; want big.json's line 2 named", d.Errors)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2*size {
		t.Errorf("loading allocated %d MiB for a %d MiB line; the record was decoded", alloc>>20, size>>20)
	}
	// The default limit is far above real records.
	if _, err := LoadWith(dir, LangZH, LoadOptions{}); err != nil {
		t.Fatal(err)
	}
}
