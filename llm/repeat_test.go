package llm

import (
	"context"
	"testing"
	"time"
)

// TestRepeatSeedsReachEndpointAndRecord: the first draw sends the
// configured seed, later draws each send their own derived seed, and the
// call record holds the seed sent and the draw's index.
func TestRepeatSeedsReachEndpointAndRecord(t *testing.T) {
	f := newFakeServer(t, func(int, map[string]any) reply { return okReply("ok") })
	st, err := Open(StackConfig{
		BaseURLs: []string{f.BaseURL()}, Model: "m", Params: Params{Seed: ptr(1234), Temperature: ptr(0.7)},
		Sleep: func(context.Context, time.Duration) error { return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	var log CallLog
	ctx := WithCallLog(context.Background(), &log)
	req := userMsg("p", "q")
	req.SampleID = "u1/3"
	for r := range 3 {
		if _, err := WithRepeat(st, r, 42).Generate(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	// The stack's default seed (1234) is filled in below WithRepeat, so a
	// later draw derives from the base it is given (42; a run passes its
	// configured default seed, else the run seed).
	want := []int{1234, RepeatSeed("u1/3", 42, 1), RepeatSeed("u1/3", 42, 2)}
	if want[1] == want[2] || want[1] == 1234 || want[2] == 1234 {
		t.Fatalf("derived seeds not distinct: %v", want)
	}
	reqs := f.requests()
	recs := log.Take()
	if len(reqs) != 3 || len(recs) != 3 {
		t.Fatalf("%d requests, %d records; want 3 each", len(reqs), len(recs))
	}
	for i, w := range want {
		if got := reqs[i].body["seed"]; got != float64(w) {
			t.Errorf("draw %d sent seed %v, want %d", i, got, w)
		}
		ex := recs[i].Exchange
		if ex.Params.Seed == nil || *ex.Params.Seed != w || ex.Repeat != i {
			t.Errorf("draw %d recorded seed %v repeat %d, want %d and %d", i, ex.Params.Seed, ex.Repeat, w, i)
		}
	}
	// A request that sets its own seed derives from it.
	own := req
	own.Params.Seed = ptr(7)
	if _, err := WithRepeat(st, 1, 42).Generate(ctx, own); err != nil {
		t.Fatal(err)
	}
	if got := f.requests()[3].body["seed"]; got != float64(RepeatSeed("u1/3", 7, 1)) {
		t.Errorf("own seed 7, draw 1 sent %v, want RepeatSeed of 7", got)
	}
}

func TestRepeatSeedAndName(t *testing.T) {
	seen := map[int]bool{}
	for _, id := range []string{"a", "b"} {
		for r := 1; r <= 50; r++ {
			s := RepeatSeed(id, 42, r)
			if s < 0 || s > 0x7fffffff || seen[s] {
				t.Fatalf("RepeatSeed(%q, 42, %d) = %d: out of range or repeated", id, r, s)
			}
			seen[s] = true
			if s != RepeatSeed(id, 42, r) {
				t.Fatal("RepeatSeed is not a function of its inputs")
			}
		}
	}
	if RepeatName("m/u1/3", 0) != "m/u1/3" || RepeatName("m/u1/3", 2) != "m/u1/3#r2" {
		t.Errorf("RepeatName: %q, %q", RepeatName("m/u1/3", 0), RepeatName("m/u1/3", 2))
	}
}
