package memstyle

import (
	"strings"
	"testing"
)

func TestDialogueExtract(t *testing.T) {
	turns := []Turn{
		{Date: "8 May", Speaker: "Ana", Text: "Hey Ben!"},
		{Date: "8 May", Speaker: "Ana", Text: "I started a new job, I'm a bike mechanic at Spoke Works now."},
		{Date: "8 May", Speaker: "Ben", Text: "I ran my first marathon yesterday."},
		{Date: "8 May", Speaker: "Ben", Text: "I love spicy ramen."},
	}
	tests := []struct {
		typ  string
		max  int
		want string
	}{
		// The two richest turns, in conversation order; the greeting
		// and the shorter liking are left out.
		{"", 2, "- Ana (8 May): I started a new job, I'm a bike mechanic at Spoke Works now.\n- Ben (8 May): I ran my first marathon yesterday.\n"},
		{"event", 5, "- Ben (8 May): I ran my first marathon yesterday.\n"},
		{"preference", 5, "- Ben (8 May): I love spicy ramen.\n"},
		{"habit", 5, "NONE\n"},
	}
	for _, tt := range tests {
		if got := dialogueExtract(DialogueExtract{Type: tt.typ, Turns: turns, MaxFacts: tt.max}); got != tt.want {
			t.Errorf("type %q: got %q, want %q", tt.typ, got, tt.want)
		}
	}
	stored := "Ben (8 May): I love spicy ramen."
	if got := dialogueExtract(DialogueExtract{Type: "preference", Turns: turns, Existing: []string{stored}, MaxFacts: 5}); got != "NONE\n" {
		t.Errorf("a stored unit was repeated: %q", got)
	}
}

func TestDialogueUpdate(t *testing.T) {
	existing := []MemItem{
		{ID: "m1", Text: "Ana (2 May): My team at work has 6 people right now."},
		{ID: "m2", Text: "Ben (2 May): My team at work has 4 people."},
		{ID: "m3", Text: "Ana (3 May): I rent a flat on Elm Street."},
	}
	tests := []struct{ fact, want string }{
		// Later facts supersede earlier ones, of the same speaker only.
		{"Ana (9 May): We hired a few more, my team is 9 people now.", "UPDATE m1: Ana (9 May): We hired a few more, my team is 9 people now.\n"},
		{"Ana (9 May): Our new place is on Harbour Road.", "ADD: Ana (9 May): Our new place is on Harbour Road.\n"},
	}
	for _, tt := range tests {
		got, ok := dialogueUpdate(MemUpdate{Fact: tt.fact, Existing: existing})
		if !ok || got != tt.want {
			t.Errorf("%q: got %q (ok %v), want %q", tt.fact, got, ok, tt.want)
		}
	}
	if _, ok := dialogueUpdate(MemUpdate{Fact: "- [video_liked] scene=live: mean 0.50 over 4 records (sum 2)"}); ok {
		t.Error("a behaviour fact was read as a dialogue fact")
	}
	if !strings.HasPrefix(memUpdate(MemUpdate{Fact: "[video_liked] scene=live: mean 0.50 over 4 records (sum 2)"}), "ADD: ") {
		t.Error("the behaviour update reader changed")
	}
}
