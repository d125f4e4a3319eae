package synth_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/datasets/movielens"
	"github.com/memharness/memharness/datasets/synth"
)

func TestWriteMovieLensDeterministic(t *testing.T) {
	cfg := synth.MovieLensConfig{Users: 12, Movies: 300, Seed: 7}
	a, b := t.TempDir(), t.TempDir()
	if err := synth.WriteMovieLens(a, cfg); err != nil {
		t.Fatal(err)
	}
	if err := synth.WriteMovieLens(b, cfg); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ratings.dat", "movies.dat", "users.dat"} {
		x, err := os.ReadFile(filepath.Join(a, name))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two runs with the same config", name)
		}
		if len(x) == 0 {
			t.Errorf("%s is empty", name)
		}
	}
	// A different seed must change the data.
	c := t.TempDir()
	cfg.Seed = 8
	if err := synth.WriteMovieLens(c, cfg); err != nil {
		t.Fatal(err)
	}
	x, _ := os.ReadFile(filepath.Join(a, "ratings.dat"))
	z, _ := os.ReadFile(filepath.Join(c, "ratings.dat"))
	if bytes.Equal(x, z) {
		t.Error("seeds 7 and 8 gave identical ratings")
	}
}

// TestDefaultsLoadAndPlantedSignal writes the embedded-suite default,
// loads it with the real loader and checks the planted structure.
func TestDefaultsLoadAndPlantedSignal(t *testing.T) {
	dir := t.TempDir()
	cfg := synth.MovieLensConfig{Seed: 1}
	if err := synth.WriteMovieLens(dir, cfg); err != nil {
		t.Fatal(err)
	}
	ds, err := movielens.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	st := ds.Stats()
	if st.Users != 80 || len(ds.Users) != 80 {
		t.Errorf("users = %d (users.dat %d), want 80", st.Users, len(ds.Users))
	}
	if len(ds.Movies) != 1500 {
		t.Errorf("movies.dat has %d movies, want 1500", len(ds.Movies))
	}
	if st.UsersOver300 < 40 {
		t.Errorf("users over 300 = %d, want >= 40", st.UsersOver300)
	}
	if span := st.MaxTimestamp - st.MinTimestamp; span < 2*365*86400 || span > 3*365*86400+86400 {
		t.Errorf("time span %d s, want about three years", span)
	}
	for _, m := range ds.Movies {
		if m.Year < 1919 || m.Year > 2000 || len(m.Genres) == 0 {
			t.Fatalf("bad movie %+v", m)
		}
	}

	truth, err := synth.GenerateMovieLens(cfg)
	if err != nil {
		t.Fatal(err)
	}
	byUser := map[int32][]movielens.Rating{}
	for _, r := range ds.Ratings {
		byUser[r.User] = append(byUser[r.User], r)
	}
	checked := 0
	shareSum := 0.0
	var early, late, earlyN, lateN int // loved ratings in the first and last halves
	for _, u := range truth.Users {
		rs := byUser[u.ID]
		if len(rs) <= 300 {
			continue
		}
		if !slices.IsSortedFunc(rs, func(a, b movielens.Rating) int { return int(a.Time - b.Time) }) {
			t.Errorf("user %d: ratings not chronological", u.ID)
		}
		var lovedSum, hatedSum float64
		var lovedN, hatedN int
		for _, r := range rs {
			gs := ds.Movies[r.Movie].Genres
			if slices.ContainsFunc(gs, func(g string) bool { return slices.Contains(u.Loved, g) }) {
				lovedSum += float64(r.Value)
				lovedN++
			}
			if slices.ContainsFunc(gs, func(g string) bool { return slices.Contains(u.Hated, g) }) {
				hatedSum += float64(r.Value)
				hatedN++
			}
		}
		for i, r := range rs {
			if slices.ContainsFunc(ds.Movies[r.Movie].Genres, func(g string) bool { return slices.Contains(u.Loved, g) }) {
				if i < len(rs)/2 {
					early++
				} else {
					late++
				}
			}
		}
		earlyN, lateN = earlyN+len(rs)/2, lateN+len(rs)-len(rs)/2
		if len(u.Hated) != 2 || !slices.Contains([]string{"Action", "Adventure", "Children's", "Comedy", "Crime", "Horror", "Romance", "Sci-Fi", "Thriller"}, u.Hated[0]) ||
			slices.Contains(u.Loved, u.Hated[1]) {
			t.Errorf("user %d: hated %v, want a common genre and a rare one not loved (%v)", u.ID, u.Hated, u.Loved)
		}
		share := float64(lovedN) / float64(len(rs))
		shareSum += share
		if share < 0.015 || share > 0.08 {
			t.Errorf("user %d: loved genres %v are %.1f%% of ratings, want about 3-5%%", u.ID, u.Loved, 100*share)
		}
		if lovedN < 5 || hatedN < 5 {
			t.Errorf("user %d: too few loved (%d) or hated (%d) ratings", u.ID, lovedN, hatedN)
			continue
		}
		gap := lovedSum/float64(lovedN) - hatedSum/float64(hatedN)
		if gap <= 1 {
			t.Errorf("user %d: loved-minus-hated mean rating %.2f, want > 1 star", u.ID, gap)
		}
		checked++
	}
	if mean := shareSum / float64(checked); mean < 0.03 || mean > 0.05 {
		t.Errorf("mean loved share %.3f, want 0.03-0.05", mean)
	}
	// Loved genres are watched mostly early on: a recent window shows few.
	if e, l := float64(early)/float64(earlyN), float64(late)/float64(lateN); e < 1.5*l {
		t.Errorf("loved share %.3f in the first halves, %.3f in the second; want at least 1.5 times as high early", e, l)
	}
	if checked < 40 {
		t.Errorf("checked %d long-history users, want >= 40", checked)
	}
}

func TestWriteRatingsLinesParses(t *testing.T) {
	var buf bytes.Buffer
	if err := synth.WriteRatingsLines(&buf, 1000, 3); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n"); n != 1000 {
		t.Fatalf("%d lines, want 1000", n)
	}
	rs, err := movielens.ParseRatings(buf.Bytes(), "ratings.dat")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1000 {
		t.Errorf("parsed %d ratings", len(rs))
	}
}

func TestConfigErrors(t *testing.T) {
	for _, cfg := range []synth.MovieLensConfig{{Users: -1}, {Movies: 50}} {
		if err := synth.WriteMovieLens(t.TempDir(), cfg); err == nil {
			t.Errorf("config %+v: want error", cfg)
		}
	}
}
