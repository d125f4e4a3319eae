// Package view is the browsable report of `bench view` and `bench report
// --html`: runs and sweeps with their configs and manifests, every table
// and figure of their reports, a per-sample drill-down (prompt as sent,
// response, parsed answer, label, outcome, tokens, latency, cache hits)
// filtered by method, user, field and outcome, agent transcripts step by
// step, and the memory each method built with its changes between practice
// rounds or lifelong stages.
//
// The same pages are served by a local HTTP server (Server, bound to
// 127.0.0.1 by the CLI) and written as static files that open from disk
// (WriteStatic). Pages are html/template, so every string from a run is
// escaped; styles and the small filter script are embedded, nothing is
// fetched from the network.
//
// Large runs stay fast: a run's samples are listed from its sample index
// (runrecord.SampleIndexFile, written when the run's samples are compacted and
// rebuilt when samples.jsonl changed), a sample shown in full is read from
// its own line, lists are paginated (PageSize rows), and prompts are read
// one sample at a time from the call record (prompts.jsonl in older runs).
package view
