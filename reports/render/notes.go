package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
)

// A table's notes are condensed before they are set (Table.LaTeX does it
// itself): repeats go, and notes that differ only in whom they are about
// become one.

// condenseNotes drops repeated notes and merges notes that differ only in
// who they are about ("react: X", "synapse: X" → "X (react, synapse).").
func CondenseNotes(notes []string) []string {
	notes = condenseSkips(notes)
	var out []string
	index := map[string]int{}
	whos := map[string][]string{}
	for _, n := range notes {
		key, who := n, ""
		if w, rest, found := strings.Cut(n, ": "); found && !strings.Contains(w, ". ") && len(w) <= 40 {
			key, who = rest, w
			// "Warning (react): X" is about react: "Warning: X (react, …)".
			if m, ok := strings.CutPrefix(w, "Warning ("); ok && strings.HasSuffix(m, ")") {
				key, who = "Warning: "+rest, strings.TrimSuffix(m, ")")
			}
		}
		if _, ok := index[key]; !ok {
			index[key] = len(out)
			out = append(out, n)
		}
		if who != "" {
			whos[key] = append(whos[key], who)
		}
	}
	for key, ws := range whos {
		if len(ws) > 1 {
			out[index[key]] = strings.TrimSuffix(key, ".") + " (" + strings.Join(ws, ", ") + ")."
		}
	}
	return out
}

// skipNote is a metric's note about one item it left out, as the metrics
// package words it: "react: BwT: alfworld skipped: score 0 right after
// learning it (relative change undefined)".
var skipNote = lazyre.New(`^([^ :]+): ([^:]+): (\S+) skipped: (.+?)\.?$`)

// condenseSkips turns one skip note per method and item into one line per
// metric and reason, naming each item once with how many methods skipped
// it ("taubench-retail (5 methods), alfworld (react)").
func condenseSkips(notes []string) []string {
	type kind struct{ metric, reason string }
	var out []string
	var kinds []kind
	items := map[kind][]string{}
	who := map[kind]map[string][]string{}
	at := map[kind]int{}
	for _, n := range notes {
		m := skipNote.FindStringSubmatch(n)
		if m == nil {
			out = append(out, n)
			continue
		}
		k := kind{m[2], m[4]}
		if who[k] == nil {
			who[k] = map[string][]string{}
			kinds = append(kinds, k)
			at[k] = len(out)
			out = append(out, "")
		}
		if who[k][m[3]] == nil {
			items[k] = append(items[k], m[3])
		}
		who[k][m[3]] = append(who[k][m[3]], m[1])
	}
	for _, k := range kinds {
		list := items[k]
		slices.SortStableFunc(list, func(a, b string) int { return len(who[k][b]) - len(who[k][a]) })
		var parts []string
		cells := 0
		for _, it := range list {
			ws := who[k][it]
			cells += len(ws)
			if len(ws) == 1 {
				parts = append(parts, it+" ("+ws[0]+")")
			} else {
				parts = append(parts, fmt.Sprintf("%s (%d methods)", it, len(ws)))
			}
		}
		noun := "cells"
		if cells == 1 {
			noun = "cell"
		}
		out[at[k]] = fmt.Sprintf("%s leaves out %d %s, %s: %s.", k.metric, cells, noun, k.reason, strings.Join(parts, ", "))
	}
	return out
}
