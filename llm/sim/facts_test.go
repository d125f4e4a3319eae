package sim

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memharness/memharness/llm/hint"
)

func TestParseFact(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Fact
		ok   bool
	}{
		{"- [movie_rating] genre=Drama: mean 4.21 over 31 records",
			Fact{Field: "movie_rating", Conds: []Cond{{"genre", "Drama"}}, Mean: 4.21, Count: 31, Sum: 4.21 * 31}, true},
		{"- [movie_rating] all: mean 3.70 over 240 records (sum 888)",
			Fact{Field: "movie_rating", Mean: 3.7, Count: 240, Sum: 888}, true},
		{"* [video_liked] scene=视频浏览 & author=abc: Mean 0.8 over 1 record.",
			Fact{Field: "video_liked", Conds: []Cond{{"scene", "视频浏览"}, {"author", "abc"}}, Mean: 0.8, Count: 1, Sum: 0.8}, true},
		{"[x] genre=Children's: mean 2 over 3 records", Fact{Field: "x", Conds: []Cond{{"genre", "Children's"}}, Mean: 2, Count: 3, Sum: 6}, true},
		{"- [video_liked] bias: shift +0.10", Fact{Field: "video_liked", Bias: true, Shift: 0.1}, true},
		{"- [video_liked] bias: shift -0.2", Fact{Field: "video_liked", Bias: true, Shift: -0.2}, true},
		{"The user loves dramas and rates them 4.2 on average.", Fact{}, false},
		{"- [movie_rating] genre: mean 4 over 3 records", Fact{}, false},
		{"- [movie_rating] all: mean 4 over 0 records", Fact{}, false},
		{"- [movie_rating] bias: mean 4 over 3 records", Fact{}, false},
		{"- [movie_rating] =Drama: mean 4 over 3 records", Fact{}, false},
		{"", Fact{}, false},
	} {
		got, ok := ParseFact(tc.line)
		if ok != tc.ok {
			t.Errorf("ParseFact(%q) ok = %v, want %v", tc.line, ok, tc.ok)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseFact(%q) mismatch (-want +got):\n%s", tc.line, diff)
		}
	}
}

func TestFactStringRoundTrip(t *testing.T) {
	for _, f := range []Fact{
		{Field: "movie_rating", Mean: 3.7, Count: 240, Sum: 888},
		{Field: "movie_rating", Conds: []Cond{{"genre", "Sci-Fi"}, {"decade", "1990s"}}, Mean: 1.0 / 3, Count: 3, Sum: 1},
		{Field: "video_liked", Bias: true, Shift: -0.15},
	} {
		s := f.String()
		got, ok := ParseFact(s)
		if !ok {
			t.Fatalf("String() = %q does not parse", s)
		}
		want := f
		want.Mean = got.Mean // printed with two decimals
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("round trip of %q (-want +got):\n%s", s, diff)
		}
	}
	if s := (Fact{Field: "f", Mean: 1.0 / 3, Count: 3, Sum: 1}).String(); s != "- [f] all: mean 0.33 over 3 records (sum 1)" {
		t.Errorf("String() = %q", s)
	}
}

func TestHolds(t *testing.T) {
	target := hint.Event{Scene: "电影评分", Attrs: map[string]string{"genre": "Drama|Comedy", "decade": "1990s"}}
	for _, tc := range []struct {
		conds []Cond
		want  bool
	}{
		{nil, true},
		{[]Cond{{"genre", "Comedy"}}, true},
		{[]Cond{{"genre", "Com"}}, false},
		{[]Cond{{"genre", "Drama"}, {"decade", "1990s"}}, true},
		{[]Cond{{"genre", "Drama"}, {"decade", "1980s"}}, false},
		{[]Cond{{"scene", "电影评分"}}, true},
		{[]Cond{{"scene", "视频浏览"}}, false},
		{[]Cond{{"author", "x"}}, false},
	} {
		if got := (Fact{Conds: tc.conds}).Holds(target); got != tc.want {
			t.Errorf("Holds(%v) = %v, want %v", tc.conds, got, tc.want)
		}
	}
}
