package memqa

import (
	"math"
	"testing"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/runrecord"
)

// Each question's draws become one sample whose scores are the reducer's
// over its draws, worked by hand:
//
//	q1: judge 1, 0, 1; f1 0.5, 0.25, 0.75
//	  mean:     judge 2/3, f1 (0.5+0.25+0.75)/3 = 0.5
//	  majority: judge right in 2 of 3 → 1; f1 never 1 → 0
//	  pass@1:   judge 2/3 (one draw right with chance c/n); f1 0
//	q2: one draw only (its others errored): judge 0 → 0 under every reducer
func TestReduceDraws(t *testing.T) {
	s := func(id string, rep int, judge, f1 float64) runrecord.Sample {
		return runrecord.Sample{ID: id, Repeat: rep, Method: "m", Scores: map[string]float64{"judge": judge, "f1": f1}}
	}
	samples := []runrecord.Sample{
		s("m/q1", 0, 1, 0.5), s("m/q2", 0, 0, 0.2), s("m/q1#r2", 2, 1, 0.75), s("m/q1#r1", 1, 0, 0.25),
	}
	for _, tt := range []struct {
		reducer                 metrics.Reducer
		judge1, f11, judge2, f2 float64
	}{
		{metrics.Reducer{Name: metrics.ReduceMean}, 2.0 / 3, 0.5, 0, 0.2},
		{metrics.Reducer{Name: metrics.ReduceMajority}, 1, 0, 0, 0},
		{metrics.Reducer{Name: "pass@1", K: 1}, 2.0 / 3, 0, 0, 0},
	} {
		got := reduceDraws(samples, tt.reducer)
		if len(got) != 2 || got[0].ID != "m/q1" || got[1].ID != "m/q2" {
			t.Fatalf("%s: reduced to %d samples %v, want m/q1 then m/q2", tt.reducer, len(got), got)
		}
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"q1 judge", got[0].Scores["judge"], tt.judge1}, {"q1 f1", got[0].Scores["f1"], tt.f11},
			{"q2 judge", got[1].Scores["judge"], tt.judge2}, {"q2 f1", got[1].Scores["f1"], tt.f2},
		} {
			if math.Abs(c.got-c.want) > 1e-12 {
				t.Errorf("%s: %s = %v, want %v", tt.reducer, c.name, c.got, c.want)
			}
		}
	}
	// The input is left as it was.
	if samples[0].Scores["judge"] != 1 {
		t.Error("reduceDraws changed its input")
	}
}
