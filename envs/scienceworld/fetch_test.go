package scienceworld

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/datasets/fetch"
	"github.com/memharness/memharness/internal/testfixture"
)

func TestFetchSpec(t *testing.T) {
	specs := FetchSpec()
	var gold bool
	for _, s := range specs {
		if !strings.HasPrefix(s.URL, "https://raw.githubusercontent.com/allenai/ScienceWorld/") || s.Name != Name || s.Size <= 0 || len(s.SHA256) != 64 {
			t.Errorf("spec %+v is incomplete", s)
		}
		if ok, _ := filepath.Match(GoldPattern, s.FileName); ok {
			gold = true
		}
	}
	if !gold {
		t.Error("FetchSpec fetches no gold-sequence file Open would read")
	}
	testfixture.Need(t, "envs/scienceworld")
	for _, s := range specs {
		if err := fetch.Verify(filepath.Join(fixtureDir, s.FileName), s); err != nil {
			t.Error(err)
		}
	}
}
