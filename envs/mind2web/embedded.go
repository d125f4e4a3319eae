package mind2web

import (
	"embed"
	"io/fs"
)

// embedded holds a small suite written for this project in the release
// format: fictional websites, 22 tasks, candidates ranked inline. Tasks
// 13-22 are variants of earlier ones on the same pages (another title,
// city, playlist, size or price), in train/test pairs so the interleaved
// split keeps a same-site example for a test task; two of them are
// shopping tasks worded like WebShop goals, the cross-environment
// look-alikes a memory without an environment filter retrieves for WebShop.
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
