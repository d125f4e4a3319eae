package envs

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// counterSuite: the agent must say "inc" N times then "done"; anything else
// is an invalid action.
type counterSuite struct{ n int }

func (s counterSuite) Name() string  { return "counter" }
func (s counterSuite) MaxSteps() int { return 10 }
func (s counterSuite) Tasks() []Task {
	return []Task{{ID: "c1", Env: "counter"}, {ID: "c2", Env: "counter"}}
}
func (s counterSuite) NewEpisode(_ context.Context, t Task, _ Options) (Episode, error) {
	if t.ID == "broken" {
		return nil, errors.New("no such task")
	}
	return &counterEp{want: s.n}, nil
}
func (s counterSuite) Gold(t Task) ([]string, error) {
	if t.ID == "c2" {
		return []string{"inc"}, nil // one short: fails
	}
	return append(strings.Split(strings.Repeat("inc ", s.n), " ")[:s.n], "done"), nil
}

type counterEp struct {
	want, got int
	done      bool
	score     float64
}

func (e *counterEp) Observation() string { return "count to the target" }
func (e *counterEp) Step(_ context.Context, a string) (Step, error) {
	switch a {
	case "inc":
		e.got++
		return Step{Observation: "ok"}, nil
	case "done":
		e.done = true
		if e.got == e.want {
			e.score = 1
		}
		return Step{Observation: "bye", Done: true, Reward: e.score}, nil
	}
	return Step{Observation: "unknown action " + a, Invalid: true}, nil
}
func (e *counterEp) Done() bool     { return e.done }
func (e *counterEp) Score() float64 { return e.score }
func (e *counterEp) Close() error   { return nil }

func TestGarbageAgentEndsCleanly(t *testing.T) {
	garbage := AgentFunc(func(context.Context, Task, []Turn) (string, error) { return "\x00}{ DROP TABLE", nil })
	tr, err := Run(context.Background(), counterSuite{n: 2}, Task{ID: "c1"}, garbage, Options{}, 100)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Steps != 100 || tr.Invalid != 100 || tr.End != "max_steps" || tr.Score != 0 {
		t.Errorf("transcript: steps %d invalid %d end %q score %v", tr.Steps, tr.Invalid, tr.End, tr.Score)
	}
	if len(tr.Turns) != 201 {
		t.Errorf("turns = %d, want 201", len(tr.Turns))
	}
}

func TestCheck(t *testing.T) {
	res, err := Check(context.Background(), counterSuite{n: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Tasks != 2 || res.Passed != 1 || res.Failed != 1 || len(res.Failing) != 1 || res.Failing[0] != "c2" {
		t.Errorf("check = %+v", res)
	}
	if !strings.Contains(res.Reasons["c2"], "score 0.000") {
		t.Errorf("reason = %q", res.Reasons["c2"])
	}
}

func TestAgentErrorAndStop(t *testing.T) {
	failing := AgentFunc(func(context.Context, Task, []Turn) (string, error) { return "", errors.New("endpoint down") })
	tr, err := Run(context.Background(), counterSuite{n: 1}, Task{ID: "c1"}, failing, Options{}, 0)
	if err != nil || !strings.HasPrefix(tr.End, "error: agent: endpoint down") {
		t.Errorf("end %q err %v", tr.End, err)
	}
	tr, _ = Run(context.Background(), counterSuite{n: 1}, Task{ID: "c1"}, Replay([]string{"inc", "done"}), Options{}, 0)
	if tr.End != "done" || tr.Score != 1 {
		t.Errorf("replay: %+v", tr)
	}
	if _, err := Run(context.Background(), counterSuite{}, Task{ID: "broken"}, failing, Options{}, 0); err == nil {
		t.Error("start failure not reported")
	}
}

// needySuite is counterSuite on a machine lacking its browser: either the
// cheap check or the first episode says so.
type needySuite struct{ counterSuite }

// needyChecked also implements Prerequisites.
type needyChecked struct{ needySuite }

func (s needyChecked) Prerequisites() error { return s.NewEpisodeErr() }

func (s needySuite) NewEpisodeErr() error {
	return &Prerequisite{Env: "counter", What: "a browser", Install: "apt-get install browser", Err: errors.New("not on $PATH")}
}

func (s needySuite) NewEpisode(context.Context, Task, Options) (Episode, error) {
	return nil, s.NewEpisodeErr()
}

func TestCheckStopsOnMissingPrerequisite(t *testing.T) {
	for _, s := range []Suite{needySuite{counterSuite{n: 1}}, needyChecked{needySuite{counterSuite{n: 1}}}} {
		res, err := Check(context.Background(), s)
		var p *Prerequisite
		if !errors.As(err, &p) || res.Failed != 0 {
			t.Errorf("%T: Check = %+v, %v; want no failed task and a *Prerequisite", s, res, err)
			continue
		}
		want := "counter needs a browser, not found on this machine (not on $PATH); install with: apt-get install browser"
		if err.Error() != want {
			t.Errorf("message %q, want %q", err, want)
		}
	}
}

// askingSuite is counterSuite whose source asks once more at the step limit.
type askingSuite struct {
	counterSuite
	asks bool
}

func (s askingSuite) AsksPastLimit() bool { return s.asks }

// At the step limit a PastLimitAsker's episode makes one agent call more,
// whose reply is not played; an episode that ends before the limit, or a
// suite that does not ask, makes none.
func TestRunAsksPastLimit(t *testing.T) {
	tests := []struct {
		name      string
		asks      bool
		actions   []string // played in order, then "inc" forever
		wantCalls int
		wantEnd   string
	}{
		{"asks at the limit", true, nil, 4, "max_steps"},
		{"does not ask", false, nil, 3, "max_steps"},
		{"done before the limit", true, []string{"inc", "done"}, 2, "done"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			agent := AgentFunc(func(_ context.Context, _ Task, turns []Turn) (string, error) {
				calls++
				if calls <= len(tt.actions) {
					return tt.actions[calls-1], nil
				}
				return "inc", nil
			})
			tr, err := Run(context.Background(), askingSuite{counterSuite{n: 1}, tt.asks}, Task{ID: "c1"}, agent, Options{}, 3)
			if err != nil {
				t.Fatal(err)
			}
			if calls != tt.wantCalls || tr.End != tt.wantEnd {
				t.Errorf("calls %d end %q, want %d %q", calls, tr.End, tt.wantCalls, tt.wantEnd)
			}
			if tr.Steps > 3 || len(tr.Turns) != 1+2*tr.Steps {
				t.Errorf("the discarded reply was played: steps %d, turns %d", tr.Steps, len(tr.Turns))
			}
		})
	}
}
