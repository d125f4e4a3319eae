package movielens

import (
	"runtime"
)

// Stats summarises ratings.dat. The official ML-1M gives 1,000,209 ratings,
// 6,040 users, 3,706 rated movies and 955 users with more than 300 ratings.
type Stats struct {
	Ratings      int   `json:"ratings"`
	Users        int   `json:"users"`
	Movies       int   `json:"movies"` // distinct movies that have a rating
	UsersOver300 int   `json:"users_over_300"`
	MinTimestamp int64 `json:"min_timestamp"`
	MaxTimestamp int64 `json:"max_timestamp"`
}

// LongHistoryThreshold is PraMem's cut: users with more ratings than this.
const LongHistoryThreshold = 300

// ComputeStats summarises a ratings slice.
func ComputeStats(ratings []Rating) Stats {
	var t tally
	for _, r := range ratings {
		t.add(r)
	}
	return t.stats()
}

// Stats summarises the dataset's ratings.
func (d *Dataset) Stats() Stats { return ComputeStats(d.Ratings) }

// denseIDs bounds the IDs counted in slices; larger ones go to maps. Dense
// counters beat maps by far on IDs as compact as MovieLens's, and the bound
// keeps a hostile ID from sizing a slice.
const denseIDs = 1 << 20

// tally accumulates Stats over ratings without keeping them, so a summary
// of a large file needs no slice of its ratings.
type tally struct {
	n            int
	minT, maxT   int64
	perUser      []int32 // index: user ID < denseIDs
	rated        []bool  // index: movie ID < denseIDs
	sparseUsers  map[int32]int
	sparseMovies map[int32]bool
}

func (t *tally) add(r Rating) {
	if t.n == 0 {
		t.minT, t.maxT = r.Time, r.Time
	}
	t.n++
	t.minT, t.maxT = min(t.minT, r.Time), max(t.maxT, r.Time)
	if u := int(r.User); u < denseIDs {
		if u >= len(t.perUser) {
			t.perUser = grow(t.perUser, u)
		}
		t.perUser[u]++
	} else {
		if t.sparseUsers == nil {
			t.sparseUsers = map[int32]int{}
		}
		t.sparseUsers[r.User]++
	}
	if m := int(r.Movie); m < denseIDs {
		if m >= len(t.rated) {
			t.rated = grow(t.rated, m)
		}
		t.rated[m] = true
	} else {
		if t.sparseMovies == nil {
			t.sparseMovies = map[int32]bool{}
		}
		t.sparseMovies[r.Movie] = true
	}
}

// grow extends s so that index i exists, with room to spare so that IDs
// arriving in rising order do not regrow it each time.
func grow[T any](s []T, i int) []T {
	n := min(max(i+1, 2*len(s), 1024), denseIDs)
	return append(s, make([]T, n-len(s))...)
}

// merge adds o's counts to t.
func (t *tally) merge(o *tally) {
	if o.n == 0 {
		return
	}
	if t.n == 0 {
		t.minT, t.maxT = o.minT, o.maxT
	}
	t.n += o.n
	t.minT, t.maxT = min(t.minT, o.minT), max(t.maxT, o.maxT)
	if len(o.perUser) > len(t.perUser) {
		t.perUser = append(t.perUser, make([]int32, len(o.perUser)-len(t.perUser))...)
	}
	for u, c := range o.perUser {
		t.perUser[u] += c
	}
	if len(o.rated) > len(t.rated) {
		t.rated = append(t.rated, make([]bool, len(o.rated)-len(t.rated))...)
	}
	for m, ok := range o.rated {
		t.rated[m] = t.rated[m] || ok
	}
	for u, c := range o.sparseUsers {
		if t.sparseUsers == nil {
			t.sparseUsers = map[int32]int{}
		}
		t.sparseUsers[u] += c
	}
	for m := range o.sparseMovies {
		if t.sparseMovies == nil {
			t.sparseMovies = map[int32]bool{}
		}
		t.sparseMovies[m] = true
	}
}

func (t *tally) stats() Stats {
	s := Stats{Ratings: t.n, MinTimestamp: t.minT, MaxTimestamp: t.maxT}
	count := func(c int) {
		if c > 0 {
			s.Users++
		}
		if c > LongHistoryThreshold {
			s.UsersOver300++
		}
	}
	for _, c := range t.perUser {
		count(int(c))
	}
	for _, c := range t.sparseUsers {
		count(c)
	}
	for _, ok := range t.rated {
		if ok {
			s.Movies++
		}
	}
	s.Movies += len(t.sparseMovies)
	return s
}

// RatingsStats summarises the contents of ratings.dat without keeping its
// ratings: the file is cut into one part per CPU as in ParseRatings, each
// part tallied in parallel, the tallies merged. A bad line sends the whole
// file through the sequential parser, so the error names the right line.
// The result equals ComputeStats of ParseRatings's ratings.
func RatingsStats(data []byte, name string) (Stats, error) {
	parts := splitLines(data, runtime.GOMAXPROCS(0), 4<<20)
	tallies := make([]tally, len(parts))
	errs := inParallel(parts, func(i int, part []byte) error {
		return eachRating(part, name, tallies[i].add)
	})
	for i := range parts {
		if errs[i] != nil {
			if len(parts) > 1 {
				if err := eachRating(data, name, func(Rating) {}); err != nil {
					return Stats{}, err
				}
			}
			return Stats{}, errs[i]
		}
	}
	for i := 1; i < len(tallies); i++ {
		tallies[0].merge(&tallies[i])
	}
	return tallies[0].stats(), nil
}
