package llm

import (
	"strings"
	"testing"
)

func TestCheckUsage(t *testing.T) {
	for _, tc := range []struct {
		usage string
		bad   string // "" when the counts are believed
	}{
		{`{"prompt_tokens":10,"completion_tokens":2,"total_tokens":12}`, ""},
		{`null`, ""},
		{`{"prompt_tokens":-6000000,"completion_tokens":2}`, "prompt_tokens=-6000000"},
		{`{"prompt_tokens":9223372036854775807,"completion_tokens":2}`, "prompt_tokens=9223372036854775807"},
		{`{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3,"prompt_tokens_details":{"cached_tokens":-4}}`, "cached_tokens=-4"},
		{`{"prompt_tokens":"ten"}`, `prompt_tokens="ten"`},
	} {
		body := `{"id":"x","choices":[{"message":{"content":"4"}}],"usage":` + tc.usage + `}`
		out, why := checkUsage([]byte(body))
		switch {
		case tc.bad == "" && (why != "" || string(out) != body):
			t.Errorf("%s: rewritten (%q) though believable", tc.usage, why)
		case tc.bad != "" && (!strings.Contains(why, tc.bad) || strings.Contains(string(out), "usage") || !strings.Contains(string(out), `"content":"4"`)):
			t.Errorf("%s: why %q, body %s; want the usage dropped naming %s", tc.usage, why, out, tc.bad)
		}
	}
}
