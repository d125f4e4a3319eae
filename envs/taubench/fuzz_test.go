package taubench

import (
	"context"
	"strings"
	"testing"
)

// FuzzParseAction: any agent text parses to a tool call, a reply or an
// error, and a tool call's arguments re-encode and re-parse identically.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{
		"Action:\n{\"name\": \"get_order_details\", \"arguments\": {\"order_id\": \"#W1\"}}",
		"hello", "Action: {", "Action: {\"name\": \"respond\", \"arguments\": {\"content\": \"x\"}}",
		"Action: [1, 2.5e3, null, true]", "Action: {\"name\": \"x\", \"arguments\": {\"a\": {\"b\": [\"\\u00e9\"]}}}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAction(s)
		if err != nil {
			return
		}
		if a.Name == Respond {
			return
		}
		b, err := ParseAction(a.Format())
		if err != nil || b.Name != a.Name || Dumps(b.Kwargs) != Dumps(a.Kwargs) {
			t.Fatalf("round trip of %q: %v %v", s, b, err)
		}
	})
}

// FuzzCalculate: the calculator never panics and always answers.
func FuzzCalculate(f *testing.F) {
	for _, s := range []string{"2 + 2", "(1+2)*3/4", "-2 ** -2", "10 // 0", "((((", "1..2", "9 ** 9 ** 9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 200 {
			return
		}
		if calculate(s) == "" {
			t.Fatalf("empty answer for %q", s)
		}
	})
}

// FuzzToolCall: any tool name and JSON arguments from an agent yield an
// observation (never a panic or an environment error) on both domains.
func FuzzToolCall(f *testing.F) {
	retail, err := Embedded(Retail)
	if err != nil {
		f.Fatal(err)
	}
	airline, err := Embedded(Airline)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []*Suite{retail, airline} {
		for _, task := range s.Tasks() {
			for _, a := range task.Data.(*TaskRecord).Actions {
				f.Add(a.Name, Dumps(a.Kwargs))
			}
		}
	}
	f.Add("update_reservation_flights", `{"reservation_id": "R1AAA1", "cabin": "economy", "flights": [{}], "payment_id": "x"}`)
	f.Add("modify_pending_order_items", `{"order_id": "#E1000005", "item_ids": [], "new_item_ids": [], "payment_method_id": 1}`)
	f.Fuzz(func(t *testing.T, name, kwJSON string) {
		for _, s := range []*Suite{retail, airline} {
			ep, err := s.NewEpisode(context.Background(), s.Tasks()[0], s.GoldOptions(s.Tasks()[0]))
			if err != nil {
				t.Fatal(err)
			}
			st, err := ep.Step(context.Background(), "Action:\n{\"name\": "+Dumps(name)+", \"arguments\": "+kwJSON+"}")
			if err != nil {
				t.Fatalf("%s(%s): environment error %v", name, kwJSON, err)
			}
			if st.Observation == "" && !strings.HasPrefix(name, "think") {
				t.Fatalf("%s(%s): empty observation", name, kwJSON)
			}
		}
	})
}

// FuzzPyTasks: the Python literal reader rejects or accepts, never panics.
func FuzzPyTasks(f *testing.F) {
	f.Add("T = [Task(user_id=\"u\", instruction='i', actions=[Action(name=\"think\", kwargs={\"thought\": \"x\"})], outputs=[])]")
	f.Add("T = [\"\\x4\", (1, 2), {'a': -1e3}]")
	f.Fuzz(func(t *testing.T, src string) {
		_, _, _ = parsePyTaskList(src)
	})
}
