package unit

import "testing"

func TestValid(t *testing.T) {
	for _, tc := range []struct {
		u    string
		want bool
	}{
		{"%", true}, {"count", true}, {"tokens", true}, {"USD", true}, {"draws", true},
		{"", false}, {"score", false}, {"trajectories", false}, {"usd", false}, {"percent", false},
	} {
		if got := Valid(tc.u); got != tc.want {
			t.Errorf("Valid(%q) = %v, want %v", tc.u, got, tc.want)
		}
	}
}
