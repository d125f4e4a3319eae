package family

import (
	"encoding/json"
	"testing"
)

func TestSetPath(t *testing.T) {
	var v any
	json.Unmarshal([]byte(`{"a":{"b":[{"c":1},{"c":2}]},"d":3}`), &v)
	for _, tc := range []struct {
		path string
		del  bool
		ok   bool
		want string
	}{
		{"a.b[1].c", false, true, `{"a":{"b":[{"c":1},{"c":9}]},"d":3}`},
		{"d", true, true, `{"a":{"b":[{"c":1},{"c":2}]}}`},
		{"a.b[5].c", false, false, ""},
		{"d.e", false, false, ""},
		{"a.b[0]", true, false, ""},
	} {
		var w any
		b, _ := json.Marshal(v)
		json.Unmarshal(b, &w)
		ok := setPath(w, tc.path, 9.0, tc.del)
		got, _ := json.Marshal(w)
		if ok != tc.ok || (ok && string(got) != tc.want) {
			t.Errorf("%s: %v %s, want %v %s", tc.path, ok, got, tc.ok, tc.want)
		}
	}
}
