package scienceworld

import (
	"fmt"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/lazyre"
)

// sciTask is one ScienceWorld task type with its number of variations, in
// the simulator's task order (facts from the ScienceWorld README).
type sciTask struct {
	id, name   string
	variations int
}

// sciTasks must stay in ScienceWorld's order: AgentGym's data_idx flattens
// (task, variation) pairs in exactly this order.
func sciTasks() []sciTask {
	return []sciTask{
		{"1-1", "boil", 30}, {"1-2", "melt", 30}, {"1-3", "freeze", 30},
		{"1-4", "change-the-state-of-matter-of", 30},
		{"2-1", "use-thermometer", 540}, {"2-2", "measure-melting-point-known-substance", 436},
		{"2-3", "measure-melting-point-unknown-substance", 300},
		{"3-1", "power-component", 20}, {"3-2", "power-component-renewable-vs-nonrenewable-energy", 20},
		{"3-3", "test-conductivity", 900}, {"3-4", "test-conductivity-of-unknown-substances", 600},
		{"4-1", "find-living-thing", 300}, {"4-2", "find-non-living-thing", 300},
		{"4-3", "find-plant", 300}, {"4-4", "find-animal", 300},
		{"5-1", "grow-plant", 126}, {"5-2", "grow-fruit", 126},
		{"6-1", "chemistry-mix", 32}, {"6-2", "chemistry-mix-paint-secondary-color", 36},
		{"6-3", "chemistry-mix-paint-tertiary-color", 36},
		{"7-1", "lifespan-longest-lived", 125}, {"7-2", "lifespan-shortest-lived", 125},
		{"7-3", "lifespan-longest-lived-then-shortest-lived", 125},
		{"8-1", "identify-life-stages-1", 14}, {"8-2", "identify-life-stages-2", 10},
		{"9-1", "inclined-plane-determine-angle", 168}, {"9-2", "inclined-plane-friction-named-surfaces", 1386},
		{"9-3", "inclined-plane-friction-unnamed-surfaces", 162},
		{"10-1", "mendelian-genetics-known-plant", 120}, {"10-2", "mendelian-genetics-unknown-plant", 480},
	}
}

// agentGymSkips are the task ids AgentGym's sciworld server leaves out of
// its data_idx list.
func agentGymSkips(id string) bool {
	switch id {
	case "5-1", "5-2", "9-1", "9-2", "9-3", "10-1", "10-2":
		return true
	}
	return false
}

// SciWorldGames is the size of AgentGym's sciworld data_idx space.
const SciWorldGames = 4639

// legacyPrefix is the "task-7-" prefix of older ScienceWorld task names,
// still used by the gold-sequence files and LifeMem's trajectory ids.
var legacyPrefix = lazyre.New(`^task-[0-9]+[a-z]?-`)

// CanonicalTaskName drops the legacy "task-N-" prefix:
// "task-7-identify-life-stages-1" → "identify-life-stages-1".
func CanonicalTaskName(name string) string {
	return legacyPrefix.ReplaceAllString(name, "")
}

// SciWorldDataIndex is AgentGym's data_idx for a ScienceWorld (task,
// variation); taskName may carry the legacy prefix.
func SciWorldDataIndex(taskName string, variation int) (int, error) {
	name := CanonicalTaskName(taskName)
	off := 0
	for _, t := range sciTasks() {
		skip := agentGymSkips(t.id)
		if t.name == name {
			switch {
			case skip:
				return 0, fmt.Errorf("sciworld task %s (%s) is not served by AgentGym", name, t.id)
			case variation < 0 || variation >= t.variations:
				return 0, fmt.Errorf("sciworld task %s has variations 0..%d, not %d", name, t.variations-1, variation)
			}
			return off + variation, nil
		}
		if !skip {
			off += t.variations
		}
	}
	return 0, fmt.Errorf("unknown sciworld task %q", taskName)
}

// SciWorldTasks lists every (task, variation) an AgentGym sciworld server
// can reset to, in data_idx order, with IDs "<task>_<variation>" (LifeMem's
// trajectory ids without the legacy prefix).
func SciWorldTasks() []envs.Task {
	out := make([]envs.Task, 0, SciWorldGames)
	for _, t := range sciTasks() {
		if agentGymSkips(t.id) {
			continue
		}
		for v := 0; v < t.variations; v++ {
			out = append(out, envs.Task{
				ID:          fmt.Sprintf("%s_%d", t.name, v),
				Env:         Name,
				Instruction: fmt.Sprintf("ScienceWorld task %s (%s), variation %d", t.id, t.name, v),
				Data:        &Target{Index: len(out), TaskName: t.name, Variation: v},
			})
		}
	}
	return out
}
