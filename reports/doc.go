// Package reports turns a finished run directory (manifest.json +
// samples.jsonl) into tables, CSVs, a Parquet copy of the samples and
// confusion-matrix heat maps. It reads run logs only and never calls a
// model, so a report can be regenerated at any time with `bench report`.
//
// Every artefact is deterministic: equal inputs give byte-identical files
// (rows are ordered explicitly, numbers use fixed precision, nothing records
// the time).
//
// The building blocks (WriteCSV, Table, HeatMaps) are exported for other
// reports, such as the OmniBehavior tables with binary fields.
package reports
