// Package sim is the embedded "sim" backbone: a deterministic, documented
// heuristic reader that implements llm.Model. It is not a language model. It
// reads the structured view of each request (package llm/hint) and answers in
// the text format a real model is asked for, so the whole pipeline — prompts,
// parsers, retries, the cache, usage accounting — runs without an endpoint,
// and its scores show what information each memory method lets a reader see.
//
// # Requests
//
// hint.Predict with Kind "multi_class" (e.g. a MovieLens rating): the answer
// estimates the target's Field from the visible records (see Estimation),
// rounded to the nearest numeric class (ties go to the lower class; classes
// that are not numbers are valued 1, 2, ... in order). With no information at
// all it answers the middle class.
//
// hint.Predict with Kind "binary": the same estimate of P(yes) over visible
// records of the target's Scene; the answer is "Yes" when it exceeds the
// threshold (Config.Threshold, 0.5 by default) minus the sum of the memory's
// bias shifts for Field, clamped to [0.05, 0.95]; otherwise "No".
//
// hint.Summarize: folds Chunk into Previous and answers with fact lines (see
// Facts) carrying the count, sum and mean of Field overall and per attribute
// value (every '|'-separated value of every attribute, plus scene=<Scene>).
// Facts for Field parsed from Previous are merged with the chunk, so a
// running summary carries exact statistics over everything it was shown. At
// most MaxSummaryFacts scoped lines are kept (highest counts first), keeping
// a summary well under a thousand tokens.
//
// Any other hint type, or none, is an error naming the request's Purpose.
//
// # Estimation
//
// Visible records count when they carry Outcomes[Field] (and, when both the
// target and the record name a scene, share the target's Scene).
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
// the middle class (ratings) or 0.5 (binary). So records like the target
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
// SampleID, Attempt) so that parsers and the retry path are exercised: on the
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
