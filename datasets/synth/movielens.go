package synth

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// MovieLensGenres are the 18 official MovieLens-1M genre names.
func MovieLensGenres() []string {
	return []string{
		"Action", "Adventure", "Animation", "Children's", "Comedy", "Crime",
		"Documentary", "Drama", "Fantasy", "Film-Noir", "Horror", "Musical",
		"Mystery", "Romance", "Sci-Fi", "Thriller", "War", "Western",
	}
}

// genreWeight is how common a genre is as a movie's genre; the rare ones
// are the candidates for a user's loved genres.
func genreWeight(g string) float64 {
	switch g {
	case "Drama":
		return 25
	case "Comedy":
		return 20
	case "Action":
		return 10
	case "Thriller":
		return 9
	case "Romance":
		return 8
	case "Horror":
		return 6
	case "Adventure", "Sci-Fi":
		return 5
	case "Crime", "Children's":
		return 4
	case "War":
		return 3
	case "Mystery", "Musical", "Animation", "Documentary":
		return 2.5
	case "Western", "Fantasy", "Film-Noir":
		return 2.2
	}
	return 1
}

// rareGenres may be loved; commonGenres may be hated.
func rareGenres() []string {
	return []string{"Animation", "Documentary", "Fantasy", "Film-Noir", "Musical", "Mystery", "War", "Western"}
}

func commonGenres() []string {
	return []string{"Action", "Adventure", "Children's", "Comedy", "Crime", "Horror", "Romance", "Sci-Fi", "Thriller"}
}

// MovieLensConfig sizes the synthetic MovieLens-1M copy. Zero fields take
// the defaults of the embedded suite.
type MovieLensConfig struct {
	Users  int    // default 80; about 5/8 of them get 320-700 ratings
	Movies int    // default 1500
	Seed   uint64 // PCG seed; the same config gives byte-identical files
}

func (c MovieLensConfig) withDefaults() (MovieLensConfig, error) {
	if c.Users == 0 {
		c.Users = 80
	}
	if c.Movies == 0 {
		c.Movies = 1500
	}
	if c.Users < 1 {
		return c, fmt.Errorf("synth: MovieLens users must be positive, got %d", c.Users)
	}
	if c.Movies < 200 {
		return c, fmt.Errorf("synth: MovieLens needs at least 200 movies, got %d", c.Movies)
	}
	return c, nil
}

// MLMovie is one generated movie.
type MLMovie struct {
	ID      int32
	Title   string // "Name (YYYY)", ASCII
	Year    int
	Genres  []string
	Quality float64 // latent quality, in rating-scale units
}

// MLUser is one generated user with the truth planted in its ratings.
type MLUser struct {
	ID         int32
	Gender     string
	Age        int
	Occupation int
	Zip        string
	// Loved are 1-2 rare genres rated high (+lovedBonus), which make up
	// only ~3-5% of the user's ratings, watched mostly early in the
	// history; Hated are one common and one rare genre rated low
	// (-hatedPenalty), Hated[0] being the common one.
	Loved []string
	Hated []string
	// Offset (harsh < 0 < lenient) and Scale (compressed < 1 < wide) are
	// the user's rating-scale habits.
	Offset, Scale float64
}

// MLRating is one generated rating.
type MLRating struct {
	User, Movie int32
	Value       int8
	Time        int64
}

// MovieLensData is a generated dataset and its planted truth.
type MovieLensData struct {
	Movies  []MLMovie
	Users   []MLUser
	Ratings []MLRating // grouped by user ID, chronological within a user
}

// Planted taste, in latent rating units before the user's scale habit.
// A rating is round(3.55 + Offset + Scale·(quality + taste + planted +
// noise)), clamped to 1..5: quality is the movie's (sd qualitySD, unseen by
// any reader), taste the mean over the movie's genres of the user's genre
// preference (sd tasteSD, drifting by up to ±driftSD/2 over the history),
// planted +lovedBonus when a genre is loved and -hatedPenalty when one is
// hated, and noise per rating (sd noiseSD). Genre preference is most of the
// predictable signal, so how many records of the target's genres a reader
// sees (rare genres: few in a recent window) decides how well it predicts.
const (
	lovedBonus   = 2.0
	hatedPenalty = 2.0
	qualitySD    = 0.4
	tasteSD      = 0.55
	driftSD      = 0.4
	noiseSD      = 0.45
)

// Time frame: about three years from late April 2000, like ML-1M.
const (
	mlStart = 956_700_000
	mlSpan  = 3 * 365 * 24 * 3600
)

// GenerateMovieLens builds the dataset in memory.
func GenerateMovieLens(cfg MovieLensConfig) (*MovieLensData, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6d6c2d316d)) // stream tag "ml-1m"
	d := &MovieLensData{Movies: genMovies(rng, cfg.Movies)}

	// About 5/8 of the users have long histories; which ones is random.
	heavy := make([]bool, cfg.Users)
	for _, i := range rng.Perm(cfg.Users)[:(cfg.Users*5+7)/8] {
		heavy[i] = true
	}
	for i := range cfg.Users {
		u := genUser(rng, int32(i+1))
		d.Users = append(d.Users, u)
		n := 20 + rng.IntN(231) // 20..250
		if heavy[i] {
			n = 320 + rng.IntN(381) // 320..700
		}
		n = min(n, cfg.Movies*6/10)
		d.Ratings = append(d.Ratings, genRatings(rng, u, d.Movies, n)...)
	}
	return d, nil
}

func genMovies(rng *rand.Rand, n int) []MLMovie {
	genres := MovieLensGenres()
	weights := make([]float64, len(genres))
	for i, g := range genres {
		weights[i] = genreWeight(g)
	}
	movies := make([]MLMovie, n)
	for i := range movies {
		k := 1
		if rng.Float64() < 0.45 {
			k++
			if rng.Float64() < 0.25 {
				k++
			}
		}
		var gs []string
		for len(gs) < k {
			g := genres[weighted(rng, weights)]
			if !slices.Contains(gs, g) {
				gs = append(gs, g)
			}
		}
		slices.SortFunc(gs, func(a, b string) int { return cmp.Compare(a, b) })
		// Skew release years towards the 1990s, as in ML-1M.
		year := 2000 - int(math.Floor(math.Abs(rng.NormFloat64())*14))
		year = max(year, 1919)
		movies[i] = MLMovie{
			ID:      int32(i + 1),
			Title:   fmt.Sprintf("%s (%d)", movieName(rng), year),
			Year:    year,
			Genres:  gs,
			Quality: rng.NormFloat64() * qualitySD,
		}
	}
	return movies
}

func genUser(rng *rand.Rand, id int32) MLUser {
	ages := []int{1, 18, 25, 35, 45, 50, 56}
	ageW := []float64{3, 18, 35, 20, 8, 8, 4}
	u := MLUser{
		ID:         id,
		Gender:     "M",
		Age:        ages[weighted(rng, ageW)],
		Occupation: rng.IntN(21),
		Zip:        fmt.Sprintf("%05d", rng.IntN(100000)),
		Offset:     rng.Float64()*1.2 - 0.6,
		Scale:      0.65 + rng.Float64()*0.8,
	}
	if rng.Float64() < 0.3 {
		u.Gender = "F"
	}
	rare := rareGenres()
	rng.Shuffle(len(rare), func(i, j int) { rare[i], rare[j] = rare[j], rare[i] })
	u.Loved = rare[:1+rng.IntN(2)]
	slices.Sort(u.Loved)
	common := commonGenres()
	u.Hated = []string{common[rng.IntN(len(common))], rare[len(rare)-1]}
	return u
}

// genRatings draws n distinct movies for u and rates them in time order.
func genRatings(rng *rand.Rand, u MLUser, movies []MLMovie, n int) []MLRating {
	// Taste: a random preference per genre that drifts slowly and linearly
	// over the user's history; the planted loved/hated genres do not drift.
	genres := MovieLensGenres()
	base := make(map[string]float64, len(genres))
	drift := make(map[string]float64, len(genres))
	for _, g := range genres {
		base[g] = rng.NormFloat64() * tasteSD
		drift[g] = rng.NormFloat64() * driftSD
	}
	isLoved := func(m MLMovie) bool {
		for _, g := range m.Genres {
			if slices.Contains(u.Loved, g) {
				return true
			}
		}
		return false
	}
	// Popularity is heavy-tailed and leans towards good movies.
	var loved, other []int
	var lovedW, otherW []float64
	for i, m := range movies {
		w := math.Exp(rng.NormFloat64()*0.9 + m.Quality)
		if isLoved(m) {
			loved, lovedW = append(loved, i), append(lovedW, w)
		} else {
			other, otherW = append(other, i), append(otherW, w)
		}
	}
	// An exact count of loved-genre ratings keeps the planted genres rare
	// (3-5%) without binomial outliers; their positions lean towards the
	// start of the history (density 1.6 at the start, 0.4 at the end), so
	// a window of recent ratings shows few of them.
	lovedAt := make([]bool, n)
	for _, i := range earlyPositions(rng, n, int(math.Round((0.03+rng.Float64()*0.02)*float64(n)))) {
		lovedAt[i] = true
	}
	rated := make(map[int]bool, n)
	picks := make([]int, 0, n)
	for len(picks) < n {
		pool, w := other, otherW
		if lovedAt[len(picks)] {
			pool, w = loved, lovedW
		}
		if i, ok := drawUnrated(rng, pool, w, rated); ok {
			picks = append(picks, i)
		} else if i, ok := drawUnrated(rng, other, otherW, rated); ok {
			picks = append(picks, i)
		} else if i, ok := drawUnrated(rng, loved, lovedW, rated); ok {
			picks = append(picks, i)
		} else {
			break // every movie is rated
		}
		rated[picks[len(picks)-1]] = true
	}

	// The user's activity window inside the three years.
	start := int64(mlStart) + rng.Int64N(mlSpan*6/10)
	end := start + int64(float64(int64(mlStart)+mlSpan-start)*(0.2+0.8*rng.Float64()))
	times := make([]int64, len(picks))
	for i := range times {
		times[i] = start + rng.Int64N(end-start+1)
	}
	slices.Sort(times)

	out := make([]MLRating, len(picks))
	for i, mi := range picks {
		m := movies[mi]
		t := 0.5
		if len(picks) > 1 {
			t = float64(i) / float64(len(picks)-1)
		}
		taste := 0.0
		planted := 0.0
		for _, g := range m.Genres {
			taste += base[g] + drift[g]*(t-0.5)
			if slices.Contains(u.Loved, g) {
				planted = lovedBonus
			}
		}
		taste /= float64(len(m.Genres))
		if slices.ContainsFunc(m.Genres, func(g string) bool { return slices.Contains(u.Hated, g) }) {
			planted -= hatedPenalty
		}
		s := 3.55 + u.Offset + u.Scale*(m.Quality+taste+planted+rng.NormFloat64()*noiseSD)
		v := min(5, max(1, int(math.Round(s))))
		out[i] = MLRating{User: u.ID, Movie: m.ID, Value: int8(v), Time: times[i]}
	}
	return out
}

// earlyPositions picks k distinct positions of 0..n-1 with weight
// 1.6 - 1.2·t at relative position t (Efraimidis-Spirakis keys), returned
// in ascending order.
func earlyPositions(rng *rand.Rand, n, k int) []int {
	type key struct {
		k float64
		i int
	}
	keys := make([]key, n)
	for i := range keys {
		t := 0.5
		if n > 1 {
			t = float64(i) / float64(n-1)
		}
		keys[i] = key{math.Log(rng.Float64()) / (1.6 - 1.2*t), i}
	}
	slices.SortFunc(keys, func(a, b key) int { return cmp.Compare(b.k, a.k) })
	out := make([]int, 0, k)
	for _, x := range keys[:min(k, n)] {
		out = append(out, x.i)
	}
	slices.Sort(out)
	return out
}

// drawUnrated draws from pool by weight, skipping rated movies: a few
// weighted tries, then a scan from a random start so it always terminates.
func drawUnrated(rng *rand.Rand, pool []int, w []float64, rated map[int]bool) (int, bool) {
	if len(pool) == 0 {
		return 0, false
	}
	for range 32 {
		if i := pool[weighted(rng, w)]; !rated[i] {
			return i, true
		}
	}
	off := rng.IntN(len(pool))
	for k := range pool {
		if i := pool[(off+k)%len(pool)]; !rated[i] {
			return i, true
		}
	}
	return 0, false
}

// weighted returns an index drawn in proportion to w (linear scan; the
// slices here are small or drawn from rarely).
func weighted(rng *rand.Rand, w []float64) int {
	total := 0.0
	for _, x := range w {
		total += x
	}
	x := rng.Float64() * total
	for i, v := range w {
		if x < v {
			return i
		}
		x -= v
	}
	return len(w) - 1
}

// movieName makes an ASCII title from small word lists of our own.
func movieName(rng *rand.Rand) string {
	adj := []string{"Silent", "Broken", "Golden", "Last", "Hidden", "Crimson", "Endless", "Lonely",
		"Burning", "Frozen", "Wild", "Secret", "Distant", "Bitter", "Electric", "Quiet", "Restless",
		"Velvet", "Hollow", "Midnight", "Paper", "Iron", "Glass", "Lucky"}
	noun := []string{"River", "Garden", "Station", "Harbor", "Mirror", "Summer", "Highway", "Letter",
		"Kingdom", "Orchard", "Signal", "Island", "Promise", "Stranger", "Carnival", "Lantern",
		"Frontier", "Horizon", "Circus", "Avenue", "Winter", "Echo", "Compass", "Voyage"}
	a, b := adj[rng.IntN(len(adj))], noun[rng.IntN(len(noun))]
	switch rng.IntN(4) {
	case 0:
		return "The " + a + " " + b
	case 1:
		return a + " " + b
	case 2:
		return b + " of the " + noun[rng.IntN(len(noun))]
	default:
		return fmt.Sprintf("%s %s %d", a, b, 2+rng.IntN(3))
	}
}
