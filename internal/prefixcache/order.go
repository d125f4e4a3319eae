package prefixcache

import "slices"

// GroupOrder is the issue order that lets a server reuse shared prefixes:
// item i belongs to user users[i], record records[i] and prefix class
// classes[i] (the questions of one record share the record's history, by
// every method whose prompt starts the same way: one class). Items are
// grouped by (user, record, class), users and classes in order of first
// appearance, records ascending, the given order kept within a group; then
// LagOrder spaces each group's followers at least lag positions after its
// leader.
func GroupOrder(users []string, records []int, classes []string, lag int) []int {
	rank, crank := firstSeen(users), firstSeen(classes)
	idx := make([]int, len(users))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if d := rank[users[a]] - rank[users[b]]; d != 0 {
			return d
		}
		if d := records[a] - records[b]; d != 0 {
			return d
		}
		return crank[classes[a]] - crank[classes[b]]
	})
	groups := make([]int, len(idx))
	g := -1
	for k, i := range idx {
		if p := idx[max(0, k-1)]; k == 0 || users[i] != users[p] || records[i] != records[p] || classes[i] != classes[p] {
			g++
		}
		groups[k] = g
	}
	out := make([]int, len(idx))
	for k, j := range LagOrder(groups, lag) {
		out[k] = idx[j]
	}
	return out
}

// LagOrder reorders items listed group by group (groups[i] is item i's
// group; a group's items are contiguous) so that a group's first item, its
// leader, is issued at least lag positions before the rest: with lag
// requests in flight, the followers then start after the leader has put
// the shared prefix into the cache, instead of computing it alongside.
// Ready followers go first (oldest group first); when none is ready the
// next group's leader goes; when no leader is left the followers go anyway.
func LagOrder(groups []int, lag int) []int {
	n := len(groups)
	out := make([]int, 0, n)
	if lag <= 1 {
		for i := range n {
			out = append(out, i)
		}
		return out
	}
	type pending struct{ next, end, release int }
	var waiting []pending // groups whose leader is out, oldest first
	i := 0
	for len(out) < n {
		if len(waiting) > 0 && (waiting[0].release <= len(out) || i >= n) {
			w := &waiting[0]
			out = append(out, w.next)
			w.next++
			if w.next == w.end {
				waiting = waiting[1:]
			}
			continue
		}
		// The next group's leader; its followers wait lag positions.
		end := i + 1
		for end < n && groups[end] == groups[i] {
			end++
		}
		out = append(out, i)
		if end > i+1 {
			waiting = append(waiting, pending{next: i + 1, end: end, release: len(out) - 1 + lag})
		}
		i = end
	}
	return out
}

func firstSeen(xs []string) map[string]int {
	rank := map[string]int{}
	for _, x := range xs {
		if _, ok := rank[x]; !ok {
			rank[x] = len(rank)
		}
	}
	return rank
}
