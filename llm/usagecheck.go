package llm

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/memharness/memharness/llm/tokens"
)

// MaxPlausibleTokens bounds a token count an endpoint may report for one
// call: far above any context window, far below counts that overflow a sum
// or a price. A count outside [0, MaxPlausibleTokens] is not believed.
const MaxPlausibleTokens = 100_000_000

// usageFields are the counts checked in a reply's usage object.
var usageFields = []string{"prompt_tokens", "completion_tokens", "total_tokens"}

// checkUsage looks at the usage object of a 2xx chat reply. When a count is
// negative, absurd or not an integer (int64-max, which go-openai cannot
// add up, or -6e6), the usage object is removed from the body, so the rest
// of the reply still decodes and the sample is not failed, and why names
// the bad count; the caller then uses its own count. A reply without usage,
// or with believable counts, is returned as it is.
func checkUsage(body []byte) (out []byte, why string) {
	var probe struct {
		Usage map[string]json.RawMessage `json:"usage"`
	}
	if json.Unmarshal(body, &probe) != nil || probe.Usage == nil {
		return body, ""
	}
	var bad []string
	check := func(name string, raw json.RawMessage) {
		s := strings.TrimSpace(string(raw))
		if s == "" || s == "null" {
			return
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 || n > MaxPlausibleTokens {
			bad = append(bad, name+"="+shortNumber(s))
		}
	}
	for _, f := range usageFields {
		check(f, probe.Usage[f])
	}
	if raw := probe.Usage["prompt_tokens_details"]; raw != nil {
		var d map[string]json.RawMessage
		if json.Unmarshal(raw, &d) == nil {
			check("prompt_tokens_details.cached_tokens", d["cached_tokens"])
		}
	}
	if len(bad) == 0 {
		return body, ""
	}
	var all map[string]json.RawMessage
	if json.Unmarshal(body, &all) != nil {
		return body, ""
	}
	delete(all, "usage")
	out, err := json.Marshal(all)
	if err != nil {
		return body, ""
	}
	return out, "the endpoint reported " + strings.Join(bad, ", ")
}

func shortNumber(s string) string { return Shorten(s, 24) }

// ownUsage is the harness's own count of a call's tokens, used when the
// endpoint's cannot be believed: the prompt's messages and the answer, by
// the approximate counter (no cached tokens are claimed).
func ownUsage(req Request, answer string) Usage {
	var c tokens.Approx
	u := Usage{CompletionTokens: c.Count(answer)}
	for _, m := range req.Messages {
		u.PromptTokens += c.Count(m.Content)
	}
	return u
}

// UsageWarning is the console and report line for calls whose token counts
// were replaced by our own (n of them; why is one example).
func UsageWarning(n int, why string) string {
	return fmt.Sprintf("%d model call(s) came back with unusable token counts (%s); the harness's own count was used for their tokens and cost", n, why)
}
