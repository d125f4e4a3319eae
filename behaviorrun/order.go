package behaviorrun

import "github.com/memharness/memharness/internal/prefixcache"

// issueOrder is the order the worker pool takes the plan's jobs in: the
// questions of one test record share its history, by every method, so they
// go together, the first one at least `workers` jobs ahead of the others so
// a server's prefix cache holds the history when they start. Only the
// issue order changes: samples are stored under their IDs and compacted
// into plan order, and every sample's randomness comes from its ID, so
// results and files are the same in any order.
//
// classes maps a method to its prefix class (methods whose prompts start
// alike: the same history budget); a method not in it is its own class.
func issueOrder(jobs []Job, workers int, classes map[string]string) []Job {
	users := make([]string, len(jobs))
	records := make([]int, len(jobs))
	cls := make([]string, len(jobs))
	for i, j := range jobs {
		users[i], records[i] = j.Inst.User, j.Inst.Index
		name := j.u.method.Name()
		if c, ok := classes[name]; ok {
			cls[i] = "class " + c
		} else {
			cls[i] = "method " + name
		}
	}
	out := make([]Job, len(jobs))
	for k, i := range prefixcache.GroupOrder(users, records, cls, workers) {
		out[k] = jobs[i]
	}
	return out
}
