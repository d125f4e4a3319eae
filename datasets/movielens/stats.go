package movielens

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
	s := Stats{Ratings: len(ratings)}
	if len(ratings) == 0 {
		return s
	}
	s.MinTimestamp, s.MaxTimestamp = ratings[0].Time, ratings[0].Time
	var maxUser, maxMovie int32
	for _, r := range ratings {
		s.MinTimestamp = min(s.MinTimestamp, r.Time)
		s.MaxTimestamp = max(s.MaxTimestamp, r.Time)
		maxUser, maxMovie = max(maxUser, r.User), max(maxMovie, r.Movie)
	}
	// IDs are positive; dense counters beat maps by far when the IDs are
	// as compact as MovieLens's (a map takes over for sparse IDs).
	const dense = 1 << 24
	if maxUser < dense && maxMovie < dense {
		perUser := make([]int32, maxUser+1)
		rated := make([]bool, maxMovie+1)
		for _, r := range ratings {
			perUser[r.User]++
			rated[r.Movie] = true
		}
		for _, c := range perUser {
			if c > 0 {
				s.Users++
			}
			if c > LongHistoryThreshold {
				s.UsersOver300++
			}
		}
		for _, ok := range rated {
			if ok {
				s.Movies++
			}
		}
		return s
	}
	perUser := make(map[int32]int, 8192)
	movies := make(map[int32]struct{}, 4096)
	for _, r := range ratings {
		perUser[r.User]++
		movies[r.Movie] = struct{}{}
	}
	s.Users, s.Movies = len(perUser), len(movies)
	for _, c := range perUser {
		if c > LongHistoryThreshold {
			s.UsersOver300++
		}
	}
	return s
}

// Stats summarises the dataset's ratings.
func (d *Dataset) Stats() Stats { return ComputeStats(d.Ratings) }
