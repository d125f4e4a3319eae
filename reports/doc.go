// Package reports turns a finished run directory (manifest.json +
// samples.jsonl) into tables, CSVs, a Parquet copy of the samples and
// figures. It reads run logs only and never calls a model, so a report can
// be regenerated at any time with `bench report`.
//
// Every artefact is deterministic: equal inputs give byte-identical files
// (rows are ordered explicitly, numbers use fixed precision, nothing records
// the time).
//
// The package is the generic run report and the entry to the others: Write
// scores a run's samples once (reports/scored), writes the generic report
// from them and hands them to PraMem's study (reports/pramem: Table 1,
// Tables 2–3, Figures 4–6, written by what the run holds), or hands a
// lifelong run to LifeMem's (reports/lifemem, which has its own loader, as
// the lifelong protocol keeps no samples.jsonl).
// Every report is drawn with reports/render, the rendering toolkit (its doc
// holds the figure rules), and says what run it comes from through
// reports/runinfo.
package reports
