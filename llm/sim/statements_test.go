package sim

import "testing"

func TestReadStatements(t *testing.T) {
	user := func(text string) Statement { return Statement{Speaker: "user", Text: text} }
	filler := []Statement{
		{Speaker: "assistant", Text: "Happy to help with that."},
		user("Could you suggest a board game for four people who like trading?"),
	}
	tests := []struct {
		name       string
		question   string
		st         []Statement
		want       string
		superseded int
	}{
		{
			// The old value shares more words with the question; the
			// update restates the fact and so replaces it.
			name:     "a later value supersedes an earlier one",
			question: "How many people are on my team at work?",
			st: append([]Statement{user("My team at work has 6 people right now.")},
				append(filler, user("We hired a few more, my team is 9 people now."))...),
			want: "hired few more 9 now", superseded: 0,
		},
		{
			name:     "an unrelated later mention does not supersede",
			question: "How many people are on my team at work?",
			st:       append([]Statement{user("My team at work has 6 people right now.")}, filler...),
			want:     "6 right now", superseded: -1,
		},
		{
			// Another speaker's claim is corrected by the latest
			// statement, which ties on relevance.
			name:     "a correction by the other speaker",
			question: "Where did Ana grow up?",
			st: []Statement{{Speaker: "Ben", Text: "You grew up in Hobart, right?"},
				{Speaker: "Ana", Text: "No, I grew up in Cork! Hobart is where my cousins live."}},
			want: "grew Cork Hobart cousins live", superseded: -1,
		},
		{
			name:     "inflections fold",
			question: "What does Ana work as now?",
			st:       []Statement{{Speaker: "Ana", Text: "I'm working as a bike mechanic now."}},
			want:     "bike mechanic", superseded: -1,
		},
		{
			name:     "a kind of thing never named is declined",
			question: "What colour is my car?",
			st:       []Statement{user("I finally bought a car, a little second-hand hatchback.")},
			want:     "", superseded: -1,
		},
		{
			name:     "a kind of thing named is answered",
			question: "What street do I live on?",
			st:       []Statement{user("I'm renting a flat on Elm Street."), user("We moved, our new place is on Harbour Street.")},
			want:     "moved new place Harbour", superseded: -1,
		},
		{
			name:     "nothing shared",
			question: "What is my manager's name?",
			st:       filler,
			want:     "", superseded: -1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ReadStatements(tt.question, tt.st)
			if got.Answer != tt.want || got.Superseded != tt.superseded {
				t.Errorf("ReadStatements(%q) = %+v, want answer %q superseding %d", tt.question, got, tt.want, tt.superseded)
			}
			if (got.Answer == "") != (got.At < 0) {
				t.Errorf("answer %q at %d: an answer has a place and no answer has none", got.Answer, got.At)
			}
		})
	}
}
