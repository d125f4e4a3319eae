package alfworld

import (
	"context"
	"strings"

	"github.com/memharness/memharness/envs"
)

// Episode is one play of a game. Success (the PDDL goal met) ends it with
// reward 1.
type Episode struct {
	eng  *engine
	obs  string
	done bool
}

var _ envs.Episode = (*Episode)(nil)

// NewEpisode starts gm.
func NewEpisode(gm *Game) (*Episode, error) {
	eng, intro, err := gm.newEngine()
	if err != nil {
		return nil, err
	}
	return &Episode{eng: eng, obs: stripBanner(intro), done: eng.won}, nil
}

// stripBanner drops TextWorld's "-= Welcome to TextWorld, ALFRED! =-"
// paragraph, as ReAct and ExpeL do before showing the room to the agent.
func stripBanner(intro string) string {
	if first, rest, ok := strings.Cut(intro, "\n\n"); ok && strings.HasPrefix(first, "-=") {
		return rest
	}
	return intro
}

// Observation implements envs.Episode: the room and "Your task is to: ...".
func (e *Episode) Observation() string { return e.obs }

// maxActionLen bounds what is parsed; no ALFWorld command comes close.
const maxActionLen = 512

// Step implements envs.Episode.
func (e *Episode) Step(ctx context.Context, action string) (envs.Step, error) {
	if err := ctx.Err(); err != nil {
		return envs.Step{}, err
	}
	if e.done {
		return envs.Step{Observation: "The episode is over.", Done: true, Invalid: true}, nil
	}
	a, kind := ParseAction(action)
	switch kind {
	case ActionThink:
		return envs.Step{Observation: "OK.", Info: e.info()}, nil
	case ActionInvalid:
		return envs.Step{Observation: nothingHappens, Invalid: true, Info: e.info()}, nil
	}
	fb, ok, err := e.eng.step(a)
	if err != nil {
		return envs.Step{}, err
	}
	st := envs.Step{Observation: fb, Invalid: !ok}
	if e.eng.won {
		e.done = true
		st.Reward, st.Done = 1, true
	}
	st.Info = e.info()
	return st, nil
}

func (e *Episode) info() map[string]any {
	return map[string]any{
		"won":                 e.eng.won,
		"admissible_commands": append([]string(nil), e.eng.admissible...),
	}
}

// AdmissibleCommands lists the commands valid now, sorted.
func (e *Episode) AdmissibleCommands() []string {
	return append([]string(nil), e.eng.admissible...)
}

// Done implements envs.Episode.
func (e *Episode) Done() bool { return e.done }

// Score implements envs.Episode: 1 once the goal is met, else 0.
func (e *Episode) Score() float64 {
	if e.eng.won {
		return 1
	}
	return 0
}

// Close implements envs.Episode.
func (e *Episode) Close() error { return nil }
