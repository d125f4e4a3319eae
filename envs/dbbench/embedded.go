package dbbench

import (
	_ "embed"
	"fmt"
)

// embeddedData is a small suite written for this project in the official
// entry_dict.json format: five tables of our own, seven SELECT tasks and
// five INSERT/UPDATE/DELETE tasks. Direct answers and fingerprints were
// computed on MariaDB and cross-checked by hand.
//
//go:embed embedded/entry_dict.json
var embeddedData []byte

// Embedded returns the embedded suite (no download needed), on the
// in-process engine; see With for a real server.
func Embedded() (*Suite, error) {
	entries, err := parseEntries("embedded/entry_dict.json", embeddedData)
	if err != nil {
		return nil, fmt.Errorf("dbbench: embedded suite: %w", err)
	}
	return newSuite(entries, Config{})
}
