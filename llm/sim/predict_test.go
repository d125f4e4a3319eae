package sim

import (
	"math"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm/hint"
)

var ratings = []string{"1", "2", "3", "4", "5"}

func movie(genre string, rating float64) hint.Event {
	return hint.Event{Scene: "电影评分", Attrs: map[string]string{"genre": genre},
		Outcomes: map[string]float64{"movie_rating": rating}}
}

func target(genre string) hint.Event {
	return hint.Event{Scene: "电影评分", Attrs: map[string]string{"genre": genre}}
}

func TestRatingFollowsVisibleGenres(t *testing.T) {
	var visible []hint.Event
	for range 12 {
		visible = append(visible, movie("Drama", 5), movie("Comedy|Romance", 1), movie("Horror", 3))
	}
	for _, tc := range []struct {
		genre string
		want  string
	}{
		{"Drama", "5"},
		{"Drama|War", "5"},
		{"Comedy", "1"},
		{"Romance|Comedy", "1"},
		{"Documentary", "3"}, // nothing similar: the user's usual rating
	} {
		p := hint.Predict{Field: "movie_rating", Kind: "multi_class", Classes: ratings, Visible: visible, Target: target(tc.genre)}
		a, err := New(Config{}, Readers{}).Predict("predict", p)
		if err != nil {
			t.Fatal(err)
		}
		if a.Label != tc.want {
			t.Errorf("%s: rating %s, want %s (estimate %.2f)", tc.genre, a.Label, tc.want, rateEvidence(p, nil, 3).est)
		}
	}
}

func ratedIn(genre, decade string, rating float64) hint.Event {
	e := movie(genre, rating)
	e.Attrs = map[string]string{"genre": genre, "decade": decade}
	return e
}

func TestRatingFeaturesCombine(t *testing.T) {
	// Comedies (of the 1980s) and films of the 1990s (dramas) are both
	// rated low, against a mid baseline of 1980s dramas.
	var visible []hint.Event
	for range 4 {
		visible = append(visible, ratedIn("Comedy", "1980s", 1), ratedIn("Drama", "1990s", 2),
			ratedIn("Drama", "1980s", 4), ratedIn("Drama", "1980s", 4))
	}
	p := hint.Predict{Field: "movie_rating", Kind: "multi_class", Classes: ratings, Visible: visible}
	p.Target = hint.Event{Scene: "电影评分", Attrs: map[string]string{"genre": "Comedy", "decade": "1970s"}}
	one := rateEvidence(p, nil, 3).est
	p.Target.Attrs = map[string]string{"genre": "Comedy", "decade": "1990s"}
	two := rateEvidence(p, nil, 3).est
	if !(two < one && one < rateEvidence(p, nil, 3).mean) {
		t.Errorf("estimate with two low attributes %.3f, one %.3f; want two < one < mean", two, one)
	}
	// Within one attribute the strongest positive and negative values add:
	// a film of a loved and a hated genre is neither.
	var lh []hint.Event
	for range 6 {
		lh = append(lh, movie("War", 5), movie("Horror", 1), movie("Drama", 3), movie("Drama", 3))
	}
	p = hint.Predict{Field: "movie_rating", Kind: "multi_class", Classes: ratings, Visible: lh, Target: target("Horror|War")}
	if ev := rateEvidence(p, nil, 3); math.Abs(ev.est-ev.mean) > 0.2 {
		t.Errorf("loved and hated genre: estimate %.3f, mean %.3f; want about the mean", ev.est, ev.mean)
	}
	p.Target = target("Horror|Comedy")
	if ev := rateEvidence(p, nil, 3); ev.est > ev.mean-1 {
		t.Errorf("hated genre and an unseen one: estimate %.3f, mean %.3f; want well below", ev.est, ev.mean)
	}
}

func TestRatingEvidenceSteep(t *testing.T) {
	// The more same-genre records, the less their deviation is shrunk.
	var prev float64
	for _, k := range []int{1, 3, 10, 30} {
		var visible []hint.Event
		for range 30 {
			visible = append(visible, movie("Drama", 3))
		}
		for range k {
			visible = append(visible, movie("Film-Noir", 5))
		}
		ev := rateEvidence(hint.Predict{Field: "movie_rating", Kind: "multi_class", Classes: ratings,
			Visible: visible, Target: target("Film-Noir")}, nil, 3)
		if d := ev.est; d <= prev {
			t.Errorf("%d Film-Noir records: estimate %.3f, not above %.3f", k, d, prev)
		} else {
			prev = d
		}
	}
}

func TestRatingRecency(t *testing.T) {
	// Same genre, tastes changed: newer records weigh more.
	old := []hint.Event{movie("Drama", 1), movie("Drama", 1), movie("Drama", 5), movie("Drama", 5)}
	rev := []hint.Event{movie("Drama", 5), movie("Drama", 5), movie("Drama", 1), movie("Drama", 1)}
	p := hint.Predict{Field: "movie_rating", Kind: "multi_class", Classes: ratings, Target: target("Drama")}
	p.Visible = old
	up := rateEvidence(p, nil, 3).est
	p.Visible = rev
	down := rateEvidence(p, nil, 3).est
	if up <= down {
		t.Errorf("estimate with recent 5s = %.3f, with recent 1s = %.3f", up, down)
	}
	// The binary estimator weighs recency the same way.
	p.Visible = old
	up = estimate(p, nil, 3)
	p.Visible = rev
	if down = estimate(p, nil, 3); up <= down {
		t.Errorf("binary estimate with recent 5s = %.3f, with recent 1s = %.3f", up, down)
	}
}

func TestBinaryOverlapWeighs(t *testing.T) {
	visible := []hint.Event{movie("Comedy|Romance", 1), movie("Comedy|Romance", 1), movie("Drama", 5), movie("Drama", 5)}
	p := hint.Predict{Field: "movie_rating", Kind: "multi_class", Classes: ratings, Visible: visible}
	p.Target = target("Comedy")
	one := estimate(p, nil, 3)
	p.Target = target("Comedy|Romance")
	two := estimate(p, nil, 3)
	if !(two < one && one < 3) {
		t.Errorf("estimate sharing two values %.3f, one value %.3f; want two < one < 3", two, one)
	}
}

func TestMemoryWithoutHistory(t *testing.T) {
	for _, tc := range []struct {
		name, memory, genre, want string
	}{
		{"nothing", "", "Drama", "3"},
		{"prose only", "The user is a film buff who loves 5 star dramas.", "Drama", "3"},
		{"all high", "- [movie_rating] all: mean 4.60 over 100 records", "Drama", "5"},
		{"all low", "- [movie_rating] all: mean 1.40 over 100 records", "Drama", "1"},
		{"other field", "- [video_liked] all: mean 0.10 over 100 records", "Drama", "3"},
		{"genre beats all", "- [movie_rating] all: mean 3.50 over 200 records\n- [movie_rating] genre=Comedy: mean 1.50 over 40 records", "Comedy", "2"},
		{"genre not matching", "- [movie_rating] all: mean 3.50 over 200 records\n- [movie_rating] genre=Comedy: mean 1.50 over 40 records", "Drama", "3"},
		{"conjunction", "- [movie_rating] genre=Drama & decade=1990s: mean 4.90 over 50 records", "Drama", "3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := hint.Predict{Field: "movie_rating", Kind: "multi_class", Classes: ratings, Target: target(tc.genre), Memory: tc.memory}
			a, err := New(Config{}, Readers{}).Predict("predict", p)
			if err != nil {
				t.Fatal(err)
			}
			if a.Label != tc.want {
				t.Errorf("rating %s, want %s", a.Label, tc.want)
			}
		})
	}
}

func TestNonNumericClasses(t *testing.T) {
	p := hint.Predict{Field: "f", Kind: "multi_class", Classes: []string{"low", "mid", "high"},
		Memory: "- [f] all: mean 2.9 over 50 records"}
	a, err := New(Config{}, Readers{}).Predict("predict", p)
	if err != nil || a.Label != "high" {
		t.Errorf("got %q, %v; want high", a.Label, err)
	}
	p.Memory = ""
	if a, _ := New(Config{}, Readers{}).Predict("predict", p); a.Label != "mid" {
		t.Errorf("no information: %q, want the middle class", a.Label)
	}
}

func video(liked float64, author string) hint.Event {
	return hint.Event{Scene: "视频浏览", Attrs: map[string]string{"author": author},
		Outcomes: map[string]float64{"video_liked": liked}}
}

func TestBinary(t *testing.T) {
	ad := func(liked float64) hint.Event {
		return hint.Event{Scene: "广告", Outcomes: map[string]float64{"video_liked": liked}}
	}
	mostlyNo := []hint.Event{video(0, "a"), video(0, "b"), video(0, "c"), video(1, "fav"), video(1, "fav"), video(1, "fav")}
	for _, tc := range []struct {
		name    string
		visible []hint.Event
		author  string
		memory  string
		thr     float64
		want    string
	}{
		{"no information", nil, "x", "", 0, "No"},
		{"scene mostly yes", []hint.Event{video(1, "a"), video(1, "b"), video(1, "c"), video(0, "d")}, "x", "", 0, "Yes"},
		{"other scene ignored", []hint.Event{ad(1), ad(1), ad(1), ad(1), video(0, "a")}, "x", "", 0, "No"},
		{"favourite author", mostlyNo, "fav", "", 0, "Yes"},
		{"unknown author", append(mostlyNo, video(0, "d"), video(0, "e")), "x", "", 0, "No"},
		{"memory rate", nil, "x", "- [video_liked] scene=视频浏览: mean 0.90 over 30 records", 0, "Yes"},
		{"borderline", nil, "x", "- [video_liked] all: mean 0.45 over 40 records", 0, "No"},
		{"bias leans yes", nil, "x", "- [video_liked] all: mean 0.45 over 40 records\n- [video_liked] bias: shift +0.10", 0, "Yes"},
		{"bias of other field", nil, "x", "- [video_liked] all: mean 0.45 over 40 records\n- [other] bias: shift +0.10", 0, "No"},
		{"config threshold", nil, "x", "- [video_liked] all: mean 0.45 over 40 records", 0.3, "Yes"},
		{"bias clamped", nil, "x", "- [video_liked] all: mean 0.02 over 40 records\n- [video_liked] bias: shift +5", 0, "No"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := hint.Predict{Field: "video_liked", Kind: "binary", Visible: tc.visible,
				Target: hint.Event{Scene: "视频浏览", Attrs: map[string]string{"author": tc.author}}, Memory: tc.memory}
			a, err := New(Config{Threshold: tc.thr}, Readers{}).Predict("predict", p)
			if err != nil {
				t.Fatal(err)
			}
			if a.Label != tc.want {
				t.Errorf("answer %s, want %s (P=%.3f)", a.Label, tc.want, estimate(p, ParseFacts(tc.memory), 0.5))
			}
		})
	}
}

func TestPredictErrors(t *testing.T) {
	for i, p := range []hint.Predict{
		{Kind: "binary"},
		{Field: "f", Kind: "ranking"},
		{Field: "f", Kind: "multi_class"},
	} {
		if _, err := New(Config{}, Readers{}).Predict("pramem.trial", p); err == nil {
			t.Errorf("case %d: no error", i)
		} else if want := "pramem.trial"; !strings.Contains(err.Error(), want) {
			t.Errorf("case %d: error %q does not name %q", i, err, want)
		}
	}
}
