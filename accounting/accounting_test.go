package accounting_test

import (
	"strings"
	"testing"

	"github.com/memharness/memharness/accounting"
	"github.com/memharness/memharness/runlog"
)

func TestCheckInvalid(t *testing.T) {
	usage := map[string]runlog.MethodUsage{
		"predict": {Units: 10, InvalidFinal: 3, InvalidRate: 0.3, InvalidExample: "maybe"},
		"build":   {Units: 10, InvalidFinal: 1, InvalidRate: 0.1},
	}
	for _, tc := range []struct {
		max  float64
		want string // "" for no error
	}{
		{0.5, ""},
		{0.2, `predict: 3 of 10 answers (30.0%)`},
		{0.05, `build: 1 of 10 answers (10.0%)`},
	} {
		err := accounting.CheckInvalid(usage, tc.max, 4)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("max %.2f: %v, want none", tc.max, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("max %.2f: %v, want it to name %q", tc.max, err, tc.want)
		}
	}
}
