package lifelongagents

import (
	"slices"
	"testing"

	"github.com/memharness/memharness/envs"
)

// TestPlanSpread: the rehearsed tasks are the middles of equal parts of
// the test set, or all of it when it is no larger.
func TestPlanSpread(t *testing.T) {
	tasks := func(n int) []envs.Task {
		out := make([]envs.Task, n)
		for i := range out {
			out[i] = envs.Task{ID: string(rune('a' + i))}
		}
		return out
	}
	tests := []struct {
		n, rehearse int
		want        string
	}{
		{3, 5, "abc"},
		{4, 2, "bd"},
		{15, 3, "chm"},
		{10, 1, "f"},
	}
	for _, tt := range tests {
		var got []rune
		for _, x := range spread(tasks(tt.n), tt.rehearse) {
			got = append(got, []rune(x.ID)...)
		}
		if !slices.Equal(got, []rune(tt.want)) {
			t.Errorf("spread(%d tasks, %d) = %q, want %q", tt.n, tt.rehearse, string(got), tt.want)
		}
	}
}
