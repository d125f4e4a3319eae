package sim

import (
	"testing"

	"github.com/memharness/memharness/llm/hint"
)

func rateLabel(t *testing.T, p hint.Predict) string {
	t.Helper()
	p.Field, p.Kind, p.Classes = "movie_rating", "multi_class", ratings
	a, err := New(Config{}, Readers{}).Predict("predict", p)
	if err != nil {
		t.Fatal(err)
	}
	return a.Label
}

// TestCalibrationSpreadsClasses: a user who rates each genre consistently
// gets every one of the five classes back, not only the middle ones.
func TestCalibrationSpreadsClasses(t *testing.T) {
	genres := []string{"Horror", "Comedy", "Drama", "Action", "War"} // rated 1..5
	var visible []hint.Event
	for i := range 60 {
		g := (i * 7) % len(genres) // interleaved
		visible = append(visible, movie(genres[g], float64(g+1)))
	}
	for g, name := range genres {
		if got, want := rateLabel(t, hint.Predict{Visible: visible, Target: target(name)}), itoa(g+1); got != want {
			t.Errorf("%s: rating %s, want %s", name, got, want)
		}
	}
}

// TestCalibrationUserScale: with nothing similar to the target, the answer
// is the user's own usual rating, not the scale's middle.
func TestCalibrationUserScale(t *testing.T) {
	for _, tc := range []struct {
		name string
		ys   []float64
		want string
	}{
		{"harsh", []float64{1, 2, 2, 2, 3}, "2"},
		{"lenient", []float64{4, 5, 5, 5, 5}, "5"},
		{"skewed", []float64{1, 4, 4, 4, 5}, "4"}, // mean 3.6, but the user says 4
	} {
		var visible []hint.Event
		for range 8 {
			for _, y := range tc.ys {
				visible = append(visible, movie("Drama", y))
			}
		}
		if got := rateLabel(t, hint.Predict{Visible: visible, Target: target("Western")}); got != tc.want {
			t.Errorf("%s: rating %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestLongRangeLovedGenre: a loved genre the user watched only early on is
// invisible in a short recent window, but a long history or a summary of
// the old records recovers it.
func TestLongRangeLovedGenre(t *testing.T) {
	var history []hint.Event
	background := []float64{2, 3, 3, 4}
	for i := range 400 {
		if i < 200 && i%10 == 0 {
			history = append(history, movie("Film-Noir", 5))
			continue
		}
		history = append(history, movie([]string{"Drama", "Comedy"}[i%2], background[i%4]))
	}
	window := history[len(history)-110:]
	noir := target("Film-Noir")
	if got := rateLabel(t, hint.Predict{Visible: window, Target: noir}); got != "3" {
		t.Errorf("short window: rating %s, want the user's usual 3", got)
	}
	if got := rateLabel(t, hint.Predict{Visible: history, Target: noir}); got != "5" {
		t.Errorf("long history: rating %s, want 5", got)
	}
	// A summary of the old records recovers it too: see the prediction
	// path's summary reader (methods/predict).
}
