package mind2web

import (
	"context"
	"encoding/json"
	"io/fs"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
)

// TestEmbeddedLayoutAsRelease: the embedded records separate adjacent tags
// with white space, as the release's cleaned_html does. Synapse parses the
// page with lxml, where an element whose children the pruning removed
// keeps that white space as its text and prints as <nav …> </nav>; on
// records without it lxml prints <nav …/>, so the observations (and every
// request under Synapse's prompt) would differ from what the source builds
// on the same page laid out as real pages are.
func TestEmbeddedLayoutAsRelease(t *testing.T) {
	b, err := fs.ReadFile(embedded, "embedded/test_task/test_task_0.json")
	if err != nil {
		t.Fatal(err)
	}
	var recs []Record
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		for i, a := range r.Actions {
			if j := strings.Index(a.CleanedHTML, "><"); j >= 0 {
				t.Fatalf("%s action %d: cleaned_html has adjacent tags without white space at byte %d: %q", r.AnnotationID, i, j, a.CleanedHTML[max(0, j-40):min(len(a.CleanedHTML), j+40)])
			}
		}
	}
	s, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	seen := false
	for _, task := range s.Tasks() {
		ep, err := s.NewEpisode(context.Background(), task, envs.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		obs := ep.Observation()
		if strings.Contains(obs, "<nav main menu />") {
			t.Errorf("%s: a pruned element prints as an empty one (%q), not as lxml prints the release's pages", task.ID, "<nav main menu />")
		}
		seen = seen || strings.Contains(obs, "<nav main menu> </nav>")
		ep.Close()
	}
	if !seen {
		t.Error("no observation shows a pruned element as the release's pages print it (<nav main menu> </nav>)")
	}
}
