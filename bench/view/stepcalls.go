package view

import (
	"path"
	"strconv"
	"strings"

	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runstore"
)

// StepCall is one model call an agent step made, its request as sent.
type StepCall struct {
	Purpose  string
	Messages []llm.Message
	Cached   bool
	Error    string
}

// cellUnit is the call record's unit of one lifelong cell: the calls made
// for a cell are journalled with its cell file (bench's lifelong commit).
func cellUnit(method, stage, env string) string {
	return "file:" + path.Join(lifelong.Dir, method, "cells", stage, env+".json")
}

// stepKey is what an agent call's SampleID says after the method's name:
// "<env>/<task>/<step>", step counting the agent turns before it
// (methods/agent names its calls "<method>/<env>/<task>/<step>", with
// "/abstract", "/thought", "/action" or "/call<N>" for a step's further
// calls). Task IDs may hold slashes; method names do not.
func stepKey(env, task string, step int) string {
	return env + "/" + task + "/" + strconv.Itoa(step)
}

// stepCalls indexes one cell's agent calls by step key. A key's calls
// fall into one group per episode that made them: a call whose kind (its
// suffix) the current group already holds starts the next group, so a
// task run twice in a cell keeps its two episodes apart.
type stepCalls map[string][][]StepCall

func indexStepCalls(calls []runstore.Call) stepCalls {
	idx := stepCalls{}
	seen := map[string]map[string]bool{} // key -> kinds in its last group
	for _, c := range calls {
		if c.Exchange == nil {
			continue
		}
		_, rest, ok := strings.Cut(c.Exchange.SampleID, "/") // drop the method
		if !ok {
			continue
		}
		key, kind := rest, ""
		if i := strings.LastIndex(rest, "/"); i >= 0 && stepSuffix(rest[i+1:]) {
			key, kind = rest[:i], rest[i+1:]
		}
		if j := strings.LastIndex(key, "/"); j < 0 || !allDigits(key[j+1:]) {
			continue // not an agent step (a customer's turn, a construction call)
		}
		groups := idx[key]
		if len(groups) == 0 || seen[key][kind] {
			groups = append(groups, nil)
			seen[key] = map[string]bool{}
		}
		seen[key][kind] = true
		groups[len(groups)-1] = append(groups[len(groups)-1], StepCall{Purpose: c.Purpose, Messages: c.Exchange.Messages,
			Cached: c.Cached, Error: c.Exchange.Error})
		idx[key] = groups
	}
	return idx
}

func stepSuffix(s string) bool {
	switch s {
	case "abstract", "thought", "action":
		return true
	}
	n, ok := strings.CutPrefix(s, "call")
	return ok && allDigits(n)
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// attachCalls gives each agent turn of the episodes of one cell the calls
// its step made. occurrence counts the earlier episodes of each task in
// the cell, in file order (the order the cell ran them).
func attachCalls(eps []Episode, env string, idx stepCalls) {
	occurrence := map[string]int{}
	for i := range eps {
		e := &eps[i]
		n := occurrence[e.Task]
		occurrence[e.Task]++
		step := 0
		for j, u := range e.Turns {
			if u.Role != "agent" {
				continue
			}
			if groups := idx[stepKey(env, e.Task, step)]; n < len(groups) {
				e.Calls[j] = groups[n]
				e.Recorded = true
			}
			step++
		}
	}
}

// readCellCalls reads the recorded calls of the given cells of one method
// and stage, by env, in one pass over the record.
func readCellCalls(dir, method, stage string, envs []string) (map[string][]runstore.Call, error) {
	units := map[string]string{}
	for _, env := range envs {
		units[cellUnit(method, stage, env)] = env
	}
	cr, err := runstore.OpenCalls(dir)
	if err != nil {
		return nil, err
	}
	defer cr.Close()
	out := map[string][]runstore.Call{}
	err = cr.Each(func(u string) bool { _, ok := units[u]; return ok }, func(c runstore.Call) error {
		out[units[c.Unit]] = append(out[units[c.Unit]], c)
		return nil
	})
	return out, err
}

// addStepCalls gives every agent step of a stage's episodes the calls it
// made, from the call record. An unreadable record is said on each
// episode, which then shows the input worked out from the transcript.
func addStepCalls(dir, method, stage string, cells []EnvEpisodes) {
	envs := make([]string, len(cells))
	for i, ee := range cells {
		envs[i] = ee.Env
	}
	byEnv, err := readCellCalls(dir, method, stage, envs)
	for _, ee := range cells {
		if err != nil {
			for i := range ee.Episodes {
				ee.Episodes[i].RecordNote = "The call record could not be read (" + err.Error() + ")."
			}
			continue
		}
		attachCalls(ee.Episodes, ee.Env, indexStepCalls(byEnv[ee.Env]))
	}
}
