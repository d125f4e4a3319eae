package movielens

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/datasets/sampling"
)

// Instance-building constants.
const (
	// DatasetName prefixes instance IDs.
	DatasetName = "movielens"
	// Field is the question field of every instance.
	Field = "movie_rating"
	// Scene is the canonical scene of every event.
	Scene = sampling.SceneMovie
	// DefaultTestPerUser and DefaultSeed are the reference's values.
	DefaultTestPerUser = 30
	DefaultSeed        = 42
	timeLayout         = "2006-01-02 15:04:05"
)

// Options control BuildInstances. The zero value gives the reference setup.
type Options struct {
	// MaxUsers keeps the first N eligible users by numeric ID; 0 keeps all.
	MaxUsers int
	// TestPerUser is the number of test targets per user (0 means 30).
	TestPerUser int
	// Seed is the base sampler seed (0 means the reference's 42); each user
	// adds sampling.SeedOffset of its ID.
	Seed int64
	// Language of the rendered text: "zh" (default) or "en".
	Language string
	// Offsets is an optional seed_offsets table keyed by user ID string.
	Offsets map[string]int64
	// MinRatings keeps users with more than this many ratings (0 means 300).
	MinRatings int
}

func (o Options) withDefaults() (Options, error) {
	if o.TestPerUser <= 0 {
		o.TestPerUser = DefaultTestPerUser
	}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	if o.MinRatings <= 0 {
		o.MinRatings = LongHistoryThreshold
	}
	switch o.Language {
	case "":
		o.Language = LangZH
	case LangZH, LangEN:
	default:
		return o, fmt.Errorf("movielens: unknown language %q (want zh or en)", o.Language)
	}
	if o.MaxUsers < 0 {
		return o, fmt.Errorf("movielens: negative MaxUsers %d", o.MaxUsers)
	}
	return o, nil
}

// BuildInstances turns every user with more than MinRatings ratings into
// rating-prediction instances, in user-ID order:
//
//   - the user's ratings sorted by (timestamp, movie ID) become events;
//   - the first 80% are the base history, the last 20% the test window;
//   - TestPerUser targets are drawn from the test window with the balanced
//     sampler (one scene, all low-value: a time-bucketed uniform draw),
//     seeded with Seed + SeedOffset(user ID);
//   - each target's History is every earlier event (rolling history).
//
// All instances of a user share one backing slice of events, and events of
// the same movie share their Attrs map, so the maps must be treated as
// read-only.
func BuildInstances(d *Dataset, opts Options) ([]behavior.UserSet, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	byUser := eligibleRatings(d.Ratings, opts.MinRatings, opts.MaxUsers)
	users := make([]int32, 0, len(byUser))
	for u := range byUser {
		users = append(users, u)
	}
	slices.Sort(users)

	r := newRenderer(d, opts.Language)
	sets := make([]behavior.UserSet, 0, len(users))
	for _, uid := range users {
		set, err := r.userSet(uid, byUser[uid], opts)
		if err != nil {
			return nil, err
		}
		sets = append(sets, set)
	}
	return sets, nil
}

// eligibleRatings groups the ratings of the first maxUsers (0: all) users
// with more than minRatings ratings.
func eligibleRatings(ratings []Rating, minRatings, maxUsers int) map[int32][]Rating {
	counts := make(map[int32]int, 8192)
	for _, x := range ratings {
		counts[x.User]++
	}
	var ids []int32
	for u, c := range counts {
		if c > minRatings {
			ids = append(ids, u)
		}
	}
	slices.Sort(ids)
	if maxUsers > 0 && len(ids) > maxUsers {
		ids = ids[:maxUsers]
	}
	out := make(map[int32][]Rating, len(ids))
	for _, u := range ids {
		out[u] = make([]Rating, 0, counts[u])
	}
	for _, x := range ratings {
		if s, ok := out[x.User]; ok {
			out[x.User] = append(s, x)
		}
	}
	return out
}

// renderer caches the text and maps shared between events.
type renderer struct {
	d        *Dataset
	lang     string
	rawScene string
	movies   map[int32]movieView
	results  [6]string
	outcomes [6]map[string]float64
	question behavior.Question
}

type movieView struct {
	context string
	attrs   map[string]string
}

func newRenderer(d *Dataset, lang string) *renderer {
	r := &renderer{d: d, lang: lang, movies: make(map[int32]movieView, len(d.Movies)), rawScene: Scene}
	if lang == LangEN {
		r.rawScene = "Movie Rating"
	}
	for v := 1; v <= 5; v++ {
		r.results[v] = RatingResult(v, lang)
		r.outcomes[v] = map[string]float64{Field: float64(v)}
	}
	r.question = behavior.Question{
		Field:   Field,
		Kind:    behavior.MultiClass,
		Text:    QuestionText(lang),
		Classes: []string{"1", "2", "3", "4", "5"},
	}
	return r
}

func (r *renderer) movie(id int32) (movieView, error) {
	if v, ok := r.movies[id]; ok {
		return v, nil
	}
	m, ok := r.d.Movies[id]
	if !ok {
		return movieView{}, fmt.Errorf("movielens: movie %d is rated in %s but missing from %s", id, RatingsFile, MoviesFile)
	}
	year, decade := "", ""
	if m.Year > 0 {
		year = strconv.Itoa(m.Year)
		decade = strconv.Itoa(m.Year/10*10) + "s"
	}
	genre := ""
	for i, g := range m.Genres {
		if i > 0 {
			genre += "|"
		}
		genre += g
	}
	v := movieView{
		context: MovieContext(m, r.lang),
		attrs: map[string]string{
			"movie_id": strconv.Itoa(int(m.ID)),
			"title":    m.Name,
			"year":     year,
			"decade":   decade,
			"genre":    genre,
		},
	}
	r.movies[id] = v
	return v, nil
}

func (r *renderer) userSet(uid int32, ratings []Rating, opts Options) (behavior.UserSet, error) {
	slices.SortFunc(ratings, func(a, b Rating) int {
		if c := cmp.Compare(a.Time, b.Time); c != 0 {
			return c
		}
		return cmp.Compare(a.Movie, b.Movie)
	})
	events := make([]behavior.Event, len(ratings))
	for i, x := range ratings {
		mv, err := r.movie(x.Movie)
		if err != nil {
			return behavior.UserSet{}, fmt.Errorf("user %d: %w", uid, err)
		}
		events[i] = behavior.Event{
			Time:     time.Unix(x.Time, 0).UTC().Format(timeLayout),
			Scene:    Scene,
			RawScene: r.rawScene,
			Context:  mv.context,
			Result:   r.results[x.Value],
			Attrs:    mv.attrs,
			Outcomes: r.outcomes[x.Value],
		}
	}

	user := strconv.Itoa(int(uid))
	profile := ""
	if u, ok := r.d.Users[uid]; ok {
		profile = Profile(u, r.lang)
	}
	cut := len(events) * 4 / 5
	window := len(events) - cut
	cands := make([]sampling.Candidate, window)
	for i := range cands {
		cands[i] = sampling.Candidate{Scene: Scene, TestTimeIndex: i}
	}
	seed := opts.Seed + sampling.SeedOffset(user, opts.Offsets)
	picks := sampling.BalancedSample(cands, opts.TestPerUser, seed)

	set := behavior.UserSet{User: user, Profile: profile, Instances: make([]behavior.Instance, len(picks))}
	for k, p := range picks {
		t := cut + p
		target := events[t]
		// The target shows only what the user faced, never the answer.
		target.Result, target.Outcomes = "", nil
		q := r.question
		q.Label = strconv.Itoa(int(ratings[t].Value))
		set.Instances[k] = behavior.Instance{
			ID:          fmt.Sprintf("%s/%s/%d/%s", DatasetName, user, k, Field),
			Dataset:     DatasetName,
			User:        user,
			Profile:     profile,
			Index:       k,
			History:     events[:t:t], // shared backing array; capped so appends copy
			PracticeCut: cut,
			Target:      target,
			Question:    q,
		}
	}
	return set, nil
}
