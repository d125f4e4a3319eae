package webshop

import (
	"embed"
	"fmt"
	"io/fs"
)

// embeddedFS holds a small catalogue (36 products, in the reference's
// items_shuffle and items_ins_v2 formats) and 14 goals in the reference's
// goal format, all written by us.
//
//go:embed embedded/items_shuffle.json embedded/items_ins_v2.json embedded/goals.json
var embeddedFS embed.FS

// Embedded returns the suite compiled into the binary, so agents can run
// with no download.
func Embedded() (*Suite, error) {
	sub, err := fs.Sub(embeddedFS, "embedded")
	if err != nil {
		return nil, fmt.Errorf("webshop: embedded: %w", err)
	}
	s, err := openFS(sub, "embedded")
	if err != nil {
		return nil, fmt.Errorf("webshop: embedded: %w", err)
	}
	return s, nil
}
