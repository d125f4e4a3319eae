// Package envs holds the agent environments behind one interface. Each
// environment lives in its own sub-package and exposes a Suite: its tasks
// (from the official data or an embedded suite written by us) and episodes
// that take action strings and return observations. Agent actions are
// untrusted input: a malformed or unknown action yields an error
// observation, never a crash, and environments never touch the host
// filesystem, network or shell. Replaying an oracle's gold actions
// (Record) turns episodes into the trajectories agents learn from.
package envs

import (
	"context"
	"errors"

	"github.com/memharness/memharness/llm"
)

// Task is one episode's specification.
type Task struct {
	// ID is stable across runs and unique within the environment.
	ID string `json:"id"`
	// Env is the environment name ("taubench-retail", "apibank", ...).
	Env string `json:"env"`
	// Split is "test", "train", "dev" or "" when the data has none.
	Split string `json:"split,omitempty"`
	// Instruction is the goal as shown to the agent.
	Instruction string `json:"instruction"`
	// Difficulty orders tasks easy→hard within an environment (LifeMem's
	// similarity stream); 0 when unknown.
	Difficulty int `json:"difficulty,omitempty"`
	// Key, when set, is what memory retrieval keys the task on instead of
	// the instruction, where the sources do so (Mind2Web: Synapse's
	// specifier, website, domain and subdomain above the task, which is
	// also the task text of LifeMem's Mind2Web training file).
	Key string `json:"-"`
	// Data is the environment's own task record (opaque to the harness).
	Data any `json:"-"`
}

// Step is the outcome of one action.
type Step struct {
	Observation string         `json:"observation"`
	Reward      float64        `json:"reward"`
	Done        bool           `json:"done"`
	Info        map[string]any `json:"info,omitempty"`
	// Invalid is true when the action could not be parsed or executed; the
	// observation then says why.
	Invalid bool `json:"invalid,omitempty"`
}

// Options are what an episode may use besides its task.
type Options struct {
	// Model plays simulated parties (e.g. τ-bench's customer). Nil means
	// the environment's scripted fallback when it has one, else an error.
	Model llm.Model
	// Embedder serves retrieval inside an environment (API-Bank's ToolSearcher).
	Embedder llm.Embedder
	// Seed makes any randomness of the episode reproducible.
	Seed int64
	// UserParams, when set, are the sampling settings of the simulated
	// party's requests (the run's "customer" purpose); nil keeps the
	// environment's own.
	UserParams *llm.Params
}

// Episode is one run of a task.
type Episode interface {
	// Observation is the initial observation (what the agent sees first,
	// including the instruction when the environment shows it there).
	Observation() string
	// Step applies one action. An error means the environment itself failed
	// (not the agent); a bad action is a Step with Invalid set.
	Step(ctx context.Context, action string) (Step, error)
	// Done reports whether the episode has ended.
	Done() bool
	// Score is the environment's native metric for the episode so far, in [0, 1].
	Score() float64
	// Close releases the episode's resources (databases, browsers).
	Close() error
}

// Suite is one environment with its tasks.
type Suite interface {
	// Name is the registry name.
	Name() string
	// Tasks lists every task, in a stable order.
	Tasks() []Task
	// MaxSteps is the step limit from the paper.
	MaxSteps() int
	// NewEpisode starts a task.
	NewEpisode(ctx context.Context, t Task, opts Options) (Episode, error)
}

// Oracle is implemented by suites that can solve their own tasks from gold
// data (gold actions, gold SQL, gold answers): `bench envs check` replays the
// oracle's actions and expects a full score.
type Oracle interface {
	// Gold returns the agent actions that solve t, in order. Scripted
	// simulated parties (if any) are the suite's business.
	Gold(t Task) ([]string, error)
}

// OracleOptions is implemented by suites whose oracle episodes need special
// options (for example a scripted customer instead of an LLM).
type OracleOptions interface {
	GoldOptions(t Task) Options
}

// DataIssues is implemented by suites whose official data holds tasks that no
// correct environment can solve (a wrong answer key, a gold call recorded
// against an older API). Check reports such a task as excluded, with the
// reason, when its oracle fails, instead of counting it as a failure.
type DataIssues interface {
	DataIssues() map[string]string
}

// ErrNoData is wrapped by an environment's Open when the official data (or
// a part of it the environment cannot run without, such as WebShop's
// catalogue) is not in the directory; `bench envs check --data` then skips
// the environment with that reason instead of failing.
var ErrNoData = errors.New("official data not available")

// Prerequisite is the error an environment returns when software it needs
// outside the Go toolchain (a browser, npm libraries, a database server) is
// missing on this machine. Such an environment cannot run here at all, which
// is not the same as failing its tasks: `bench envs check` reports it as
// skipped and a lifelong run leaves it out, both printing Install. Match it
// with errors.As.
type Prerequisite struct {
	// Env is the environment that needs it ("miniwob").
	Env string
	// What names what is missing, in words ("chromium").
	What string
	// Install is the command that installs it, run from the repository root.
	Install string
	// Err is the underlying cause (which paths were tried); may be nil.
	Err error
}

func (p *Prerequisite) Error() string {
	msg := p.Env + " needs " + p.What + ", not found on this machine"
	if p.Err != nil {
		msg += " (" + p.Err.Error() + ")"
	}
	if p.Install != "" {
		msg += "; install with: " + p.Install
	}
	return msg
}

func (p *Prerequisite) Unwrap() error { return p.Err }

// Prerequisites is implemented by suites that depend on software outside Go.
// Prerequisites checks, without starting anything, that it is installed and
// returns nil or a *Prerequisite.
type Prerequisites interface {
	Prerequisites() error
}

// CheckPrerequisites returns s's missing prerequisite (a *Prerequisite), or
// nil when s has none or all are installed.
func CheckPrerequisites(s Suite) error {
	if p, ok := s.(Prerequisites); ok {
		return p.Prerequisites()
	}
	return nil
}

// InstructionHider is implemented by suites whose task instruction is a
// simulated user's private goal (τ-bench's customer): an agent sees only the
// conversation, never the instruction itself.
type InstructionHider interface {
	HidesInstruction() bool
}

// HidesInstruction reports whether s keeps its tasks' instructions from
// the agent.
func HidesInstruction(s Suite) bool {
	h, ok := s.(InstructionHider)
	return ok && h.HidesInstruction()
}

// Opener is implemented by instruction-hiding suites whose first
// observation carries more than the user's opening words (τ-bench: the
// policy and tools, then the customer's first message); Opening cuts out
// what the user said.
type Opener interface {
	Opening(firstObservation string) string
}

// ObservedTask is implemented by suites whose task text exists only once
// an episode starts (MiniWoB++: the page generates its utterance from the
// seed); TaskFromObservation reads it from the first observation.
type ObservedTask interface {
	TaskFromObservation(firstObservation string) string
}

// KeyNeedsObservation reports whether t's retrieval key can only be read
// from the episode's first observation (RetrievalKey then needs it).
func KeyNeedsObservation(s Suite) bool {
	_, observed := s.(ObservedTask)
	return observed || HidesInstruction(s)
}

// RetrievalKey is the text memory retrieval keys on for t: what the
// simulated user has said in the first observation when s hides the
// instruction (the agent may use nothing else), the task text the first
// observation carries when only it has one, else t's Key or instruction.
func RetrievalKey(s Suite, t Task, firstObservation string) string {
	if HidesInstruction(s) {
		if o, ok := s.(Opener); ok {
			return o.Opening(firstObservation)
		}
		return firstObservation
	}
	if o, ok := s.(ObservedTask); ok {
		return o.TaskFromObservation(firstObservation)
	}
	if t.Key != "" {
		return t.Key
	}
	return t.Instruction
}
