package dbbench

import (
	"errors"
	"strings"
	"testing"
)

func TestParseAction(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Action
		err  error
	}{
		{"operation", "Let me look.\nAction: Operation\n```sql\nSELECT * FROM t;\n```", Action{Kind: Operation, SQL: "SELECT * FROM t;"}, nil},
		{"multiline sql joined", "Action: Operation\n```sql\nSELECT a\nFROM t\n```", Action{Kind: Operation, SQL: "SELECT a FROM t"}, nil},
		{"first sql block wins", "Action: Operation\n```sql\nSELECT 1\n```\n```sql\nSELECT 2\n```", Action{Kind: Operation, SQL: "SELECT 1"}, nil},
		{"answer", "Done.\nAction: Answer\nFinal Answer: [(1, 'a')]", Action{Kind: Answer, Final: "[(1, 'a')]"}, nil},
		{"answer rest of line only", "Action: Answer\nFinal Answer: [(1,)]\nThanks", Action{Kind: Answer, Final: "[(1,)]"}, nil},
		{"first action wins", "Action: Answer\nFinal Answer: x\nAction: Operation\n```sql\nSELECT 1\n```", Action{Kind: Answer, Final: "x"}, nil},
		{"no action", "SELECT * FROM t", Action{}, ErrNoAction},
		{"lowercase action", "action: operation\n```sql\nSELECT 1\n```", Action{}, ErrNoAction},
		{"operation without block", "Action: Operation\nSELECT 1", Action{}, ErrNoSQL},
		{"unterminated block", "Action: Operation\n```sql\nSELECT 1", Action{}, ErrNoSQL},
		{"answer without final", "Action: Answer\n[(1,)]", Action{}, ErrNoFinal},
		{"final needs preceding newline", "Action: Answer Final Answer: 1", Action{}, ErrNoFinal},
		{"empty", "", Action{}, ErrNoAction},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseAction(tt.in)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestActionTextRoundTrip(t *testing.T) {
	a, err := ParseAction(OperationText("SELECT 1"))
	if err != nil || a.Kind != Operation || a.SQL != "SELECT 1" {
		t.Errorf("operation round trip: %+v %v", a, err)
	}
	a, err = ParseAction(AnswerText("[(1,)]"))
	if err != nil || a.Kind != Answer || a.Final != "[(1,)]" {
		t.Errorf("answer round trip: %+v %v", a, err)
	}
}

func FuzzParseAction(f *testing.F) {
	for _, s := range []string{
		"Action: Operation\n```sql\nSELECT 1\n```", "Action: Answer\nFinal Answer: [(1,)]",
		"Action: Operation\n```sql\n\n```", "Action: Answer\nFinal Answer:", "```sql\n```", "\x00Action: Answer\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAction(s)
		if err != nil {
			return
		}
		switch a.Kind {
		case Operation:
			if strings.Contains(a.SQL, "\n") {
				t.Errorf("SQL keeps a newline: %q", a.SQL)
			}
		case Answer:
			if strings.Contains(a.Final, "\n") {
				t.Errorf("final answer spans lines: %q", a.Final)
			}
		default:
			t.Errorf("unknown kind %d", a.Kind)
		}
	})
}
