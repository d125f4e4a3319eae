package lifemem

import (
	"strings"
	"testing"

	"github.com/memharness/memharness/runrecord"
)

func TestLMStatsLenient(t *testing.T) {
	tests := []struct {
		name     string
		raw      map[string]any
		clusters int
		sizes    int
	}{
		{"count only", map[string]any{"clusters": 7.0}, 7, 0},
		{"sizes list", map[string]any{"sizes": []any{3.0, 4.0}}, 2, 2},
		{"sizes map", map[string]any{"clusters": 2.0, "sizes": map[string]any{"a": 3.0, "b": "4"}}, 2, 2},
		{"cluster map of member strings", map[string]any{"clusters": map[string]any{"a": "t1,t2", "b": ""}}, 2, 2},
		{"garbage", map[string]any{"clusters": true, "sizes": "many"}, 0, 0},
	}
	for _, tc := range tests {
		s := parseLMStats(tc.raw)
		if s.Clusters != tc.clusters || len(s.Sizes) != tc.sizes {
			t.Errorf("%s: %d clusters, sizes %v", tc.name, s.Clusters, s.Sizes)
		}
	}
	// The mean size of the clusters holding an environment's trajectories
	// cannot be derived from its trajectory and cluster counts (issue 37:
	// apibank's 7 trajectories in one cluster of 32 were reported as 7):
	// without mean_size_per_env there is no value, with it that value.
	s := parseLMStats(map[string]any{
		"clusters": 3.0, "sizes": []any{32.0, 20.0, 8.0},
		"clusters_per_env":     map[string]any{"apibank": 1.0, "toolqa": 1.0},
		"trajectories_per_env": map[string]any{"apibank": 7.0, "toolqa": 8.0, "alfworld": 4.0},
	})
	if len(s.MeanSizePerEnv) != 0 {
		t.Errorf("mean size per env from counts alone = %v, want none", s.MeanSizePerEnv)
	}
	s = parseLMStats(map[string]any{
		"clusters": 3.0, "sizes": []any{32.0, 20.0, 8.0},
		"clusters_per_env":     map[string]any{"apibank": 1.0, "toolqa": 1.0},
		"trajectories_per_env": map[string]any{"apibank": 7.0, "toolqa": 8.0},
		"mean_size_per_env":    map[string]any{"apibank": 32.0, "toolqa": 8.0},
	})
	if s.MeanSizePerEnv["apibank"] != 32 || s.MeanSizePerEnv["toolqa"] != 8 || len(s.MeanSizePerEnv) != 2 {
		t.Errorf("mean size per env = %v", s.MeanSizePerEnv)
	}
}

// The round trip: the lifelong protocol writes a run that this report reads.

// TestLifeMemTitleNamesPromptsAndEmbedder: every LifeMem artefact's title
// says whose prompts ran and flags a real backbone retrieving with the hash
// embedder.
func TestLifeMemTitleNamesPromptsAndEmbedder(t *testing.T) {
	r := &lmRun{info: lmInfo{Backbone: "openai", Model: "gpt-4o-mini"},
		manifest: runrecord.Manifest{Prompts: "release", PromptsPack: "github.com/x/y@abc", EmbedderWarning: "hash"}}
	title := r.title()
	for _, want := range []string{"prompts: authors' release github.com/x/y@abc", "⚠ hash embedder on a real backbone"} {
		if !strings.Contains(title, want) {
			t.Errorf("title %q lacks %q", title, want)
		}
	}
	r.manifest = runrecord.Manifest{}
	if title := r.title(); strings.Contains(title, "embedder") || !strings.Contains(title, "prompts: own wording") {
		t.Errorf("plain run's title %q", title)
	}
}
