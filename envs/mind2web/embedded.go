package mind2web

import (
	"embed"
	"io/fs"
)

// embedded holds a small suite written for this project in the release
// format: fictional websites, 12 tasks, candidates ranked inline.
//
//go:embed embedded/test_task/*.json
var embedded embed.FS

// Embedded returns the built-in suite, so agents can run with no download.
func Embedded() (*Suite, error) {
	return EmbeddedWith(Config{})
}

// EmbeddedWith is Embedded with a Config (Split is ignored).
func EmbeddedWith(cfg Config) (*Suite, error) {
	sub, err := fs.Sub(embedded, "embedded")
	if err != nil {
		return nil, err
	}
	cfg.Split = "test_task"
	return openFS(sub, "embedded", cfg)
}
