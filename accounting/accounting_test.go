package accounting_test

import (
	"strings"
	"testing"

	"github.com/memharness/memharness/accounting"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runrecord"
)

func TestCheckInvalid(t *testing.T) {
	usage := map[string]runrecord.MethodUsage{
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

// TestCheckSamplesPerMethod: the verdict is per method, so one method's
// unusable answers are not diluted by another's good ones (4 of 10 overall
// is under 0.5, but one method has 4 of 5).
func TestCheckSamplesPerMethod(t *testing.T) {
	var samples []runrecord.Sample
	for i := range 5 {
		samples = append(samples, runrecord.Sample{Method: "good", Valid: true},
			runrecord.Sample{Method: "bad", Valid: i == 0, Raw: "dunno"})
	}
	samples = append(samples, runrecord.Sample{Method: "good", Error: "timeout"}) // no answer: not counted
	err := accounting.CheckSamples(samples, 0.5, 2)
	if err == nil || !strings.Contains(err.Error(), `method bad: 4 of 5 predictions (80.0%)`) || strings.Contains(err.Error(), "method good") {
		t.Errorf("verdict %v, want method bad (4 of 5) alone", err)
	}
	if err := accounting.CheckSamples(samples, 0.8, 2); err != nil {
		t.Errorf("at 0.8: %v", err)
	}
}

func TestInvalidSummary(t *testing.T) {
	if got := accounting.InvalidSummary(nil); got != "none" {
		t.Errorf("no usage: %q", got)
	}
	got := accounting.InvalidSummary(map[string]runrecord.MethodUsage{
		"predict":      {Invalid: 3, Units: 40, InvalidFinal: 2, InvalidRate: 0.05},
		"mem0.extract": {Invalid: 30, Units: 30, InvalidFinal: 30, InvalidRate: 1},
		"summary":      {Units: 4},
	})
	if want := "mem0.extract 30/30 (100.0%), predict 2/40 (5.0%)"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}

// Spent counts live calls only: cached answers and failed calls cost nothing.
func TestSpent(t *testing.T) {
	recs := []llm.CallRecord{
		{Usage: llm.Usage{PromptTokens: 10, CompletionTokens: 2, Cost: 0.5}},
		{Cached: true, Usage: llm.Usage{PromptTokens: 100, CompletionTokens: 20, Cost: 5}},
		{Failed: true},
		{Usage: llm.Usage{PromptTokens: 7, CompletionTokens: 1, CachedTokens: 3, Cost: 0.25}},
	}
	want := llm.Usage{PromptTokens: 17, CompletionTokens: 3, CachedTokens: 3, Cost: 0.75}
	if got := accounting.Spent(recs); got != want {
		t.Errorf("Spent = %+v, want %+v", got, want)
	}
}
