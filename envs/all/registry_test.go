package all

import (
	"slices"
	"strings"
	"testing"
)

func TestRegistry(t *testing.T) {
	r := Default()
	if !slices.Equal(r.Ordered(), namesOf(Entries())) {
		t.Fatalf("Default names %v differ from Entries", r.Ordered())
	}
	builtIn := len(r.Ordered())
	r.Register(Entry{Name: "lamps"})
	if !r.Has("lamps") || len(r.Ordered()) != builtIn+1 || r.Ordered()[builtIn] != "lamps" {
		t.Fatalf("lamps not appended: %v", r.Ordered())
	}
	// Registering a known name replaces it in place.
	r.Register(Entry{Name: "toolqa", DataSubdir: "mine"})
	if e, err := r.Find("toolqa"); err != nil || e.DataSubdir != "mine" || len(r.Ordered()) != builtIn+1 {
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
