package runinfo

import "github.com/memharness/memharness/runrecord"

// IntervalSettings are the report settings a run's intervals were drawn
// with, read from its manifest's resolved config (report.level,
// report.bootstrap) and its seed: what a comparison across runs (a sweep)
// needs to draw the same intervals again or to say what they are. ok is
// false when the manifest does not record them.
func IntervalSettings(m runrecord.Manifest) (level float64, iters int, seed int64, ok bool) {
	cfg, _ := m.Config.(map[string]any)
	rep, _ := cfg["report"].(map[string]any)
	l, ok1 := rep["level"].(float64)
	n, ok2 := rep["bootstrap"].(float64)
	if !ok1 || !ok2 || l <= 0 || n <= 0 {
		return 0, 0, 0, false
	}
	return l, int(n), m.Seed, true
}
