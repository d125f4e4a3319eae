package pramem

import (
	"github.com/memharness/memharness/kinds"
	"github.com/memharness/memharness/methods/registry"
)

// builtinPaperRows are the built-in prediction kinds' paper rows, as a run
// hands them to the report (family.Kinds.PaperRows).
func builtinPaperRows() kinds.PaperRows {
	rows := kinds.PaperRows{}
	for _, e := range registry.Default().Entries() {
		if len(e.Paper) > 0 {
			rows[e.Kind] = e.Paper
		}
	}
	return rows
}

// BuiltinPaperRows lends builtinPaperRows to the package's external tests.
var BuiltinPaperRows = builtinPaperRows
