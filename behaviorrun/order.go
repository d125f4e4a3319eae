package behaviorrun

import (
	"slices"

	"github.com/memharness/memharness/internal/prefixcache"
)

// The send order lets a server's prefix cache reuse every shared prefix.
// Every memory a pending sample needs is built first (buildOrder), so no
// construction pushes a user's shared history out of the cache between
// that user's questions; then the questions go (IssueOrder). Only the send
// order changes: samples are stored under their IDs and compacted into
// plan order, and every sample's randomness comes from its ID, so results
// and files are the same in any order.

// IssueOrder is the order the worker pool sends questions in, given each
// question's user, test record and method: the questions of one test
// record share its history, by every method of one prefix class (classes
// maps a method to its class: methods whose prompts extend one another; a
// method not in it is its own class), so they go together, the first one
// at least `workers` jobs ahead of the others so a server's prefix cache
// holds the shared prompt when they start. The others are also held back
// until the first one is answered: after[i] is the question that question
// i waits for (-1: none), so a follower never computes the shared prompt
// alongside its leader, whatever the concurrency and the cache size. The
// leaders themselves wait for the very first question: every prompt
// starts with the same instructions, which one call then puts in the
// cache for all (one call's time, once per run).
func IssueOrder(users []string, records []int, methods []string, workers int, classes map[string]string) (order, after []int) {
	cls := make([]string, len(methods))
	for i, m := range methods {
		if c, ok := classes[m]; ok {
			cls[i] = "class " + c
		} else {
			cls[i] = "method " + m
		}
	}
	order = prefixcache.GroupOrder(users, records, cls, workers)
	type group struct {
		user, class string
		record      int
	}
	leaders := map[group]int{}
	after = make([]int, len(order))
	for _, i := range order {
		g := group{users[i], cls[i], records[i]}
		l, ok := leaders[g]
		if !ok {
			leaders[g], l = i, order[0]
			if i == order[0] {
				l = -1
			}
		}
		after[i] = l
	}
	return order, after
}

// BuildOrder is the order the memories of (method, user) pairs are built
// in, before any question: user by user (in order of first appearance),
// each user's methods in the given order, so the methods' constructions
// over one user's history run close together.
func BuildOrder(users, methods []string) []int {
	rank := map[string]int{}
	for _, u := range users {
		if _, ok := rank[u]; !ok {
			rank[u] = len(rank)
		}
	}
	idx := make([]int, len(users))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return rank[users[a]] - rank[users[b]] })
	return idx
}

// issueOrder is IssueOrder over the plan's jobs: a leader's job gets the
// channel it closes once answered, each follower that channel to wait on.
// With batched (the question calls go through provider batches), followers
// do not wait: a leader's answer comes with its wave, and followers held
// until then would make a second wave of what one could carry.
func issueOrder(jobs []Job, workers int, classes map[string]string, batched bool) []Job {
	users := make([]string, len(jobs))
	records := make([]int, len(jobs))
	methods := make([]string, len(jobs))
	for i, j := range jobs {
		users[i], records[i], methods[i] = j.Inst.User, j.Inst.Index, j.u.method.Name()
	}
	order, after := IssueOrder(users, records, methods, workers, classes)
	answered := make([]chan struct{}, len(jobs))
	for _, l := range after {
		if l >= 0 && answered[l] == nil && !batched {
			answered[l] = make(chan struct{})
		}
	}
	out := make([]Job, len(jobs))
	for k, i := range order {
		out[k] = jobs[i]
		out[k].answered = answered[i]
		if l := after[i]; l >= 0 && !batched {
			out[k].wait = answered[l]
		}
	}
	return out
}

// buildJobs are the construction jobs of the units the pending jobs need,
// in BuildOrder; they go out before every question.
func buildJobs(jobs []Job) []Job {
	var units []*unit
	seen := map[*unit]bool{}
	for _, j := range jobs {
		if !seen[j.u] {
			seen[j.u] = true
			units = append(units, j.u)
		}
	}
	users := make([]string, len(units))
	methods := make([]string, len(units))
	for i, u := range units {
		users[i], methods[i] = u.user.User, u.method.Name()
	}
	out := make([]Job, 0, len(units))
	for _, i := range BuildOrder(users, methods) {
		out = append(out, Job{u: units[i]})
	}
	return out
}
