package movielens

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/datasets/sampling"
)

var update = flag.Bool("update", false, "rewrite testdata goldens")

func loadSmall(t *testing.T) *Dataset {
	t.Helper()
	d, err := Load(smallDir)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// smallOpts makes the tiny fixture behave like the real setup: users with
// more than 5 ratings, 2 targets each.
func smallOpts() Options { return Options{MinRatings: 5, TestPerUser: 2} }

// goldenInstance is the JSON view of an instance plus its history length.
type goldenInstance struct {
	behavior.Instance
	HistoryLen  int    `json:"history_len"`
	HistoryLast string `json:"history_last_time,omitempty"`
}

func TestBuildInstancesGolden(t *testing.T) {
	for _, lang := range []string{LangZH, LangEN} {
		t.Run(lang, func(t *testing.T) {
			opts := smallOpts()
			opts.Language = lang
			sets, err := BuildInstances(loadSmall(t), opts)
			if err != nil {
				t.Fatal(err)
			}
			var view []goldenInstance
			for _, s := range sets {
				for _, in := range s.Instances {
					g := goldenInstance{Instance: in, HistoryLen: len(in.History)}
					if n := len(in.History); n > 0 {
						g.HistoryLast = in.History[n-1].Time
					}
					view = append(view, g)
				}
			}
			got, err := json.MarshalIndent(view, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "instances_"+lang+".golden.json")
			if *update {
				if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(strings.TrimSpace(string(want)), string(got)); diff != "" {
				t.Errorf("golden mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBuildInstancesInvariants(t *testing.T) {
	d := loadSmall(t)
	sets, err := BuildInstances(d, smallOpts())
	if err != nil {
		t.Fatal(err)
	}
	// Users 2 (8 ratings), 10 (12) and 100 (15) qualify; 7 (3) does not.
	// Numeric order puts 100 last.
	var users []string
	for _, s := range sets {
		users = append(users, s.User)
	}
	if diff := cmp.Diff([]string{"2", "10", "100"}, users); diff != "" {
		t.Fatalf("users (-want +got):\n%s", diff)
	}
	for _, s := range sets {
		var mine []Rating
		for _, r := range d.Ratings {
			if fmt.Sprint(r.User) == s.User {
				mine = append(mine, r)
			}
		}
		cut := len(mine) * 4 / 5
		if len(s.Instances) != min(2, len(mine)-cut) {
			t.Errorf("user %s: %d instances", s.User, len(s.Instances))
		}
		var full []behavior.Event
		for k, in := range s.Instances {
			if want := fmt.Sprintf("movielens/%s/%d/movie_rating", s.User, k); in.ID != want {
				t.Errorf("ID %q, want %q", in.ID, want)
			}
			if in.Index != k || in.PracticeCut != cut || in.Profile != s.Profile || in.Profile == "" {
				t.Errorf("%s: index %d cut %d profile %q", in.ID, in.Index, in.PracticeCut, in.Profile)
			}
			if len(in.History) < cut || len(in.History) >= len(mine) {
				t.Errorf("%s: history %d outside [%d, %d)", in.ID, len(in.History), cut, len(mine))
			}
			if k > 0 && len(in.History) <= len(s.Instances[k-1].History) {
				t.Errorf("%s: targets not in time order", in.ID)
			}
			if in.Target.Result != "" || in.Target.Outcomes != nil {
				t.Errorf("%s: target leaks the answer: %+v", in.ID, in.Target)
			}
			if in.Question.Kind != behavior.MultiClass || !slices.Contains(in.Question.Classes, in.Question.Label) {
				t.Errorf("%s: bad question %+v", in.ID, in.Question)
			}
			if in.Target.Scene != sampling.SceneMovie {
				t.Errorf("%s: scene %q", in.ID, in.Target.Scene)
			}
			// Histories are prefixes of one shared slice.
			if full == nil {
				full = in.History[:len(in.History):len(in.History)]
			} else if len(in.History) > 0 && len(full) > 0 && &in.History[0] != &full[0] {
				t.Errorf("%s: history is a copy, want a shared backing array", in.ID)
			}
			if cap(in.History) != len(in.History) {
				t.Errorf("%s: history capacity %d exceeds its length %d", in.ID, cap(in.History), len(in.History))
			}
			for i := 1; i < len(in.History); i++ {
				if in.History[i].Time < in.History[i-1].Time {
					t.Fatalf("%s: history not chronological at %d", in.ID, i)
				}
			}
			if n := len(in.History); n > 0 && in.History[n-1].Time > in.Target.Time {
				t.Errorf("%s: history event after the target", in.ID)
			}
			// The label is the rating given to the target movie at that time.
			label := in.Question.Label
			found := false
			for _, r := range mine {
				if fmt.Sprint(r.Movie) == in.Target.Attrs["movie_id"] && fmt.Sprint(r.Value) == label {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: label %s is not the user's rating of movie %s", in.ID, label, in.Target.Attrs["movie_id"])
			}
			for _, h := range in.History {
				if h.Outcomes["movie_rating"] < 1 || h.Result == "" {
					t.Fatalf("%s: history event without its rating: %+v", in.ID, h)
				}
			}
		}
	}
}

func TestBuildInstancesOptions(t *testing.T) {
	d := loadSmall(t)
	first, err := BuildInstances(d, Options{MinRatings: 5, TestPerUser: 1, MaxUsers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 2 || first[0].User != "2" || first[1].User != "10" {
		t.Fatalf("MaxUsers=2 gave %d users (%v)", len(first), first)
	}
	ids := func(sets []behavior.UserSet) []int {
		var out []int
		for _, s := range sets {
			for _, in := range s.Instances {
				out = append(out, len(in.History))
			}
		}
		return out
	}
	again, _ := BuildInstances(d, Options{MinRatings: 5, TestPerUser: 1, MaxUsers: 2})
	if diff := cmp.Diff(ids(first), ids(again)); diff != "" {
		t.Errorf("not deterministic:\n%s", diff)
	}
	// An offsets table entry changes that user's seed and hence its draw.
	changed := false
	for off := int64(1); off < 20 && !changed; off++ {
		alt, _ := BuildInstances(d, Options{MinRatings: 5, TestPerUser: 1, MaxUsers: 2,
			Offsets: map[string]int64{"10": off}})
		changed = !slices.Equal(ids(first), ids(alt))
	}
	if !changed {
		t.Error("seed offsets never changed the sample")
	}
	if _, err := BuildInstances(d, Options{Language: "fr"}); err == nil {
		t.Error("unknown language: want error")
	}
	none, err := BuildInstances(d, Options{})
	if err != nil || len(none) != 0 {
		t.Errorf("default threshold 300 on a tiny set: %d users, err %v", len(none), err)
	}
}

func TestBuildInstancesUnknownMovie(t *testing.T) {
	d := loadSmall(t)
	delete(d.Movies, d.Ratings[0].Movie)
	_, err := BuildInstances(d, Options{MinRatings: 1})
	if err == nil || !strings.Contains(err.Error(), "missing from movies.dat") {
		t.Errorf("err = %v", err)
	}
}

func TestRenderText(t *testing.T) {
	m := Movie{Name: "Heat", Year: 1995, Genres: []string{"Action", "Crime"}}
	tests := []struct{ got, want string }{
		{MovieContext(m, LangZH), "这部电影名为《Heat》，于1995年上映，类型为动作、犯罪。"},
		{MovieContext(m, LangEN), "This film is called Heat, released in 1995, genre: Action, Crime."},
		{MovieContext(Movie{Name: "X"}, LangEN), "This film is called X, released in an unknown year, genre: unknown."},
		{RatingResult(4, LangZH), "该用户给这部电影打了4分（满分5分）。"},
		{RatingResult(2, LangEN), "The user rated this film 2 (out of 5)."},
		{Profile(User{Gender: "F", Age: 25, Occupation: 12}, LangZH), "该用户是一位女性，年龄段为25-34岁，职业是程序员。"},
		{Profile(User{Gender: "M", Age: 1, Occupation: 10}, LangEN), "The user is a man aged under 18 whose occupation is K-12 student."},
		{OccupationName(21, LangEN), ""},
		{AgeBand(2, LangZH), ""},
	}
	for i, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%d: got %q, want %q", i, tc.got, tc.want)
		}
	}
}
