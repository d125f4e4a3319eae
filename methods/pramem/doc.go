// Package pramem is PraMem (spec pramem_omnibehavior.md §4): a per-user
// experiential memory built by practice before the user's first test
// action, appended after the 8K-truncation question prompt at evaluation.
//
// # Memory
//
// ExpMemory is the released JSON layout — user_exp (pattern experience),
// model_exp (calibration / bias-alert experience) and proposal (the pool),
// all lists of strings. It renders as "## Current Experiential Memory" with
// the two sections (templates "memory", zh and en); the sections knob
// blanks one of them at evaluation. init "empty" (released) or "paper"
// (profile as a pattern entry, three generic bias alerts we wrote).
// memory_dir evaluates memories built elsewhere (<dir>/<user>_0.json).
//
// # Practice (z_1, z_2)
//
// The pool is History[:PracticeCut] of the user's first instance. Candidates
// are positions ≥ min_history whose record passes the draw's
// enough-context check (z_1's copy: a video needs a caption, ocr_text or
// asr_text; a live stream a title or category) and has a non-empty context
// and at least one question; pool_size draws with replacement weighted
// (rank+1)² (pyrandom.Choices seeded 42 + the user's hash offset, or
// Params.Seed + offset), a shuffle (seed 1024 + offset), the first `rounds`
// kept. release_sampling is the release's draw made deterministic:
// positions in the unfiltered timeline, every record passing the checks a
// candidate (questionless ones too), seeds 42 and 1024 for every user as a
// single-process run of that user would use; the release's own draw runs
// in forked workers that Python reseeds from the OS and cannot be
// reproduced. A
// practice input is the question prompt over the target's history under a
// 12000-token budget, cut after the history block, plus a "===== Practice
// task 1 =====" section with the scene and one line per question: every
// field the user is asked about (from the user's instances) that the
// record has an outcome for — the OmniBehavior binary fields, or the
// MovieLens rating. The history is pool[:idx]; reproduce_release_leak
// rebuilds it as the released z_2 does (base_history +
// test_time_all_actions[:the target's timeline position], so it shows the
// target and later records); either way without the records failing the
// practice stage's enough-context check (prepare_experiment_data's copy:
// caption, ocr or asr), as z_2 filters its history. The label is the target rendered as a record after a
// sentence saying unmentioned acts count as No.
//
// # A round (z_5)
//
// trial (not parsed) → reflection (【提议】 lines) → generalizability review
// (M virtual scenes, then the judge; 128-rune real scene) → groundedness
// review (one perturbation plan of the history block found between the
// history header and the practice-task header, then the judge) →
// survivors into the pool → every T rounds and on the last round the
// consensus review (the complete memory JSON, accepted iff all three keys).
// Bad output follows spec §4.8 exactly and is recorded in Round.Events;
// a call failing twice skips the round (Round.Error). Ablations: no_trial
// and no_reflection swap in their own templates; no_generalization and
// no_groundedness skip a check; no_consensus adopts verified proposals by
// their type tag and empties the pool (no review calls).
//
// # Checkpoints and resume
//
// After each round the round record ("<ns>-round-NNN", with the stage
// transcripts, as the reference's progress file) and then the progress
// ("<ns>-progress": completed rounds, memory, per-round memory tokens,
// event counts, calls, usage, seconds) are saved through Env.Checkpoints.
// ns hashes everything that determines construction (not sections,
// eval_round or fallback), so those variants share one build; a restart
// continues after the last completed round, and eval_round N reads the
// snapshot of round N-1.
//
// # Evaluation
//
// Predict uses predict's truncation path (predict.Evaluator) with the
// "eval" block appended after the whole question prompt. The hint shows
// the memory with its list numbering removed, so the sim reads its fact
// lines. A user without memory is an error unless fallback_truncation.
//
// # Sim backbone
//
// Every call carries a hint (llm/hint PraMem* types); llm/sim answers them
// in the output formats above — see llm/sim/pramem.go for its rules.
package pramem
