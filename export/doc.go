// Package export writes a finished run in the shapes other evaluation tools
// read, without calling a model: Inspect's EvalLog (a .json log and the
// .eval zip of the same objects, read by `inspect view`, inspect_ai's data
// frames, Docent and Inspect Scout), Every Eval Ever's aggregate record
// and per-instance JSONL (evaleval/every_eval_ever's datastore layout), and
// lm-evaluation-harness's results_<timestamp>.json with
// samples_<task>_<timestamp>.jsonl.
//
// Everything comes from the run's own files: the manifest, samples.jsonl,
// the call record (usage.jsonl and chunks.jsonl: the exact messages sent
// and the replies), the lifelong cells and transcripts, and the report's
// metrics.csv / lifemem_*.csv (so every exported number is the one the
// report printed). Samples are streamed: one sample's record is built,
// written and dropped before the next, so the memory an export takes does
// not grow with the samples' texts. Timestamps come from the manifest, so
// exporting a run again writes the same bytes.
//
// One log per method: a memory method is what Inspect calls a solver, so
// each method of a run is one Inspect task log (task = the config, solver
// = the method, model = the backbone). A lifelong method is one log too,
// its samples the (stage, environment, task) evaluations with the stage in
// each sample's metadata: Inspect's log list is one row per task and
// model, and its sample table filters and groups by metadata, so a stage
// split into ten logs would hide the S matrix behind ten list rows.
package export
