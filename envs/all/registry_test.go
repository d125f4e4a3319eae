package all

import (
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
)

func TestRegistry(t *testing.T) {
	r := Default()
	if !slices.Equal(r.Names(), namesOf(Entries())) {
		t.Fatalf("Default names %v differ from Entries", r.Names())
	}
	builtIn := len(r.Names())
	r.Register(Entry{Name: "lamps"})
	if !r.Has("lamps") || len(r.Names()) != builtIn+1 || r.Names()[builtIn] != "lamps" {
		t.Fatalf("lamps not appended: %v", r.Names())
	}
	// Registering a known name replaces it in place.
	r.Register(Entry{Name: "toolqa", DataSubdir: "mine"})
	if e, err := r.Find("toolqa"); err != nil || e.DataSubdir != "mine" || len(r.Names()) != builtIn+1 {
		t.Fatalf("toolqa not replaced: %+v %v", e, err)
	}
	if _, err := r.Find("lampz"); err == nil || !strings.Contains(err.Error(), "lamps") {
		t.Errorf("unknown name: %v, want the registered names listed", err)
	}
	if Default().Has("lamps") {
		t.Error("Register changed another registry")
	}
	// An entry with only an embedded suite says so when asked for data.
	e, _ := r.Find("lamps")
	if _, err := e.OpenData(t.TempDir(), Options{}); err == nil {
		t.Error("OpenData of an entry without Open succeeded")
	}
	if _, err := e.OpenEmbedded(Options{}); err == nil {
		t.Error("OpenEmbedded of an entry without Embedded succeeded")
	}
}

func namesOf(es []Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Name)
	}
	return out
}

// TestBuiltInEntriesDescribeThemselves: every built-in entry carries what
// the reports and the agent prompt read from it, and its embedded suite
// brings its own instructions and the gold oracle `bench envs check`
// replays.
func TestBuiltInEntriesDescribeThemselves(t *testing.T) {
	categories := map[string]int{}
	for _, e := range Entries() {
		if e.DisplayName == "" || e.ShortName == "" || e.DataSubdir == "" || e.Open == nil || e.Embedded == nil || e.Fetch == nil {
			t.Errorf("%s: incomplete entry %+v", e.Name, e)
		}
		if e.Category != "" {
			categories[e.Category]++
		}
		if e.PaperTestSize.Size == 0 && (e.PaperTestSize.Known || e.PaperTestSize.Note != "") {
			t.Errorf("%s: a paper test size note without a size: %+v", e.Name, e.PaperTestSize)
		}
		s, err := e.OpenEmbedded(Options{})
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if in, ok := s.(envs.Instructor); !ok || strings.TrimSpace(in.Instructions()) == "" {
			t.Errorf("%s: the suite gives an agent no instructions", e.Name)
		}
		if _, ok := s.(envs.Oracle); !ok {
			t.Errorf("%s: the suite has no gold oracle", e.Name)
		}
		if c, ok := s.(interface{ Close() error }); ok {
			c.Close()
		}
	}
	// LifeMem's Table 2: five scenarios of two environments each.
	if len(categories) != 5 {
		t.Errorf("categories %v, want Table 2's five", categories)
	}
	for c, n := range categories {
		if n != 2 {
			t.Errorf("category %s has %d environments, want 2", c, n)
		}
	}
}
