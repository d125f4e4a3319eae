package trajectories

import "github.com/memharness/memharness/llm"

// Trajectory is one recorded episode used as experience: the LifeMem
// training format ({task, messages}) plus the harness's own fields.
type Trajectory struct {
	// ID is stable; generated as "<env>_<line index>" when the source has none.
	ID string `json:"task_id"`
	// Env is the environment the episode ran in (registry name).
	Env string `json:"env"`
	// Task is the task text (what LifeMem embeds for retrieval).
	Task string `json:"task"`
	// Messages alternate user (observations) and assistant (actions); the
	// first user message is normally the task.
	Messages []llm.Message `json:"messages"`
	// Success is whether the episode solved its task (training sets hold
	// successful trajectories; recorded ones may not).
	Success bool `json:"success"`
	// Difficulty orders trajectories easy→hard within an environment.
	Difficulty int `json:"difficulty,omitempty"`
}
