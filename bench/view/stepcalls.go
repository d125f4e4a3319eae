package view

import (
	"path"
	"strconv"
	"strings"
	"sync"

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
// the cell, in file order (the order the cell ran them). url, when set,
// addresses a step's input (its calls' messages are then not on the page,
// which fetches them when the step is opened).
func attachCalls(eps []Episode, env string, idx stepCalls, url func(task string, occ, step int) string) {
	occurrence := map[string]int{}
	for i := range eps {
		e := &eps[i]
		n := occurrence[e.Task]
		occurrence[e.Task]++
		if url != nil {
			e.CallURLs = make([]string, len(e.Turns))
		}
		step := 0
		for j, u := range e.Turns {
			if u.Role != "agent" {
				continue
			}
			if groups := idx[stepKey(env, e.Task, step)]; n < len(groups) {
				e.Calls[j] = groups[n]
				e.Recorded = true
				if url != nil {
					e.CallURLs[j] = url(e.Task, n, step)
				}
			}
			step++
		}
	}
}

// cellCalls gives a cell's agent calls, indexed by step, for an env of the
// stage being shown.
type cellCalls func(env string) (stepCalls, error)

// addStepCalls gives every agent step of a stage's episodes the calls it
// made, from the call record. An unreadable record is said on each
// episode, which then shows the input worked out from the transcript.
func addStepCalls(cells []EnvEpisodes, calls cellCalls, url func(env, task string, occ, step int) string) {
	for _, ee := range cells {
		idx, err := calls(ee.Env)
		if err != nil {
			for i := range ee.Episodes {
				ee.Episodes[i].RecordNote = "The call record could not be read (" + err.Error() + ")."
			}
			continue
		}
		var u func(string, int, int) string
		if url != nil {
			env := ee.Env
			u = func(task string, occ, step int) string { return url(env, task, occ, step) }
		}
		attachCalls(ee.Episodes, ee.Env, idx, u)
	}
}

// cellCache keeps the step index of the cells last shown, so that a
// transcripts page and the step inputs it then fetches read and
// decompress each cell's calls once.
type cellCache struct {
	mu    sync.Mutex
	order []string // oldest first
	cells map[string]stepCalls
	sizes map[string]int
	bytes int
}

// maxCachedCellBytes bounds the cache by the text it holds: a cell's
// calls repeat its prompt prefix at every step, megabytes for a long one.
// The newest cell stays however large it is.
const maxCachedCellBytes = 64 << 20

func (c *cellCache) get(unit string) (stepCalls, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	idx, ok := c.cells[unit]
	return idx, ok
}

func (c *cellCache) put(unit string, idx stepCalls) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cells == nil {
		c.cells, c.sizes = map[string]stepCalls{}, map[string]int{}
	}
	if _, ok := c.cells[unit]; ok {
		return
	}
	n := idx.size()
	c.cells[unit], c.sizes[unit], c.order, c.bytes = idx, n, append(c.order, unit), c.bytes+n
	for c.bytes > maxCachedCellBytes && len(c.order) > 1 {
		old := c.order[0]
		c.bytes -= c.sizes[old]
		delete(c.cells, old)
		delete(c.sizes, old)
		c.order = c.order[1:]
	}
}

// size is about the bytes idx holds: its messages' texts.
func (idx stepCalls) size() int {
	n := 0
	for k, groups := range idx {
		n += len(k)
		for _, g := range groups {
			for _, c := range g {
				n += len(c.Purpose) + len(c.Error)
				for _, m := range c.Messages {
					n += len(m.Role) + len(m.Content)
				}
			}
		}
	}
	return n
}

// stepCallsOf is one cell's agent calls by step, read through the run's
// call record index (only that cell's journal lines and the chunk batches
// they name).
func (ri *runIndex) stepCallsOf(method, stage, env string) (stepCalls, error) {
	unit := cellUnit(method, stage, env)
	if idx, ok := ri.cells.get(unit); ok {
		return idx, nil
	}
	calls, err := ri.callsOf(unit)
	if err != nil {
		return nil, err
	}
	idx := indexStepCalls(calls)
	ri.cells.put(unit, idx)
	return idx, nil
}
