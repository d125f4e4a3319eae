// Package behaviorrun runs one behaviour-prediction run (PraMem on
// OmniBehavior or MovieLens) on a run store, in the stages its API names:
//
//	plan          Run.Plan: every (method, instance) sample in plan order, minus the stored ones
//	build memory  BuildMemory: a user's memory per method, loaded from the store or built once
//	predict       Run.Predict: the samples on a worker pool, each stored as it finishes
//	account       Run.Account: usage.json from the usage journal (package accounting,
//	              shared with the lifelong agent run), then accounting.CheckInvalid
//	finish        Run.Finish: the sample log compacted into plan order; Run.EmptyMemories
//	report        Run.Report: the report tables and figures (package reports)
//
// Execute runs them all in order on plain Options (the command line fills
// them from its config), with the resume checks, the manifest and the
// seal; LoadTask loads a task's users.
//
// It is the prediction counterpart of package lifelong and has the same
// shape where the jobs are the same: the store is lent by the caller (an
// interface, as lifelong's CellStore), usage goes through package
// accounting, warnings come back as values, and shards are the caller's
// choice of users. It never prints: the caller (bench) turns progress
// callbacks and returned values into terminal output, flags and exit codes.
//
// # On-disk layout
//
// Under the run directory, beside manifest.json and samples.jsonl:
//
//	memory/<method>/<user>.json           a user's built memory (predict.Memory)
//	checkpoints/<user>/<name>.json        methods' intermediate per-user states
//
// Both are written with the model calls that paid for them, so a resumed
// run's usage counts what an uninterrupted run does.
package behaviorrun
