package scienceworld

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseAction: any agent text parses to a clean, idempotent action or
// an error; it never panics.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"<look around>", "Action: <GO TO kitchen>", "<>", "a<b>c<d", "\xff", "x\x00", " \n ", "<search> q </search>", "click[Buy Now]"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, strip bool) {
		a, err := ParseAction(s, strip)
		if err != nil {
			return
		}
		if a == "" || len(a) > MaxActionLen || !utf8.ValidString(a) || a != strings.TrimSpace(a) {
			t.Fatalf("ParseAction(%q) = %q", s, a)
		}
		if strip && a != strings.ToLower(a) {
			t.Fatalf("not lower-cased: %q", a)
		}
		b, err := ParseAction(a, strip)
		if err != nil || b != a {
			t.Fatalf("not idempotent: %q → %q → %q, %v", s, a, b, err)
		}
	})
}

// FuzzDecodeReply: server replies decode or fail with ErrMalformed, never
// panic.
func FuzzDecodeReply(f *testing.F) {
	for _, s := range []string{
		`{"observation": "x", "reward": 0, "score": 3, "done": false}`, `["obs", null]`, `"obs"`, `{"state": "s", "reward": "0.5", "done": true, "info": {"a": 1}}`,
		`{"observation": 1}`, `[]`, `[1]`, `{"id": 3}`, `12`, `-1`, `{"error": "x"}`, `null`, `{"available_actions": [1]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if r, err := decodeReply("/step", data); err == nil && r.Reward != r.Reward {
			t.Fatalf("NaN reward from %q", data)
		}
		if id, err := decodeID(data); err == nil && id < 0 {
			t.Fatalf("negative id %d from %q", id, data)
		}
		_, _ = errorKey(data)
	})
}

// FuzzReplayServer: arbitrary request bodies get a JSON reply with a
// sensible status, never a panic.
func FuzzReplayServer(f *testing.F) {
	rs, _ := embeddedReplay(f)
	for _, s := range []string{`{"id": 0, "data_idx": 4639}`, `{"id": 0, "action": "look around"}`, `{"id": -1}`, `{`, `[]`, `{"id": 1e99}`, `{"id": 0, "action": null}`} {
		f.Add("/reset", s)
		f.Add("/step", s)
		f.Add("/close", s)
	}
	f.Fuzz(func(t *testing.T, route, body string) {
		for _, r := range []string{"/create", route} {
			// Built by hand: httptest.NewRequest panics on odd paths.
			req := &http.Request{Method: http.MethodPost, URL: &url.URL{Path: r}, Header: http.Header{},
				Body: io.NopCloser(strings.NewReader(body))}
			w := httptest.NewRecorder()
			rs.ServeHTTP(w, req)
			switch w.Code {
			case 200, 404, 405, 422:
			default:
				t.Fatalf("%s %q: status %d", r, body, w.Code)
			}
			if w.Code != 404 && !bytes.HasPrefix(bytes.TrimSpace(w.Body.Bytes()), []byte("{")) && w.Code != 200 {
				t.Fatalf("%s: non-JSON error %q", r, w.Body.String())
			}
		}
		// Keep the server's environment count bounded across iterations.
		rs.mu.Lock()
		if len(rs.envs) > 100 {
			clear(rs.envs)
		}
		rs.mu.Unlock()
	})
}
