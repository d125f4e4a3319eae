// Package sim is the embedded "sim" backbone: a deterministic, documented
// heuristic reader that implements llm.Model. It is not a language model. It
// answers in the text format a real model is asked for, so the whole
// pipeline — prompts, parsers, retries, the cache, usage accounting — runs
// without an endpoint, and its scores show what information each memory
// method lets a reader see.
//
// # Readers
//
// The sim names no method and no environment. A kind that attaches a
// structured view of its requests (a hint: a value of a Go type of its own,
// filled with exactly what the prompt shows) teaches the sim to read it with
// a Reader (ReaderFor), registered in the Readers value handed to New. The
// built-in readers live beside their kinds (simread*.go in methods/ and
// envs/; each environment's action syntax in envs/*/simacting.go), and
// bench builds the registry from the kinds. A nil pointer to a registered hint type is a bug
// and an error naming the Purpose.
//
// A request with no hint, or with a hint type no reader was registered for
// (a method of one's own), goes to the generic prompt reader, which reads
// the message text alone and answers in the format it asks for: a JSON
// example's shape with its strings filled by an extract, the listed action
// that shares most words with the rest of the prompt, the mean of the
// ratings shown on the asked scale (else its middle), the majority of the
// yes/no answers shown (else "No"), or else the first words of the last
// user message. Its answers are weak but always well-formed, and they
// depend on what the prompt shows — its history and its memory blocks — so
// a new method runs on the sim unchanged and two methods that show
// different records answer differently.
//
// # Toolkit
//
// What the readers share is exported: the fact lines of a memory (Fact,
// ParseFacts, Tally), the estimation of a question's answer from visible
// records and facts (Sim.Predict over a hint.Predict, described below), and
// the drawn surface forms of an answer (Sim.Surface).
//
// A hint.Predict with Kind "multi_class" (e.g. a MovieLens rating): the
// answer estimates the target's Field from the visible records and memory
// facts and maps the estimate to a class through the user's own visible
// rating scale (see Ratings). Classes that are not numbers are valued 1, 2,
// ... in order. With no information at all it answers the middle class.
//
// A hint.Predict with Kind "binary": an estimate of P(yes) (see Estimation)
// over visible records of the target's Scene; the answer is "Yes" when it
// exceeds the threshold (Config.Threshold, 0.5 by default) minus the sum of
// the memory's bias shifts for Field, clamped to [0.05, 0.95]; otherwise
// "No".
//
// The recursive summary's reader (methods/predict) folds a chunk into the
// previous summary's fact lines, so a running summary carries exact
// statistics over everything it was shown.
//
// # Ratings
//
// Visible records count when they carry Outcomes[Field] (and, when both the
// target and the record name a scene, share the target's Scene). A real
// reader rates a film from what it knows of the user's taste for films like
// it, on that user's own scale; the rules below do that with counts only.
//
//	mean  = (Σ y_visible + Σ sum_pop + prior) / (n_visible + Σ count_pop + 1)
//	dev_f = (sum_f − n_f·mean) / (n_f + 3)          for each feature f
//	est   = mean + Σ over the target's attributes (max(0, max dev) + min(0, min dev))
//
// mean is the user's overall level (population facts as in Estimation).
// A feature is one value of one of the target's attributes (genre=Drama,
// decade=1990s, ...) or a conjunctive fact's scope that holds for the
// target; n_f and sum_f add the visible records having it (each weighted
// 1 + 0.25·recency, recency 0 oldest .. 1 newest, so newer tastes count a
// little more) and the memory's facts for exactly that scope (weighted by
// their count). Why these rules:
//
//   - deviations, not a mean of similar records: records sharing only a
//     common value (decade=1990s) barely move the estimate, because their
//     mean is the user's mean, while a genre the user loves or hates moves
//     it by its full effect;
//   - shrinkage by a pseudo-count of 3: one record of a genre is an
//     anecdote (a quarter of its deviation), 30 are a pattern (91%), so
//     same-genre evidence weighs steeply more the more there is of it —
//     which is why a longer history, retrieved old records or a summary's
//     per-genre facts help on genres rare in a recent window;
//   - per attribute only the strongest positive and strongest negative
//     deviation: a film of two liked genres is not liked twice over, and a
//     film of a loved and a hated genre is neither; different attributes
//     (genre, decade, year) add up.
//
// The estimate is then put on the user's scale: each visible record's
// residual r = y − (its own estimate, computed leaving that record out of
// its features) adds one unit of mass at est + r, split linearly between
// the two nearest classes (clamped to the ends), and the class with the
// most mass wins (ties: the class nearest est, then the lower). So a harsh
// user's typical film gets that user's usual 2, a lenient one's 5, a user
// whose ratings skew towards 4 gets 4 rather than the rounded mean, and a
// loved genre lands on 5 only when the evidence is strong enough. Without
// visible records the class nearest est wins.
//
// # Estimation
//
// The binary estimator. Visible records count as for ratings (they carry
// Outcomes[Field] and share the target's Scene when both name one).
//
//	base     = (Σ y_visible + Σ sum_pop + prior) / (n_visible + Σ count_pop + 1)
//	specific = weighted mean of
//	             visible records sharing s > 0 attribute values with the target,
//	               weight s·(1 + 0.25·recency), recency 0 (oldest) .. 1 (newest);
//	             memory facts whose every condition holds for the target,
//	               weight = their count
//	estimate = (M·specific + 2·base) / (M + 2)
//
// where the population facts are the memory's facts scoped only to the
// target's scene (e.g. "scene=电影评分"), or, when there are none, its
// unscoped "all" facts; M is the total weight
// of the specific evidence (so a record sharing two values with the target
// counts about twice, a fact as many times as its count), and prior is
// 0.5 (for ratings, the middle class). So records like the target
// dominate, the user's overall mean anchors sparse evidence, and a memory's
// facts stand in for history the prompt no longer shows.
//
// # Facts
//
// Memory text is read line by line; a line that does not match is ignored
// (real memories are free prose). One fact per line:
//
//	fact  = ["- "] "[" FIELD "] " SCOPE ": mean " MEAN " over " COUNT " records" [" (sum " SUM ")"]
//	      | ["- "] "[" FIELD "] bias: shift " SHIFT
//	SCOPE = "all" | KEY "=" VALUE { " & " KEY "=" VALUE }
//
// A condition KEY=VALUE holds when the target's attribute KEY has VALUE among its
// '|'-separated values; the key "scene" compares with the target's Scene. For
// binary fields MEAN is the positive rate. The optional sum makes merging
// exact (the mean is printed with two decimals). A bias fact moves the binary
// decision: SHIFT is subtracted from the threshold, so a positive shift leans
// towards "Yes". The leading "-" may also be "*" or "•"; keywords are
// case-insensitive and "record" may be singular. Examples:
//
//	Memory:
//	- [movie_rating] all: mean 3.70 over 240 records
//	- [movie_rating] genre=Drama: mean 4.21 over 31 records
//	- [video_liked] scene=视频浏览 & author=abc: mean 0.80 over 10 records
//	- [video_liked] bias: shift +0.10
//
// # Surface forms
//
// Predict answers vary their surface deterministically with a hash of (Seed,
// SampleID, Attempt and, for a repeated draw, Repeat) so that parsers and the retry path are exercised: on the
// first attempt about 3 % are garbage with no valid answer (no digit, no
// yes/no or number word in any case), about 10 % start with a short
// <think>…</think> block, about 5 % carry a prefix such as "Rating: " or
// "答案：", and the rest are the bare answer. Later attempts are always valid
// and use the same think/prefix rates, except for a fraction
// Config.PersistentInvalidRate of samples (chosen by SampleID) that are
// garbage on every attempt. The raw output goes through llm.SplitThink, as
// the OpenAI client's does, so a <think> block ends up in Reasoning and the
// answer in Text.
//
// Usage estimates prompt tokens from the messages and completion tokens from
// the answer with tokens.Approx.
package sim
