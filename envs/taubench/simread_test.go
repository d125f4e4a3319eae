package taubench

import (
	"context"
	"github.com/memharness/memharness/llm/sim"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
)

func TestCustomer(t *testing.T) {
	ins := "Your name is Yusuf Rossi and you want to return the cleaner."
	tests := []struct {
		name  string
		turns []hint.SimTurn
		want  string
	}{
		{"opens with the goal", []hint.SimTurn{{Role: "agent", Text: "Hi! How can I help?"}}, "My name is Yusuf Rossi and I want to return the cleaner."},
		{"agrees to a question", []hint.SimTurn{{Role: "agent", Text: "Hi"}, {Role: "user", Text: "x"}, {Role: "agent", Text: "Shall I proceed?"}}, "Yes, please go ahead."},
		{"stops on a statement", []hint.SimTurn{{Role: "agent", Text: "Hi"}, {Role: "user", Text: "x"}, {Role: "agent", Text: "Done, your refund is on its way."}}, customerStop},
	}
	s := newSim(sim.Config{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := s.Generate(context.Background(), llm.Request{Purpose: "taubench.user", SampleID: "s", Hint: UserSim{Instruction: ins, Turns: tc.turns}})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != tc.want {
				t.Errorf("got %q, want %q", resp.Text, tc.want)
			}
		})
	}
}
