package bench

import (
	"strings"
	"testing"
)

// bench plan refuses flag values that make its figures meaningless or
// overflow, naming the flag, before it reads the config.
func TestPlanFlagBounds(t *testing.T) {
	for _, tc := range []struct{ flag, value string }{
		{"--latency", "-1s"}, {"--latency", "9000000h"},
		{"--block", "0"}, {"--block", "-5"}, {"--block", "9223372036854775807"},
		{"--cache-tokens", "-1"}, {"--cache-tokens", "9223372036854775807"},
		{"--rehearse", "-1"}, {"--rehearse", "2000000000"},
		{"--rehearse-tasks", "-3"}, {"--rehearse-tasks", "2000000000"},
	} {
		out, code := runCLI(t, "plan", "-c", writeConfig(t, "0s"), tc.flag, tc.value)
		if code == 0 || !strings.Contains(out, tc.flag) {
			t.Errorf("plan %s %s: exit %d\n%s", tc.flag, tc.value, code, out)
		}
	}
}
