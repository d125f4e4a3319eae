package pramem

import (
	"github.com/memharness/memharness/kinds"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/reports/scored"
)

// summary is the scored run the study's writers share, with the method
// kinds' paper rows (from their entries) and the roles read from them.
type summary struct {
	*scored.Summary
	paper kinds.PaperRows
	roles kindRoles
}

// Write writes into the report folder dir (a run's <run>/report) Table 1
// when the run has OmniBehavior binary fields, then the studies beyond it
// (Table 2, Figures 4–6, Table 3), each only when the run holds the methods
// it compares. rows are the method kinds' paper rows (their entries'
// Paper): which kinds the paper's tables show, and as what.
func Write(dir string, sc *scored.Summary, rows kinds.PaperRows) ([]render.Artefact, error) {
	s := &summary{Summary: sc, paper: rows, roles: rolesOf(rows)}
	// Table 1 is built once, for its own files and the studies' intervals.
	t1 := &table1Once{s: s}
	arts, err := s.writeTable1(dir, t1)
	if err != nil {
		return nil, err
	}
	more, err := s.writePraMem(dir, t1)
	if err != nil {
		return nil, err
	}
	return append(arts, more...), nil
}

// IndexNote is index.md's pointer to the study's tables and figures among
// a report's artefacts (empty when it wrote none), with the caveat a sim
// backbone needs.
func IndexNote(arts []render.Artefact, backbone string) string {
	var note string
	for _, a := range arts {
		if a.Path == "table1_vs_paper.md" {
			note = table1IndexNote(backbone)
			break
		}
	}
	return note + pramemIndexNote(arts, backbone)
}
