package apibank

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseAction(t *testing.T) {
	for _, tc := range []struct {
		in     string
		name   string
		params []Param
		finish bool
		err    error
	}{
		{in: "I'll search. [ToolSearcher(keywords='add schedule')]", name: "ToolSearcher", params: []Param{{"keywords", "add schedule"}}},
		{in: `[BookHotel(hotel_name="Hilton", room_count=1, adult_count="2")]`, name: "BookHotel",
			params: []Param{{"hotel_name", "Hilton"}, {"room_count", "1"}, {"adult_count", "2"}}},
		{in: "[AddMeeting(token='t', attendees=['A', 'B'])]", name: "AddMeeting",
			params: []Param{{"token", "t"}, {"attendees", "['A', 'B']"}}},
		{in: "[GetToday()]", name: "GetToday"},
		{in: "[Finish()]", name: "Finish", finish: true},
		{in: "[Wiki(keyword='Finish line')]", name: "Wiki", params: []Param{{"keyword", "Finish line"}}, finish: true},
		{in: "[AddAgenda(content='John's party')]", name: "AddAgenda", params: []Param{{"content", "John"}}},
		{in: "[A(x='1', x='2')]", name: "A", params: []Param{{"x", "2"}}},
		{in: "no call here", err: ErrNoCall},
		{in: "[Calc(\nformula='1+1')]", err: ErrNoCall},
	} {
		c, err := ParseAction(tc.in)
		if !errors.Is(err, tc.err) {
			t.Errorf("%q: err %v, want %v", tc.in, err, tc.err)
			continue
		}
		if err != nil {
			continue
		}
		if c.Name != tc.name || c.Finish != tc.finish || !reflect.DeepEqual(c.Params, tc.params) {
			t.Errorf("%q: got %+v", tc.in, c)
		}
	}
}

func TestFormatCallRoundTrip(t *testing.T) {
	params := []Param{{"attendees", "['John Smith', 'Jane Doe']"}, {"token", "abc"}, {"meeting_topic", "Q3 review (draft)"}, {"n", "42"}}
	a, err := FormatCall("AddMeeting", params)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseAction(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range params {
		if v, _ := c.Get(p.Key); v != p.Value {
			t.Errorf("%s: got %q, want %q (action %s)", p.Key, v, p.Value, a)
		}
	}
	for _, bad := range [][]Param{{{"content", "it's"}}, {{"content", ""}}, {{"a", "[1]"}, {"b", "[2]"}}} {
		if _, err := FormatCall("X", bad); err == nil {
			t.Errorf("FormatCall(%v) accepted", bad)
		}
	}
}

func TestCoerceValue(t *testing.T) {
	for _, tc := range []struct {
		typ, in, want string
		bad           bool
	}{
		{"int", "12", "12", false}, {"int", "-1", "", true}, {"int", "1.5", "", true},
		{"float", "2.50", "2.5", false}, {"float", "1.2.3", "", true},
		{"bool", "True", "True", false}, {"bool", "true", "False", false},
		{"list", "[{'name': 'hr', 'value': '80'}]", "[{'name': 'hr', 'value': '80'}]", false},
		{"list(str)", "['a', \"b\"]", "['a', 'b']", false}, {"list", "{'a': 1}", "", true}, {"list", "[oops", "", true},
		{"json", "x", "", true},
	} {
		v, err := coerceValue(tc.typ, tc.in)
		if (err != nil) != tc.bad || (!tc.bad && pyRepr(v) != tc.want) {
			t.Errorf("coerceValue(%s, %q) = %s, %v", tc.typ, tc.in, pyRepr(v), err)
		}
	}
}

func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"[ToolSearcher(keywords='x')]", "[A(b=[1,2], c=\"d\", e=f)]", "[Finish()]", "[(=)]", "[x(y='", "]["} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseAction(s)
		if err != nil {
			return
		}
		if c.Name == "" || c.Raw == "" {
			t.Fatalf("empty name or raw for %q", s)
		}
		// Whatever was parsed must survive a write/parse round trip when writable.
		if a, err := FormatCall(c.Name, c.Params); err == nil {
			c2, err := ParseAction(a)
			if err != nil || c2.Name != c.Name {
				t.Fatalf("round trip of %q via %q: %+v, %v", s, a, c2, err)
			}
		}
	})
}

func FuzzCoerceValue(f *testing.F) {
	for _, s := range []string{"12", "1.5", "True", "['a']", "[{'name': 'x'}]", "", "[[[", "{\"a\": 1}"} {
		f.Add("list", s)
		f.Add("int", s)
	}
	f.Fuzz(func(t *testing.T, typ, s string) {
		v, err := coerceValue(typ, s)
		if err == nil {
			_ = pyRepr(v)
		}
	})
}
