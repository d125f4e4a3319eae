package all

import (
	"maps"
	"testing"
)

// TestFileTags pins the tags of LifeMem's release files the built-in
// entries declare: datasets/trajectories reads a file's environment
// through them.
func TestFileTags(t *testing.T) {
	want := map[string]string{
		"lifelong": "dbbench", "lifelongagentbench": "dbbench", "lab": "dbbench", "db": "dbbench",
		"taubench": "taubench-retail", "tau": "taubench-retail", "tau-retail": "taubench-retail", "retail": "taubench-retail",
		"airline": "taubench-airline", "tau-airline": "taubench-airline",
		"sciworld": "scienceworld", "science": "scienceworld",
	}
	if got := Default().FileTags(); !maps.Equal(got, want) {
		t.Errorf("FileTags() = %v, want %v", got, want)
	}
}
