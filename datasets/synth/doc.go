// Package synth writes seeded synthetic datasets in the official formats, so
// the whole suite runs offline. The data carry planted long-range patterns:
// what a method lets the model see changes what it can predict.
//
// # MovieLens-1M
//
// GenerateMovieLens (knobs: Users, Movies, Seed; the same config gives
// byte-identical files) plants, per user:
//
//   - rating-scale habits: Offset (harsh < 0 < lenient) and Scale
//     (compressed < 1 < wide), visible in any window of the user's ratings;
//   - a preference for every genre (sd 0.55 rating units before Scale) that
//     drifts slowly over the history, so the genres of a film matter for
//     every rating and estimating them well needs many records of each
//     genre — few for the rare genres in a recent window;
//   - Loved: 1-2 rare genres rated +2, only 3-5% of the ratings and watched
//     mostly early (density 1.6 at the start of the history, 0.4 at its
//     end), so a recent 8K-token window often shows none or one of them;
//   - Hated: one common genre (seen in any window) and one rare genre (seen
//     mostly in a long history), rated -2.
//
// Movie quality and per-rating noise are hidden from every reader; see the
// constants in movielens.go for the exact rating formula.
package synth

// MovieLensVersion changes whenever the generator's output for a given config
// changes; callers that cache generated files key them on it.
const MovieLensVersion = 2
