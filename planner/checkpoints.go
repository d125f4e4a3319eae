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

// resuming is one method's view of the rehearsal's checkpoints: what it
// saves is recorded as its (savers), and a checkpoint of another method
// it loads means it resumes that method's construction. In a run such a
// construction is held by one method at a time (predict.Env's
// LockCheckpoints), so the plan sends the resuming method's calls after
// the other's.
type resuming struct {
	memCheckpoints
	savers  map[[2]string]string // checkpoint → the method that saved it
	method  string
	resumes map[string]bool // the methods whose checkpoints it loaded
}

func (r resuming) Load(user, name string, v any) (bool, error) {
	ok, err := r.memCheckpoints.Load(user, name, v)
	if by := r.savers[[2]string{user, name}]; ok && by != "" && by != r.method {
		r.resumes[by] = true
	}
	return ok, err
}

func (r resuming) Save(user, name string, v any) error {
	r.savers[[2]string{user, name}] = r.method
	return r.memCheckpoints.Save(user, name, v)
}
