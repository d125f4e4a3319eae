package taubench

import (
	"strings"
	"testing"
)

func TestParseAction(t *testing.T) {
	for _, tc := range []struct {
		in      string
		name    string
		content string // for respond
		errPart string
	}{
		{in: "Action:\n{\"name\": \"get_order_details\", \"arguments\": {\"order_id\": \"#W1\"}}", name: "get_order_details"},
		{in: "Thought: look it up.\nAction:\n{\"name\": \"think\", \"arguments\": {\"thought\": \"x\"}}", name: "think"},
		{in: "Hello! How can I help?", name: Respond, content: "Hello! How can I help?"},
		{in: "  Sure.  ", name: Respond, content: "Sure."},
		{in: "Action: {not json", name: Respond, content: "{not json"},
		{in: "Action: {\"name\": \"respond\", \"arguments\": {\"content\": \"hi\"}}", name: Respond, content: "hi"},
		{in: "Action: 5", errPart: "JSON object"},
		{in: "Action: {\"arguments\": {}}", errPart: "no \"name\""},
		{in: "Action: {\"name\": 3, \"arguments\": {}}", errPart: "must be a string"},
		{in: "Action: {\"name\": \"x\"}", errPart: "no \"arguments\""},
		{in: "Action: {\"name\": \"x\", \"arguments\": []}", errPart: "JSON object"}, // pydantic's Action rejects it
		{in: "Action: {\"name\": \"respond\", \"arguments\": \"hi\"}", errPart: "JSON object"},
		{in: "Action: {\"name\": \"respond\", \"arguments\": {}}", name: Respond}, // checked when stepped
	} {
		a, err := ParseAction(tc.in)
		if tc.errPart != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errPart) {
				t.Errorf("ParseAction(%q) error %v, want %q", tc.in, err, tc.errPart)
			}
			continue
		}
		if err != nil || a.Name != tc.name || (tc.name == Respond && a.Content() != tc.content) {
			t.Errorf("ParseAction(%q) = %q %q, %v", tc.in, a.Name, a.Content(), err)
		}
	}
}

func TestFormatRoundTrip(t *testing.T) {
	kw, _ := Decode([]byte(`{"order_id": "#W1", "item_ids": ["1", "2"], "amount": 5.0}`))
	a := Action{Name: "x", Kwargs: kw.(*Object)}
	b, err := ParseAction(a.Format())
	if err != nil || b.Name != "x" || Dumps(b.Kwargs) != Dumps(a.Kwargs) {
		t.Errorf("round trip: %v %v", b, err)
	}
}

func TestFirstPerson(t *testing.T) {
	for in, want := range map[string]string{
		"Your name is Omar and your zip code is 1. You are shy.": "My name is Omar and my zip code is 1. I am shy.",
		"You want to return it; you'd rather keep the lamp.":     "I want to return it; I'd rather keep the lamp.",
		"Youth yourself": "Youth myself",
	} {
		if got := FirstPerson(in); got != want {
			t.Errorf("FirstPerson(%q) = %q, want %q", in, got, want)
		}
	}
}
