package kinds

import (
	"maps"
	"slices"
)

// PaperRow places a kind in one of the papers' published tables: which
// table, and the row label the paper prints for the kind there. A kind's
// entry lists its rows, so a report that sets a run beside the paper learns
// which methods the paper shows, and under what name, from the entries it
// is handed, never from kind names of its own. The tables are named as
// reports/paper names them (its Table… constants).
type PaperRow struct {
	Table string
	Label string
}

// PaperRows are the paper rows of a registry's kinds, by kind name.
type PaperRows map[string][]PaperRow

// Label is the label of kind in table, if the kind has a row there.
func (p PaperRows) Label(kind, table string) (string, bool) {
	for _, r := range p[kind] {
		if r.Table == table {
			return r.Label, true
		}
	}
	return "", false
}

// KindOf is the kind whose row in table carries label, if any.
func (p PaperRows) KindOf(table, label string) (string, bool) {
	for _, k := range slices.Sorted(maps.Keys(p)) {
		for _, r := range p[k] {
			if r.Table == table && r.Label == label {
				return k, true
			}
		}
	}
	return "", false
}
