package webshop

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/datasets/fetch"
)

func TestFetchSpec(t *testing.T) {
	// Fixture copies of the pinned files, by the name Open reads.
	fixtureName := map[string]string{
		AttributesFile: AttributesFile,
		ExpeLGoalsFile: ExpeLFixtureFile,
		HumanGoalsFile: HumanGoalsFile,
	}
	specs := FetchSpec()
	seen := map[string]bool{}
	for _, s := range specs {
		if s.Name != Name || !strings.HasPrefix(s.URL, "https://") || s.FileName == "" {
			t.Errorf("bad spec %+v", s)
		}
		seen[s.FileName] = true
		if !s.Pinned() {
			t.Errorf("%s has no pin: fetch would refuse it", s.FileName)
		}
		if s.SHA256 == "" {
			continue // pinned by its git blob id only (no fixture copy)
		}
		f, ok := fixtureName[s.FileName]
		if !ok {
			t.Errorf("%s is pinned but has no fixture to check against", s.FileName)
			continue
		}
		if err := fetch.Verify(filepath.Join(needFixtures(t), f), s); err != nil {
			t.Errorf("%s: %v", s.FileName, err)
		}
	}
	for _, want := range []string{CatalogueFile, AttributesFile, ExpeLGoalsFile, HumanGoalsFile} {
		if !seen[want] {
			t.Errorf("FetchSpec lacks %s", want)
		}
	}
}
