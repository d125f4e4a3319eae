package lifemem

import (
	"strings"
	"testing"

	"github.com/memharness/memharness/metrics"
)

// TestLMFlatNotes: on the sim backbone a setting that scores exactly as the
// default one gets a note saying whether its memory differed; other
// backbones and settings that moved get none.
func TestLMFlatNotes(t *testing.T) {
	setting := func(name string, l, k int, score float64, clusters int, sim bool) lmSetting {
		return lmSetting{sim: sim, m: &lmMethod{
			Spec:   lmMethodSpec{Name: name, Kind: "lifemem", SplitSize: l, TopK: k},
			Matrix: metrics.ScoreMatrix{Envs: []string{"alfworld"}, S: [][]float64{{score}}},
			Stats:  &lmStats{Clusters: clusters, Sizes: []int{12 / clusters}},
		}}
	}
	for _, c := range []struct {
		name     string
		settings []lmSetting
		want     []string // one substring per expected note
	}{
		{name: "split knob changed the memory only", settings: []lmSetting{
			setting("lifemem", 50, 2, 91.67, 1, true), setting("lifemem_L10", 10, 2, 91.67, 6, true)},
			want: []string{"lifemem_L10: OP equal to lifemem's on the sim backbone, with a different memory (6 clusters against 1"}},
		{name: "top-k leaves the memory alone", settings: []lmSetting{
			setting("lifemem", 50, 2, 91.67, 1, true), setting("lifemem_k8", 50, 8, 91.67, 1, true)},
			want: []string{"lifemem_k8: OP equal to lifemem's on the sim backbone, with the same clusters (1): top-k changes only what the prompt shows"}},
		{name: "a setting that moved needs no note", settings: []lmSetting{
			setting("lifemem", 50, 2, 91.67, 1, true), setting("lifemem_k8", 50, 8, 83.33, 1, true)}},
		{name: "not the sim backbone", settings: []lmSetting{
			setting("lifemem", 50, 2, 91.67, 1, false), setting("lifemem_L10", 10, 2, 91.67, 6, false)}},
		{name: "a grid centred on its own lifemem row", settings: []lmSetting{
			setting("lifemem_L4", 4, 2, 80, 15, true), setting("lifemem", 12, 2, 80, 6, true), setting("lifemem_L16", 16, 2, 86.67, 1, true)},
			want: []string{"lifemem_L4: OP equal to lifemem's on the sim backbone, with a different memory (15 clusters against 6"}},
		{name: "no default setting to compare with", settings: []lmSetting{
			setting("lifemem_L10", 10, 2, 91.67, 6, true), setting("lifemem_L30", 30, 2, 91.67, 1, true)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := lmFlatNotes(c.settings)
			if len(got) != len(c.want) {
				t.Fatalf("notes %q, want %d", got, len(c.want))
			}
			for i, w := range c.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("note %q, want it to contain %q", got[i], w)
				}
			}
		})
	}
}

func TestLMStreamTieNote(t *testing.T) {
	same := &lmStats{Clusters: 11, Sizes: []int{16, 12}}
	split := &lmStats{Clusters: 12, Sizes: []int{16, 6, 6}}
	for _, c := range []struct {
		name           string
		random, buffer *lmStats
		opR, opB       float64
		want           string
	}{
		{"tie, same clusters", same, same, 40.86, 40.86, "lifemem: buffer OP equal to random's on the sim backbone, with the same clusters (11)."},
		{"tie, other clusters", same, split, 40.86, 40.86, "with a different memory (12 clusters against 11"},
		{"the buffer moved the score", same, split, 40.86, 42.10, ""},
		{"not sim or not LifeMem", nil, same, 40.86, 40.86, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := lmStreamTieNote("lifemem", c.random, c.buffer, c.opR, c.opB)
			if c.want == "" && got != "" || !strings.Contains(got, c.want) {
				t.Errorf("note %q, want %q", got, c.want)
			}
		})
	}
}
