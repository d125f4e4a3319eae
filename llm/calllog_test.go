package llm

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A Meter rebuilt from the CallRecords of a CallLog equals the Meter that
// saw the calls live (the in-flight gauges aside).
func TestMeterRestoreReplaysCallLog(t *testing.T) {
	n := 0
	model := ModelFunc(func(ctx context.Context, req Request) (Response, error) {
		n++
		switch n % 4 {
		case 0:
			return Response{}, &RetryError{Attempts: 3, Err: errors.New("boom")}
		case 1:
			return Response{Text: "a", Cached: true, Usage: Usage{PromptTokens: 5}}, nil
		default:
			return Response{Text: "b", Retries: 1, Latency: 3 * time.Millisecond, Usage: Usage{PromptTokens: 7, CompletionTokens: 2, Cost: 0.25}}, nil
		}
	})
	live := NewMeter(model)
	var log CallLog
	ctx := WithCallLog(context.Background(), &log)
	for i := 0; i < 9; i++ {
		purpose := []string{"predict", "", "build"}[i%3]
		live.Generate(ctx, Request{Purpose: purpose})
	}
	live.Generate(context.Background(), Request{Purpose: "unlogged"})
	recs := log.Take()
	if len(recs) != 9 || len(log.Take()) != 0 {
		t.Fatalf("log holds %d records, want 9 then none", len(recs))
	}
	replayed := NewMeter(model)
	for _, r := range recs {
		replayed.Restore(r)
	}
	want := live.Snapshot()
	delete(want.ByPurpose, "unlogged")
	want.Total = PurposeStats{}
	got := replayed.Snapshot()
	got.Total = PurposeStats{}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("replayed meter differs (-live +replayed):\n%s", d)
	}
}
