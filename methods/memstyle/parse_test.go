package memstyle

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm/tokens"
)

func TestParseList(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want list
	}{
		{"dash list", "- a\n- b\n", list{Items: []string{"a", "b"}}},
		{"markers and numbers", "* a\n• b\n1. c\n2) d\n-\te", list{Items: []string{"a", "b", "c", "d", "e"}}},
		{"header and prose counted", "Facts:\n- a\nThat is all.", list{Items: []string{"a"}, Bad: 2}},
		{"duplicates once", "- a\n- a\n- b", list{Items: []string{"a", "b"}}},
		{"none", "NONE", list{None: true}},
		{"none variants", "**None.**", list{None: true}},
		{"none chinese", "无", list{None: true}},
		{"none item", "- none", list{}},
		{"think removed", "<think>- hidden</think>\n- shown", list{Items: []string{"shown"}}},
		{"unclosed think", "- a\n<think>- b", list{Items: []string{"a"}}},
		{"garbage", "I cannot help with that.", list{Bad: 1}},
		{"empty", "  \n\n", list{}},
		{"truncated keeps the cut item", "- [live_liked] scene=直播间: mean 0.50 over 4 records\n- [live_li", list{Items: []string{
			"[live_liked] scene=直播间: mean 0.50 over 4 records", "[live_li"}}},
		{"number without marker is prose", "2025 was busy", list{Bad: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseList(tt.in)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if want := len(tt.want.Items) > 0 || tt.want.None; got.valid() != want {
				t.Errorf("valid = %v", got.valid())
			}
		})
	}
}

func TestParseOps(t *testing.T) {
	known := func(id string) bool { return id == "m1" || id == "m12" }
	tests := []struct {
		name string
		in   string
		want []op
		bad  int
	}{
		{"add", "ADD: likes games", []op{{Kind: opAdd, Text: "likes games"}}, 0},
		{"bare add", "add", []op{{Kind: opAdd}}, 0},
		{"update", "UPDATE m12: now 5 records", []op{{Kind: opUpdate, ID: "m12", Text: "now 5 records"}}, 0},
		{"update forms", "- update [m1] - x\nUPDATE id=m12: y\n**UPDATE** 12 z\nUPDATE (M1): w",
			[]op{{opUpdate, "m1", "x"}, {opUpdate, "m12", "y"}, {opUpdate, "m12", "z"}, {opUpdate, "m1", "w"}}, 0},
		{"update without text", "UPDATE m1", []op{{Kind: opUpdate, ID: "m1"}}, 0},
		{"delete", "DELETE m1\n2. delete m12", []op{{Kind: opDelete, ID: "m1"}, {Kind: opDelete, ID: "m12"}}, 0},
		{"none and noop", "NONE\nnoop", []op{{Kind: opNone}, {Kind: opNone}}, 0},
		{"unknown id", "DELETE m7\nUPDATE m9: x\nUPDATE: x", nil, 3},
		{"prose counted", "Decision:\nADD: a\nbecause it is new", []op{{Kind: opAdd, Text: "a"}}, 2},
		{"garbage", "???", nil, 1},
		{"truncated", "UPDATE m1: [f] a=1: mean 0.5\nDELE", []op{{Kind: opUpdate, ID: "m1", Text: "[f] a=1: mean 0.5"}}, 1},
		{"think removed", "<think>DELETE m1</think>NONE", []op{{Kind: opNone}}, 0},
		{"add list text", "ADD: - [f] all: mean 1.00 over 2 records", []op{{Kind: opAdd, Text: "[f] all: mean 1.00 over 2 records"}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, bad := parseOps(tt.in, known)
			if d := cmp.Diff(tt.want, got); d != "" || bad != tt.bad {
				t.Errorf("bad %d (want %d); ops (-want +got):\n%s", bad, tt.bad, d)
			}
		})
	}
}

func TestCleanProfile(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<think>x</think>\n\n- a  \n\n- b\n", "- a\n- b"},
		{"   ", ""},
		{"<think>cut off", ""},
		{"Profile:\nlikes games", "Profile:\nlikes games"},
	}
	for _, tt := range tests {
		if got := cleanProfile(tt.in); got != tt.want {
			t.Errorf("cleanProfile(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLabelOf(t *testing.T) {
	bin := behavior.Question{Kind: behavior.Binary}
	rating := behavior.Question{Kind: behavior.MultiClass, Classes: []string{"1", "2", "3", "4", "5"}}
	named := behavior.Question{Kind: behavior.MultiClass, Classes: []string{"low", "high"}}
	tests := []struct {
		q    behavior.Question
		y    float64
		want string
		ok   bool
	}{
		{bin, 1, "1", true}, {bin, 0, "0", true}, {bin, 0.5, "1", true},
		{rating, 4, "4", true}, {rating, 4.4, "4", true}, {rating, 9, "5", true},
		{named, 2, "high", true},
		{behavior.Question{Kind: "text"}, 1, "", false},
	}
	for _, tt := range tests {
		got, ok := labelOf(tt.q, tt.y)
		if got != tt.want || ok != tt.ok {
			t.Errorf("labelOf(%s, %v) = %q %v, want %q %v", tt.q.Kind, tt.y, got, ok, tt.want, tt.ok)
		}
	}
}

func TestHoldout(t *testing.T) {
	ev := func(fields ...string) behavior.Event {
		e := behavior.Event{Outcomes: map[string]float64{}}
		for _, f := range fields {
			e.Outcomes[f] = 1
		}
		return e
	}
	prac := []behavior.Event{ev("a"), ev("a"), ev("b"), ev("a"), ev(), ev("a"), ev("c"), ev("a")}
	tests := []struct {
		k    int
		want []int
	}{
		{1, []int{7}},
		{2, []int{5, 7}}, // 6 answers no asked field
		{5, []int{5, 7}}, // a quarter of 8 records at most
		{0, nil},
	}
	for _, tt := range tests {
		if got := holdout(prac, []string{"a", "b"}, tt.k); !slices.Equal(got, tt.want) {
			t.Errorf("holdout k=%d = %v, want %v", tt.k, got, tt.want)
		}
	}
}

func TestChoose(t *testing.T) {
	tests := []struct {
		ps   []profile
		want int
	}{
		{[]profile{{F1: 0.2}, {F1: 0.5}, {F1: 0.4}}, 1},
		{[]profile{{F1: 0.5, Acc: 0.7}, {F1: 0.5, Acc: 0.9}}, 1},
		{[]profile{{F1: 0.5, Acc: 0.9}, {F1: 0.5, Acc: 0.9}}, 0},
		{[]profile{{}}, 0},
	}
	for _, tt := range tests {
		if got := choose(tt.ps); got != tt.want {
			t.Errorf("choose(%+v) = %d, want %d", tt.ps, got, tt.want)
		}
	}
}

func TestChunkRecordsAndSeq(t *testing.T) {
	ev := make([]behavior.Event, 7)
	var sizes []int
	for _, c := range chunkRecords(ev, 3) {
		sizes = append(sizes, len(c))
	}
	if !slices.Equal(sizes, []int{3, 3, 1}) || len(chunkRecords(nil, 3)) != 0 {
		t.Errorf("chunks %v", sizes)
	}
	for _, tt := range []struct {
		from, to, step int
		want           []int
	}{{0, 5, 2, []int{0, 2, 4}}, {4, -1, -1, []int{4, 3, 2, 1, 0}}, {3, 3, 1, nil}} {
		if got := seq(tt.from, tt.to, tt.step); !slices.Equal(got, tt.want) {
			t.Errorf("seq%v = %v", []int{tt.from, tt.to, tt.step}, got)
		}
	}
}

func TestFitLines(t *testing.T) {
	c := tokens.CounterFunc(func(s string) int { return len(s) })
	lines := []string{"aaa", "bb", "c"} // costs 4, 3, 2 with the newline
	for _, tt := range []struct{ limit, want int }{{0, 0}, {4, 1}, {6, 1}, {7, 2}, {9, 3}, {99, 3}} {
		if got := fitLines(c, lines, tt.limit); len(got) != tt.want {
			t.Errorf("limit %d: %v", tt.limit, got)
		}
	}
}
