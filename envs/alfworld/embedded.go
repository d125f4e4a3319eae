package alfworld

import (
	"embed"
	"fmt"
	"io/fs"
)

// embeddedData is a suite written for this project in the official layout
// (json_2.1.1/embedded/<task type>-.../<trial>/game.tw-pddl): twelve small
// rooms, two per task type, with our own PDDL domain and TextWorld grammar
// (same predicates, commands and feedback sentences as ALFWorld's), and a
// copy of each room with another object (913-924), named so that each task
// type sorts as train, test, train, test and every test room has a train
// room of the same layout and type (an experience that transfers).
//
//go:embed embedded
var embeddedData embed.FS

// Embedded returns the built-in suite, which needs no download.
func Embedded() (*Suite, error) {
	sub, err := fs.Sub(embeddedData, "embedded")
	if err != nil {
		return nil, fmt.Errorf("alfworld: embedded suite: %w", err)
	}
	s, err := openFS(sub, "embedded")
	if err != nil {
		return nil, fmt.Errorf("alfworld: embedded suite: %w", err)
	}
	return s, nil
}
