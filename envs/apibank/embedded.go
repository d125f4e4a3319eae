package apibank

import (
	"embed"
	"fmt"
	"io/fs"
)

// embeddedData is a small suite written for this project in the official
// layout: our own API descriptions (same names, parameters and types), our
// own service databases and 14 dialogues at levels 1, 2 and 3. The last,
// Wiki-level-3-2, repeats Wiki-level-3-1's request for another topic and
// sorts right after it, so the interleaved train/test split gives one test
// dialogue a same-tool example.
//
//go:embed embedded
var embeddedData embed.FS

// Embedded returns the built-in suite, which needs no download.
func Embedded() (*Suite, error) {
	sub, err := fs.Sub(embeddedData, "embedded")
	if err != nil {
		return nil, fmt.Errorf("apibank: embedded suite: %w", err)
	}
	d, err := load(sub)
	if err != nil {
		return nil, fmt.Errorf("apibank: embedded suite: %w", err)
	}
	return newSuite(d), nil
}
