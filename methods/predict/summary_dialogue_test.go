package predict

import (
	"strings"
	"testing"
)

// The sim's dialogue folding keeps the turns' facts in order and replaces
// one that a later turn of the same speaker changes.
func TestDialogueSummaryReader(t *testing.T) {
	prev := dialogueSummary(SummarizeDialogue{Lines: []DialogueLine{
		{Date: "2 May", Speaker: "Ana", Text: "My team at work has 6 people right now."},
		{Date: "2 May", Speaker: "Ben", Text: "Hi!"},
		{Date: "2 May", Speaker: "Ben", Text: "My team at work has 4 people."},
	}})
	want := "- Ana (2 May): My team at work has 6 people right now.\n- Ben (2 May): Hi!\n- Ben (2 May): My team at work has 4 people.\n"
	if prev != want {
		t.Fatalf("first fold:\n%s\nwant:\n%s", prev, want)
	}
	next := dialogueSummary(SummarizeDialogue{Previous: prev, Lines: []DialogueLine{
		{Date: "9 May", Speaker: "Ana", Text: "We hired a few more, my team is 9 people now."},
		{Date: "9 May", Speaker: "Ana", Text: "Our new place is on Harbour Road."},
	}})
	want = "- Ana (9 May): We hired a few more, my team is 9 people now.\n- Ben (2 May): Hi!\n- Ben (2 May): My team at work has 4 people.\n- Ana (9 May): Our new place is on Harbour Road.\n"
	if next != want {
		t.Errorf("second fold:\n%s\nwant:\n%s", next, want)
	}
	if !strings.Contains(dialogueSummaryPrompt("", nil, 100), "at most 100 tokens") {
		t.Error("the prompt does not state the summary's cap")
	}
}
