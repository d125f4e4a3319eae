package conversation

import (
	"fmt"
	"slices"

	"github.com/memharness/memharness/backbone"
	"github.com/memharness/memharness/behaviorrun"
	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/releasepacks/memqarel"
)

// The send order lets a server's prefix cache reuse every shared prefix,
// as the prediction runner's does (behaviorrun.IssueOrder, whose grouping
// and holds this order is): every memory the pending questions need is
// built first, conversation by conversation (behaviorrun.BuildOrder), so
// no construction pushes a conversation out of the cache between its
// questions; then the questions of one conversation go together, grouped
// by prefix class (methods whose answer prompts extend one another: the
// long conversation is the shared prefix), each group's first question
// ahead and the others held until it is answered. Only the send order
// changes: samples are stored under their IDs and compacted into plan
// order, and every sample's randomness comes from its ID, so results and
// files are those of any other order.

// sendJob is one pending answer in plan order: method, conversation,
// question and draw.
type sendJob struct {
	method, conv, question, draw int
}

// sendOrder is the order the jobs (in plan order) are sent in and, for
// each, the job it waits for until answered (-1: none). Jobs of a serial
// method go last, in plan order, each after the one before (their state
// lives outside the harness). With holds false (the answers go through
// provider batches, where a held follower would wait for its leader's
// batch) nothing else waits.
func sendOrder(jobs []sendJob, convIDs, names []string, serialMethod []bool, workers int, classes map[string]string, holds bool) (order, after []int) {
	var free, tail []int
	for i, j := range jobs {
		if serialMethod[j.method] {
			tail = append(tail, i)
		} else {
			free = append(free, i)
		}
	}
	users := make([]string, len(free))
	records := make([]int, len(free)) // every question of a conversation shares all of it
	methods := make([]string, len(free))
	for k, i := range free {
		users[k], methods[k] = convIDs[jobs[i].conv], names[jobs[i].method]
	}
	o, a := behaviorrun.IssueOrder(users, records, methods, workers, classes)
	after = make([]int, len(jobs))
	// A conversation's groups share its heading: the leaders of its later
	// groups wait for its first question, not only for the run's first.
	firstOf := map[int]int{}
	for _, k := range o {
		i := free[k]
		order = append(order, i)
		after[i] = -1
		f, seen := firstOf[jobs[i].conv]
		if !seen {
			firstOf[jobs[i].conv] = i
		}
		if !holds || a[k] < 0 {
			continue
		}
		after[i] = free[a[k]]
		if seen && a[k] == o[0] {
			after[i] = f
		}
	}
	for n, i := range tail {
		order = append(order, i)
		after[i] = -1
		if n > 0 {
			after[i] = tail[n-1]
		}
	}
	return order, after
}

// holdsFollowers says whether questions are held behind their group's
// first: not when the answers go through provider batches
// (backbone.batch), where the leader's answer comes with its wave.
func holdsFollowers(cfg *config.Config) bool {
	return !slices.Contains(backbone.BatchPurposesOf(cfg), PurposeAnswer)
}

// prefixClasses groups the methods whose answer prompts are the same up to
// the question, by the turns they show and the wording: full context
// (every turn) and a window of the latest turns within one budget, under
// one template. Every other method (retrieval, memories, external ones)
// is a class of its own: its questions share their conversation's
// heading and, for a memory shown whole, the memory.
func prefixClasses(cfg *config.Config) map[string]string {
	out := map[string]string{}
	wording := "own"
	release := cfg.PromptsLabel() == config.PromptsRelease
	for _, s := range cfg.Methods {
		if release {
			wording = answerTemplate(s.Kind)
		}
		name := methodName(s.Name, s.Kind)
		switch {
		case s.Kind == predict.KindLongContext && s.HistoryTokens == 0:
			out[name] = wording + ": every turn"
		case s.Kind == predict.KindLongContext:
			out[name] = fmt.Sprintf("%s: latest turns within %d", wording, s.HistoryTokens)
		case s.Kind == predict.KindTruncation:
			b := s.HistoryTokens
			if b == 0 {
				b = DefaultTruncationTokens
			}
			out[name] = fmt.Sprintf("%s: latest turns within %d", wording, b)
		}
	}
	return out
}

// judgesHeld says whether a held question waits for its leader's judges
// as well as its answer: not when a judge's calls go through provider
// batches (a follower would wait for the leader's judge batch).
func judgesHeld(cfg *config.Config, judges []judge) bool {
	batched := backbone.BatchPurposesOf(cfg)
	for _, p := range batched {
		for _, j := range judges {
			if p == j.purpose(memqarel.PurposeLoCoMoJudge) || p == j.purpose(memqarel.PurposeLongMemEvalJudge) {
				return false
			}
		}
	}
	return true
}

// buildWaits are, for the units built in buildOrder (indices into
// methods, one per unit), the unit each waits for before it starts (-1:
// none): a method's constructions share their instructions, so its first
// goes ahead and the others follow once it is built; different methods'
// constructions go side by side.
func buildWaits(methods []string, buildOrder []int) []int {
	out := make([]int, len(methods))
	first := map[string]int{}
	for _, u := range buildOrder {
		out[u] = -1
		if f, ok := first[methods[u]]; ok {
			out[u] = f
		} else {
			first[methods[u]] = u
		}
	}
	return out
}
