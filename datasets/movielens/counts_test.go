package movielens

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStatsKnownCounts writes official-format files whose counts are known by
// construction, around the ">300 ratings" threshold: users with exactly 300
// ratings do not count, users with 301 do, and movies listed in movies.dat
// but never rated are not counted as movies.
func TestStatsKnownCounts(t *testing.T) {
	perUser := []int{20, 300, 301, 450, 299, 1000} // 301, 450 and 1000 are over 300
	const movies, unrated = 1200, 7
	dir := t.TempDir()
	var ratings, moviesDat, usersDat strings.Builder
	total := 0
	ts := int64(956703932)
	minTS, maxTS := ts, ts
	rated := map[int]bool{}
	for u, n := range perUser {
		fmt.Fprintf(&usersDat, "%d::F::25::4::02139\n", u+1)
		for k := 0; k < n; k++ {
			m := 1 + (u*37+k)%(movies-unrated)
			rated[m] = true
			fmt.Fprintf(&ratings, "%d::%d::%d::%d\n", u+1, m, 1+k%5, ts)
			maxTS = ts
			ts += 61
			total++
		}
	}
	for m := 1; m <= movies; m++ {
		fmt.Fprintf(&moviesDat, "%d::Movie %d (1999)::Drama|Comedy\n", m, m)
	}
	for name, body := range map[string]string{RatingsFile: ratings.String(), "movies.dat": moviesDat.String(), "users.dat": usersDat.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := Stats{Ratings: total, Users: len(perUser), Movies: len(rated), UsersOver300: 3, MinTimestamp: minTS, MaxTimestamp: maxTS}
	if got := d.Stats(); got != want {
		t.Errorf("Stats() = %+v\nwant      %+v", got, want)
	}
	if len(rated) >= movies {
		t.Fatalf("test setup: every movie rated; the unrated ones must exist")
	}
}
