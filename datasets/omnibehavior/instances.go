package omnibehavior

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/datasets/pyrandom"
	"github.com/memharness/memharness/datasets/sampling"
)

// Benchmark settings of the reference (OmniBehavior scripts/gpt5.sh).
const (
	// DatasetName prefixes instance IDs.
	DatasetName         = "omnibehavior"
	DefaultTestPerUser  = 30
	DefaultSeed         = 42
	DefaultHistoryStart = "2025-09-01"
	DefaultHistoryEnd   = "2025-09-30"
	DefaultTestStart    = "2025-10-01"
	DefaultTestEnd      = "2025-11-30"
)

// Options control Prepare and BuildInstances. The zero value gives the
// reference setup.
type Options struct {
	// Users caps the number of users (0 keeps every valid user). With more
	// valid users than this, the reference's seeded random.sample picks
	// them.
	Users int
	// TestPerUser is the number of sampled test actions per user (0 means
	// 30). It is also the selection threshold: a user needs that many
	// test-window records with sufficient context, and twice that many
	// records in all.
	TestPerUser int
	// Seed is the base seed (0 means 42): user selection uses it, each
	// user's sampler uses Seed + sampling.SeedOffset(user, Offsets).
	Seed int64
	// Language of the question texts: "zh" (default) or "en". Context and
	// result texts are the reference's Chinese sentences in both cases.
	Language string
	// Offsets is the optional seed_offsets.json table.
	Offsets map[string]int64
	// Windows, compared with timestamps as raw strings (see InWindow).
	// Empty means the reference's default.
	HistoryStart, HistoryEnd string
	TestStart, TestEnd       string
}

func (o Options) withDefaults() (Options, error) {
	if o.TestPerUser <= 0 {
		o.TestPerUser = DefaultTestPerUser
	}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	if o.Users < 0 {
		return o, fmt.Errorf("omnibehavior: negative Users %d", o.Users)
	}
	switch o.Language {
	case "":
		o.Language = LangZH
	case LangZH, LangEN:
	default:
		return o, fmt.Errorf("omnibehavior: unknown language %q (want zh or en)", o.Language)
	}
	def := func(s *string, d string) {
		if *s == "" {
			*s = d
		}
	}
	def(&o.HistoryStart, DefaultHistoryStart)
	def(&o.HistoryEnd, DefaultHistoryEnd)
	def(&o.TestStart, DefaultTestStart)
	def(&o.TestEnd, DefaultTestEnd)
	return o, nil
}

// Prepare selects users and samples their test actions the way the
// reference's prepare_experiment_data does:
//
//  1. keep users with at least 2×TestPerUser records;
//  2. split each into the history and test windows (raw-string compare);
//  3. a user is valid with ≥ 1 history record and ≥ TestPerUser test-window
//     records passing HasSufficientContext; valid IDs are sorted, and when
//     Users caps them, random.sample(ids, Users) with Seed picks them
//     (sorted again);
//  4. the candidates are the test-window records passing both
//     HasSufficientContext and !ShouldFilter; sampling.BalancedSample picks
//     TestPerUser of them with seed Seed + SeedOffset(user).
func Prepare(users []User, opts Options) ([]Split, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	var valid []Split
	for _, u := range users {
		if len(u.Records) < 2*opts.TestPerUser {
			continue
		}
		s := Split{User: u.ID, Profile: u.Profile}
		sufficient := 0
		for _, r := range u.Records {
			if InWindow(r.Timestamp, opts.HistoryStart, opts.HistoryEnd) {
				s.Base = append(s.Base, r)
			}
			if InWindow(r.Timestamp, opts.TestStart, opts.TestEnd) {
				s.Window = append(s.Window, r)
				if HasSufficientContext(&r) {
					sufficient++
				}
			}
		}
		if len(s.Base) >= 1 && sufficient >= opts.TestPerUser {
			valid = append(valid, s)
		}
	}
	slices.SortFunc(valid, func(a, b Split) int { return strings.Compare(a.User, b.User) })
	valid = pickUsers(valid, opts)
	for i := range valid {
		s := &valid[i]
		var cands []sampling.Candidate
		for t := range s.Window {
			r := &s.Window[t]
			if HasSufficientContext(r) && !ShouldFilter(r) {
				cands = append(cands, sampling.Candidate{Scene: r.Scene, High: HighValue(r), TestTimeIndex: t})
			}
		}
		seed := opts.Seed + sampling.SeedOffset(s.User, opts.Offsets)
		for _, p := range sampling.BalancedSample(cands, opts.TestPerUser, seed) {
			s.Tests = append(s.Tests, cands[p].TestTimeIndex)
		}
	}
	return valid, nil
}

// pickUsers applies Options.Users to ID-sorted splits: random.sample with
// the base seed, then sorted again.
func pickUsers(splits []Split, opts Options) []Split {
	if opts.Users == 0 || len(splits) <= opts.Users {
		return splits
	}
	picked := pyrandom.SampleOf(pyrandom.New(opts.Seed), splits, opts.Users)
	slices.SortFunc(picked, func(a, b Split) int { return strings.Compare(a.User, b.User) })
	return picked
}

// BuildInstances turns a dataset into instances: the prebuilt splits of an
// experiment file when present (never resampled; Options.Users still caps
// them the same way), else Prepare's. See Instances for one user.
func BuildInstances(d *Dataset, opts Options) ([]behavior.UserSet, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	splits := d.Splits
	if splits == nil {
		if splits, err = Prepare(d.Users, opts); err != nil {
			return nil, err
		}
	} else {
		splits = pickUsers(slices.Clone(splits), opts)
	}
	sets := make([]behavior.UserSet, len(splits))
	for i, s := range splits {
		sets[i] = Instances(s, opts.Language)
	}
	return sets, nil
}

// Instances expands one user's (question texts in lang, "zh" or "en") sampled test actions into instances, one
// per (test action, question), with ID omnibehavior/<user>/<k>/<field>
// (k = position among the user's test actions):
//
//   - History is the rolling history base + window[:t] with ShouldFilter
//     records dropped, oldest first (methods apply their token budget);
//   - PracticeCut is the number of those history events before the user's
//     first test action;
//   - Target shows the record's time, scene, context text and context
//     attributes; its Result and Outcomes are blank, and a search target
//     hides its keyword;
//   - every question of Labels is asked: binary, continuous and text
//     (callers keep behavior.Binary to reproduce Table 1).
//
// The instances of a user share one backing slice of events, and events
// share their maps: treat them as read-only.
func Instances(s Split, lang string) behavior.UserSet {
	var events []behavior.Event
	// before[t] = number of kept window events before window[t].
	before := make([]int, len(s.Window)+1)
	// keep appends a record with its place in the unfiltered timeline.
	keep := func(r *Record, pos int) {
		ev := historyEvent(r)
		ev.Source = behavior.Source{Pos: pos + 1, Base: len(s.Base),
			ThinForDraw: !HasSufficientContextForDraw(r), ThinForPractice: !HasSufficientContext(r)}
		for _, l := range Labels(r) {
			if l.Kind == Text {
				ev.Source.Text = append(ev.Source.Text, behavior.TextQuestion{Field: l.Field, Dialogue: l.Dialogue, HasDialogue: l.HasDialogue})
			}
		}
		events = append(events, ev)
	}
	for i := range s.Base {
		if r := &s.Base[i]; !ShouldFilter(r) {
			keep(r, i)
		}
	}
	base := len(events)
	for t := range s.Window {
		before[t] = len(events) - base
		if r := &s.Window[t]; !ShouldFilter(r) {
			keep(r, len(s.Base)+t)
		}
	}
	before[len(s.Window)] = len(events) - base

	set := behavior.UserSet{User: s.User, Profile: s.Profile, Timeline: events[:len(events):len(events)]}
	cut := base
	if len(s.Tests) > 0 {
		cut = base + before[s.Tests[0]]
	}
	for k, t := range s.Tests {
		r := &s.Window[t]
		n := base + before[t]
		target := behavior.Event{
			Time:     r.Timestamp,
			Scene:    r.Scene,
			RawScene: r.Type,
			Context:  TargetContext(r),
			Attrs:    Attrs(r),
		}
		for _, l := range Labels(r) {
			set.Instances = append(set.Instances, behavior.Instance{
				ID:          DatasetName + "/" + s.User + "/" + strconv.Itoa(k) + "/" + l.Field,
				Dataset:     DatasetName,
				User:        s.User,
				Profile:     s.Profile,
				Index:       k,
				History:     events[:n:n],
				PracticeCut: cut,
				Target:      target,
				Question: behavior.Question{
					Field: l.Field,
					Kind:  l.Kind,
					Text:  QuestionText(l, lang),
					Label: formatLabel(l),
				},
			})
		}
	}
	return set
}

// historyEvent renders a record for histories: text, attributes and every
// numeric label.
func historyEvent(r *Record) behavior.Event {
	ev := behavior.Event{
		Time:     r.Timestamp,
		Scene:    r.Scene,
		RawScene: r.Type,
		Context:  ContextText(r),
		Result:   ResultText(r),
		Attrs:    Attrs(r),
	}
	for _, l := range Labels(r) {
		if l.Kind == Text {
			continue
		}
		if ev.Outcomes == nil {
			ev.Outcomes = make(map[string]float64, 8)
		}
		ev.Outcomes[l.Field] = l.Value
	}
	return ev
}
