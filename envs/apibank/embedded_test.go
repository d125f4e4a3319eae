package apibank

import (
	"context"
	"testing"

	"github.com/memharness/memharness/envs"
)

func TestOracleEmbedded(t *testing.T) {
	s, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Tasks()); n < 10 {
		t.Fatalf("embedded suite has %d tasks, want >= 10", n)
	}
	res, err := envs.Check(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("apibank oracle on embedded suite: %d tasks, %d passed, %d failed", res.Tasks, res.Passed, res.Failed)
	if res.Failed > 0 {
		t.Errorf("failing: %v", res.Reasons)
	}
	if got := len(s.Skipped()); got != 0 {
		t.Errorf("skipped files: %v", s.Skipped())
	}
}
