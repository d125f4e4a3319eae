package scienceworld

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/memharness/memharness/envs"
)

// NoMatch is ScienceWorld's answer to an input it cannot parse.
const NoMatch = "No known action matches that input."

// ReplayServer is a family A sciworld server built from gold sequences: a
// reset loads a (task, variation), the gold action at the current position
// returns its recorded observation and score, "look around", "inventory"
// and "task" answer from the recorded state, and anything else gets
// ScienceWorld's "No known action matches that input." It is safe for
// concurrent use; serve it with httptest.NewServer or InProcess.
type ReplayServer struct {
	games     []*replayGame
	byIndex   map[int]*replayGame
	stepLimit int
	maxEnvs   int

	mu     sync.Mutex
	envs   map[int]*replayEnv
	nextID int
}

// replayGame is one (task, variation) ready to replay.
type replayGame struct {
	index     int
	taskName  string // as in the gold file (legacy prefix kept)
	canonical string
	variation int
	fold      string
	desc      string
	path      []GoldStep
	scores    []int // ScienceWorld's 0–100 score after each path step
	completed []bool
	start     int // path position after the reset's automatic "look around"
}

// replayEnv is one environment created by /create.
type replayEnv struct {
	game    *replayGame
	pos     int
	score   int
	done    bool
	moves   int
	obs     string
	deleted bool
}

// ReplayOption configures a ReplayServer.
type ReplayOption func(*ReplayServer)

// WithStepLimit ends episodes after n moves (ScienceWorld's envStepLimit;
// default 100, as in the LifeMem evaluator).
func WithStepLimit(n int) ReplayOption { return func(s *ReplayServer) { s.stepLimit = n } }

// WithMaxEnvs bounds the number of live environments (default 4096).
func WithMaxEnvs(n int) ReplayOption { return func(s *ReplayServer) { s.maxEnvs = n } }

// NewReplayServer indexes the gold files' (task, variation) pairs. Tasks
// ScienceWorld knows get AgentGym's data_idx; others (made-up tasks) are
// numbered from SciWorldGames on, in file order.
func NewReplayServer(files []GoldFile, opts ...ReplayOption) (*ReplayServer, error) {
	s := &ReplayServer{byIndex: map[int]*replayGame{}, stepLimit: 100, maxEnvs: 4096, envs: map[int]*replayEnv{}}
	for _, o := range opts {
		o(s)
	}
	next := SciWorldGames
	seen := map[string]bool{}
	for _, f := range files {
		for _, key := range f.Keys() {
			t := f[key]
			for _, v := range t.GoldActionSequences {
				g, err := newReplayGame(t, v)
				if err != nil {
					return nil, fmt.Errorf("replay: task %q variation %d: %w", key, v.VariationIdx, err)
				}
				id := fmt.Sprintf("%s_%d", g.canonical, g.variation)
				if seen[id] {
					return nil, fmt.Errorf("replay: %s variation %d given twice", g.canonical, g.variation)
				}
				seen[id] = true
				if idx, err := SciWorldDataIndex(t.TaskName, v.VariationIdx); err == nil {
					g.index = idx
				} else {
					g.index = next
					next++
				}
				if old, dup := s.byIndex[g.index]; dup {
					return nil, fmt.Errorf("replay: %s variation %d given twice (data_idx %d)", old.taskName, g.variation, g.index)
				}
				s.byIndex[g.index] = g
				s.games = append(s.games, g)
			}
		}
	}
	if len(s.games) == 0 {
		return nil, fmt.Errorf("replay: no gold sequences")
	}
	return s, nil
}

func newReplayGame(t GoldTask, v GoldVariation) (*replayGame, error) {
	g := &replayGame{
		taskName: t.TaskName, canonical: CanonicalTaskName(t.TaskName), variation: v.VariationIdx,
		fold: v.Fold, desc: v.TaskDescription, path: v.Path,
	}
	for i, st := range v.Path {
		f, err := st.ScoreFraction()
		if err != nil {
			return nil, fmt.Errorf("path[%d]: %w", i, err)
		}
		done, err := st.Completed()
		if err != nil {
			return nil, fmt.Errorf("path[%d]: %w", i, err)
		}
		// As ScienceWorld's Python API: int(round(100 * score)).
		g.scores = append(g.scores, int(math.Round(100*f)))
		g.completed = append(g.completed, done)
	}
	if normAction(v.Path[0].Action) == "look around" {
		g.start = 1
	}
	return g, nil
}

// Tasks lists the server's (task, variation) pairs as tasks of env, with
// their gold actions (the path after the reset's "look around"). IDs are
// "<taskName>_<variation>" with the gold file's task name, the form of
// LifeMem's trajectory ids ("task-1-boil_23").
func (s *ReplayServer) Tasks(env string) []envs.Task {
	out := make([]envs.Task, 0, len(s.games))
	for _, g := range s.games {
		gold := make([]string, 0, len(g.path)-g.start)
		for _, st := range g.path[g.start:] {
			gold = append(gold, st.Action)
		}
		out = append(out, envs.Task{
			ID:          fmt.Sprintf("%s_%d", g.taskName, g.variation),
			Env:         env,
			Split:       g.fold,
			Instruction: g.desc,
			Difficulty:  len(g.path),
			Data:        &Target{Index: g.index, TaskName: g.canonical, Variation: g.variation, Gold: gold},
		})
	}
	return out
}

// normAction is how the replay compares actions: case and spacing do not
// matter, as in ScienceWorld's parser.
func normAction(a string) string {
	return strings.Join(strings.Fields(strings.ToLower(a)), " ")
}

// create makes a new environment.
func (s *ReplayServer) create() (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.envs) >= s.maxEnvs {
		return 0, fmt.Errorf("too many environments (%d); close some", s.maxEnvs)
	}
	id := s.nextID
	s.nextID++
	s.envs[id] = &replayEnv{}
	return id, nil
}

// env returns a live environment; reset may use a finished one.
func (s *ReplayServer) env(id int, reset bool) (*replayEnv, error) {
	e, ok := s.envs[id]
	switch {
	case !ok:
		return nil, fmt.Errorf("The id %d is not valid.", id)
	case e.deleted:
		return nil, fmt.Errorf("The task with environment %d has been deleted.", id)
	case !reset && e.game == nil:
		return nil, fmt.Errorf("The environment %d has not been reset.", id)
	case !reset && e.done:
		return nil, fmt.Errorf("The task with environment %d has finished.", id)
	}
	return e, nil
}

// reset loads game dataIdx into environment id and runs "look around".
func (s *ReplayServer) reset(id, dataIdx int) (map[string]any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.env(id, true)
	if err != nil {
		return nil, err
	}
	g, ok := s.byIndex[dataIdx]
	if !ok {
		return nil, fmt.Errorf("data_idx %d is not served by this replay server", dataIdx)
	}
	*e = replayEnv{game: g, pos: g.start, moves: 1}
	if g.start == 1 {
		e.obs, e.score = g.path[0].Observation, g.scores[0]
	} else {
		e.obs = g.path[0].Freelook
	}
	return map[string]any{
		"task_name": g.canonical, "var_num": g.variation, "task_description": g.desc,
		"observation": e.obs, "reward": e.score, "score": e.score, "deleted": false, "done": false,
	}, nil
}

// step applies one action.
func (s *ReplayServer) step(id int, action string) (map[string]any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.env(id, false)
	if err != nil {
		return nil, err
	}
	g := e.game
	last := e.score
	e.moves++
	a := normAction(action)
	switch {
	case e.pos < len(g.path) && a == normAction(g.path[e.pos].Action):
		e.obs, e.score = g.path[e.pos].Observation, g.scores[e.pos]
		e.done = g.completed[e.pos]
		e.pos++
	case a == "look around" || a == "look":
		e.obs = s.freeText(e, func(st GoldStep) string { return st.Freelook })
	case a == "inventory":
		e.obs = s.freeText(e, func(st GoldStep) string { return st.Inventory })
	case a == "task":
		e.obs = g.desc
	default:
		e.obs = NoMatch
	}
	if e.score < 0 || e.moves > s.stepLimit || e.pos >= len(g.path) {
		e.done = true
	}
	return map[string]any{"observation": e.obs, "reward": e.score - last, "score": e.score, "done": e.done}, nil
}

// freeText answers a free action from the state before the next gold step.
func (s *ReplayServer) freeText(e *replayEnv, field func(GoldStep) string) string {
	if e.pos < len(e.game.path) {
		if t := field(e.game.path[e.pos]); t != "" {
			return t
		}
	}
	return NoMatch
}

// closeEnv deletes an environment.
func (s *ReplayServer) closeEnv(id int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.env(id, true); err != nil {
		return err
	}
	delete(s.envs, id)
	return nil
}

// detail reports an environment's state (GET /detail and friends).
func (s *ReplayServer) detail(id int) (*replayEnv, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.env(id, true)
	if err != nil {
		return nil, err
	}
	c := *e
	return &c, nil
}
