// Package agent holds the experience-reuse methods for agents (ReAct,
// Synapse, ExpeL, AutoSkill, LifeMem) behind one interface, and the prompt
// machinery they share. A method learns from recorded trajectories stage by
// stage (LifeMem's lifelong protocol) and, for each test task, yields an
// envs.Agent that acts through llm.Model with whatever experience it
// retrieves.
package agent

import (
	"context"

	"github.com/memharness/memharness/datasets/trajectories"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
)

// Trajectory is one recorded episode used as experience; the record type
// lives with its loaders, low in the tree, so datasets need no methods.
type Trajectory = trajectories.Trajectory

// Env is what the runner lends a method.
type Env struct {
	// Model acts (the agent backbone); BuildModel, when set, serves memory
	// construction (LifeMem uses other models for clustering and skills).
	Model      llm.Model
	BuildModel llm.Model
	// AssignModel serves LifeMem's assignment and summary calls;
	// SkillModel its split and skill calls and the baselines' extraction.
	// Each falls back to Builder().
	AssignModel, SkillModel llm.Model
	// UserModel plays simulated users inside episodes (τ-bench's
	// customer); nil: Model.
	UserModel llm.Model
	Embedder  llm.Embedder
	// Seed seeds every random choice of the method.
	Seed int64
	// Dir is a private working directory for the method's stores (SQLite).
	Dir string
	// Prompts holds the release Prompters and own-mode few-shots (nil:
	// the harness's own prompt without few-shots).
	Prompts *Prompts
	// Sampling holds every request's sampling settings by purpose (nil:
	// none sent).
	Sampling *Sampling
}

// Builder returns the model for memory construction.
func (e Env) Builder() llm.Model {
	if e.BuildModel != nil {
		return e.BuildModel
	}
	return e.Model
}

// User returns the model that plays simulated users.
func (e Env) User() llm.Model {
	if e.UserModel != nil {
		return e.UserModel
	}
	return e.Model
}

// Assigner returns the model for cluster assignment and summaries.
func (e Env) Assigner() llm.Model {
	if e.AssignModel != nil {
		return e.AssignModel
	}
	return e.Builder()
}

// Distiller returns the model for splits, skills and the baselines'
// insight and skill extraction.
func (e Env) Distiller() llm.Model {
	if e.SkillModel != nil {
		return e.SkillModel
	}
	return e.Builder()
}

// Method is an agent method under the lifelong protocol.
type Method interface {
	Name() string
	// Learn ingests one batch of training trajectories (a stage of the
	// similarity stream, or a mini-batch of the random/buffer streams).
	Learn(ctx context.Context, env Env, batch []Trajectory) error
	// EndStage closes a training stage (re-distil skills, update insights)
	// before the stage's evaluation.
	EndStage(ctx context.Context, env Env) error
	// Agent returns the agent that plays task t of suite s, with the
	// experience the method retrieves for it.
	Agent(ctx context.Context, env Env, s envs.Suite, t envs.Task) (envs.Agent, error)
	// Save and Restore persist the method's whole state under env.Dir so a
	// run resumes at the stage and cell level.
	Save(ctx context.Context, env Env) error
	Restore(ctx context.Context, env Env) (bool, error)
}

// EpisodeEnder is an envs.Agent told how its episode ended (the score,
// the steps, the transcript), once the episode is over: a method whose
// agent runs elsewhere (an external method's child) learns the outcome of
// its own task. The runner calls it after every episode the agent played.
type EpisodeEnder interface {
	EndEpisode(ctx context.Context, tr envs.Transcript) error
}
