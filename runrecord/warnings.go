package runrecord

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// WarningsFile holds a run's warnings beside its manifest.
const WarningsFile = "warnings.json"

// Warnings are what did not go as configured in a run, recomputed from the
// stored work whenever a process finishes it (not only what the last
// process saw), and kept in the run folder so every report rebuild shows
// them: data problems, left-out environments, empty memories, answers that
// stayed invalid and token counts the endpoint got wrong.
type Warnings struct {
	DataWarnings  []string            `json:"data_warnings,omitempty"`
	LeftOut       []LeftOut           `json:"left_out,omitempty"`
	EmptyMemories map[string][]string `json:"empty_memories,omitempty"`
	// Invalid is the invalid-answer summary by call purpose ("predict
	// 3/40 (7.5%)"); empty when no answer was invalid.
	Invalid string `json:"invalid_answers,omitempty"`
	// Usage are accounting warnings (token counts replaced by our own).
	Usage []string `json:"usage,omitempty"`
	// Journal is what the checks of the usage journal found (see
	// Manifest.JournalFindings).
	Journal []string `json:"journal,omitempty"`
	// JournalLosses is the usage the journal lost (see
	// Manifest.JournalLosses).
	JournalLosses []string `json:"journal_losses,omitempty"`
}

// Empty reports whether there is nothing to warn about.
func (w Warnings) Empty() bool {
	return len(w.DataWarnings) == 0 && len(w.LeftOut) == 0 && len(w.EmptyMemories) == 0 && w.Invalid == "" && len(w.Usage) == 0 && len(w.Journal) == 0 && len(w.JournalLosses) == 0
}

// ReadWarnings reads dir's warnings.json; a missing file is no warnings.
func ReadWarnings(dir string) (Warnings, bool, error) {
	var w Warnings
	path := filepath.Join(dir, WarningsFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return w, false, nil
	}
	if err != nil {
		return w, false, err
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return w, false, fmt.Errorf("%s: %w", path, err)
	}
	return w, true, nil
}

// apply adds the stored warnings to m, so readers of the manifest see them
// even when the manifest was rewritten by a process that did not see them
// happen.
func (w Warnings) apply(m *Manifest) {
	for _, d := range w.DataWarnings {
		if !slices.Contains(m.DataWarnings, d) {
			m.DataWarnings = append(m.DataWarnings, d)
		}
	}
	for _, lo := range w.LeftOut {
		if !slices.Contains(m.LeftOut, lo) {
			m.LeftOut = append(m.LeftOut, lo)
		}
	}
	for _, j := range w.Journal {
		if !slices.Contains(m.JournalFindings, j) {
			m.JournalFindings = append(m.JournalFindings, j)
		}
	}
	for _, j := range w.JournalLosses {
		if !slices.Contains(m.JournalLosses, j) {
			m.JournalLosses = append(m.JournalLosses, j)
		}
	}
	for meth, users := range w.EmptyMemories {
		if m.EmptyMemories == nil {
			m.EmptyMemories = map[string][]string{}
		}
		for _, u := range users {
			if !slices.Contains(m.EmptyMemories[meth], u) {
				m.EmptyMemories[meth] = append(m.EmptyMemories[meth], u)
			}
		}
		slices.Sort(m.EmptyMemories[meth])
	}
}
