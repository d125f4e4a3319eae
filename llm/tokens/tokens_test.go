package tokens

import "testing"

func TestApprox(t *testing.T) {
	// Vectors from the PraMem reference (spec §1.9).
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"abc", 0},
		{"你好world", 4},
		{"这是一个视频。", 9},
		{"", 0},
	} {
		if got := (Approx{}).Count(tc.in); got != tc.want {
			t.Errorf("Approx(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
