package toolqa

import (
	"embed"
	"fmt"
	"io/fs"
)

// embeddedFiles is our own small suite in ToolQA's native format: a made-up
// price table (45 trading days of 2023, not market data) and one or two
// questions per template (22), then five train/test pairs of one template
// each (a train question first, so the interleaved split keeps a
// same-template example for a test question; 32 in all), with answers computed by an
// implementation independent of this package. The price-range question uses
// the true High-Low range.
//
//go:embed embedded/coffee_price.csv embedded/coffee-embedded.jsonl
var embeddedFiles embed.FS

// EmbeddedFile is the embedded question file's name.
const EmbeddedFile = "coffee-embedded.jsonl"

// Embedded returns the suite compiled into the binary, for runs without a
// download.
func Embedded() (*Suite, error) {
	sub, err := fs.Sub(embeddedFiles, "embedded")
	if err != nil {
		return nil, fmt.Errorf("toolqa: embedded: %w", err)
	}
	return openFS(sub, "embedded", []struct{ name, source string }{{EmbeddedFile, SourceEmbedded}})
}
