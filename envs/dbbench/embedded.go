package dbbench

import (
	_ "embed"
	"fmt"
)

// embeddedData is a small suite written for this project in the official
// entry_dict.json format: five tables of our own, seven SELECT tasks and
// five INSERT/UPDATE/DELETE tasks (emb-00..emb-11; direct answers and
// fingerprints computed on MariaDB and cross-checked by hand), then three
// train/test pairs of one query shape each (emb-12..emb-17: a filter on
// one value, named in the question as it is stored), so that the
// interleaved train/test split leaves a transferable example for a test
// task; their answers were computed with SQLite and checked by the oracle.
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
