package planner

import (
	"encoding/json"
	"fmt"
)

// memCheckpoints keeps a rehearsal's per-user checkpoints in memory,
// shared by every method as the run store's are: methods whose
// construction is the same (PraMem variants that differ only at
// evaluation) reuse it, so the plan counts it once, as the run does.
type memCheckpoints map[[2]string][]byte

func (c memCheckpoints) Load(user, name string, v any) (bool, error) {
	b, ok := c[[2]string{user, name}]
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("planner: checkpoint %s/%s: %w", user, name, err)
	}
	return true, nil
}

func (c memCheckpoints) Save(user, name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("planner: checkpoint %s/%s: %w", user, name, err)
	}
	c[[2]string{user, name}] = b
	return nil
}
