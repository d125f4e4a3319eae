package taubench

import (
	"embed"
	"fmt"
	"io/fs"
)

// embeddedData is a small task suite per domain written by us in the
// official layout (database JSON, wiki.md, tasks_test.jsonl), so agents can
// run without downloading τ-bench. The tool list comes from our own schema
// rendering since the folders hold no tools_schema.json.
//
//go:embed embedded
var embeddedData embed.FS

// EmbeddedRetail returns our 14-task retail suite. Tasks 12 and 13 ask
// task 6's question (what an order cost) for two other customers, in
// train/test order, so the interleaved split leaves a test task with a
// same-kind example.
func EmbeddedRetail() (*Suite, error) { return embedded(Retail) }

// EmbeddedAirline returns our 10-task airline suite.
func EmbeddedAirline() (*Suite, error) { return embedded(Airline) }

// Embedded returns the embedded suite of a domain.
func Embedded(d Domain) (*Suite, error) { return embedded(d) }

func embedded(d Domain) (*Suite, error) {
	if d != Retail && d != Airline {
		return nil, fmt.Errorf("taubench: unknown domain %q", d)
	}
	sub, err := fs.Sub(embeddedData, "embedded/"+string(d))
	if err != nil {
		return nil, fmt.Errorf("taubench: embedded %s: %w", d, err)
	}
	data, err := loadFS(sub, "embedded/"+string(d), d)
	if err != nil {
		return nil, err
	}
	return newSuite(data), nil
}
