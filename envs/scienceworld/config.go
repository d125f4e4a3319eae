package scienceworld

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/memharness/memharness/envs"
)

// Config describes one AgentGym server and the tasks to run on it.
type Config struct {
	// BaseURL is the server's root, e.g. "http://localhost:36001".
	BaseURL string
	// Kind selects the server's request and reply shapes.
	Kind Kind
	// Family must match Kind's family when set (a guard against pointing a
	// sciworld config at a webshop server); empty means Kind's family.
	Family Family
	// Name is the suite name; empty means Kind's default ("scienceworld").
	Name string
	// Tasks are the episodes on offer. Empty means, for sciworld, every
	// (task, variation) the AgentGym server can address (SciWorldTasks);
	// other kinds need explicit tasks (see IndexTasks).
	Tasks []envs.Task
	// Index maps a task to the server's index (sciworld data_idx, alfworld
	// game, webshop session_id, sqlgym item_id, searchqa id). Nil reads
	// Task.Data as a *Target.
	Index func(envs.Task) (int, error)
	// MaxSteps overrides the paper's step limit when positive.
	MaxSteps int
	// Timeout bounds each HTTP request (default 60 s; ScienceWorld resets
	// can take seconds).
	Timeout time.Duration
	// Retries is how many times a request is retried after a 503 or a
	// connection failure (default 3; negative means none).
	Retries int
	// Backoff is the wait before the first retry, doubled each time up to
	// 8 s (default 500 ms).
	Backoff time.Duration
	// WorldType is alfworld's world_type (default "Text").
	WorldType string
	// PartialScore makes a sciworld episode's Score the server score / 100
	// instead of LifeMem's success (1 only at score 100).
	PartialScore bool
	// HTTPClient replaces http.DefaultClient (its own Timeout is left alone;
	// Config.Timeout applies per request).
	HTTPClient *http.Client
}

// Defaults applied by withDefaults.
const (
	defaultTimeout = 60 * time.Second
	defaultRetries = 3
	defaultBackoff = 500 * time.Millisecond
	maxBackoff     = 8 * time.Second
)

// withDefaults validates c and fills its zero fields.
func (c Config) withDefaults() (Config, kindSpec, error) {
	spec, err := specFor(c.Kind)
	if err != nil {
		return c, spec, err
	}
	if c.Family == "" {
		c.Family = spec.family
	}
	if c.Family != spec.family {
		return c, spec, fmt.Errorf("agentgym: %s servers speak family %s, config says %q", c.Kind, spec.family, c.Family)
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil {
		return c, spec, fmt.Errorf("agentgym: base URL %q: %w", c.BaseURL, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c, spec, fmt.Errorf("agentgym: base URL %q: want http(s)://host[:port][/path]", c.BaseURL)
	}
	if c.Name == "" {
		c.Name = spec.name
	}
	if c.MaxSteps <= 0 {
		c.MaxSteps = spec.maxSteps
	}
	if c.Timeout <= 0 {
		c.Timeout = defaultTimeout
	}
	switch {
	case c.Retries == 0:
		c.Retries = defaultRetries
	case c.Retries < 0:
		c.Retries = 0
	}
	if c.Backoff <= 0 {
		c.Backoff = defaultBackoff
	}
	if c.WorldType == "" {
		c.WorldType = "Text"
	}
	if c.HTTPClient == nil {
		c.HTTPClient = http.DefaultClient
	}
	if c.Index == nil {
		c.Index = targetIndex
	}
	if len(c.Tasks) == 0 {
		if c.Kind != SciWorld {
			return c, spec, fmt.Errorf("agentgym: %s config has no tasks (use IndexTasks)", c.Kind)
		}
		c.Tasks = SciWorldTasks()
	}
	return c, spec, nil
}

// Target is the Task.Data of tasks this package makes.
type Target struct {
	// Index is the server's index for the task.
	Index int
	// TaskName and Variation identify a ScienceWorld (task, variation);
	// TaskName is ScienceWorld's current name ("boil"), without the
	// legacy "task-N-" prefix of the gold files.
	TaskName  string
	Variation int
	// Gold are the agent actions that solve the task (after the automatic
	// "look around"); nil when unknown.
	Gold []string
}

// errNoTarget is wrapped when a task carries no *Target and no Index
// function was configured.
var errNoTarget = errors.New("task has no agentgym target")

func targetIndex(t envs.Task) (int, error) {
	tg, ok := t.Data.(*Target)
	if !ok || tg == nil {
		return 0, fmt.Errorf("%s: %w (set Config.Index)", t.ID, errNoTarget)
	}
	return tg.Index, nil
}

// IndexTasks makes one task per server index, for servers whose task list
// the harness does not know (alfworld, webshop, sqlgym, searchqa).
func IndexTasks(env string, indices []int) []envs.Task {
	out := make([]envs.Task, 0, len(indices))
	for _, i := range indices {
		out = append(out, envs.Task{
			ID:   fmt.Sprintf("%s-%d", env, i),
			Env:  env,
			Data: &Target{Index: i},
		})
	}
	return out
}
