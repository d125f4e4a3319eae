// Package reports turns a finished run directory (manifest.json +
// samples.jsonl) into tables, CSVs, a Parquet copy of the samples and
// figures. It reads run logs only and never calls a model, so a report can
// be regenerated at any time with `bench report`.
//
// Every artefact is deterministic: equal inputs give byte-identical files
// (rows are ordered explicitly, numbers use fixed precision, nothing records
// the time).
//
// The building blocks (WriteCSV, Table, HeatMaps) are exported for other
// reports, such as the OmniBehavior tables with binary fields.
//
// # Figure rules
//
// Every PNG is meant to drop into a paper unchanged. The rules, and where
// the tests check them (figure_test.go renders each figure kind and
// measures the image):
//
//   - Size: TwoColumn (7 in) wide, or OneColumn (3.5 in), at FigureDPI (150),
//     so 1050 or 525 px; never taller than a page's text (9 in). Panels
//     wrap into rows (at most three heat maps per row) rather than growing
//     one long strip. Checked: width and height of every rendered figure.
//   - Fonts: Liberation Serif (the plot library's default) at 10 pt for the
//     title, 9 pt for panel titles, axis labels and legends, 8 pt for ticks,
//     cell values and notes. Titles wrap at the figure width and put the
//     backbone and the data source on lines of their own.
//   - Colour: Okabe and Ito's colour-blind-safe palette (Palette), in a
//     fixed order, so a series keeps its colour across panels. Heat maps use
//     one sequential white-to-blue ramp on a fixed 0–100 % scale with a
//     colour bar; grey cells mean "not evaluated" and a note says so.
//   - Uncertainty: wherever the report has a bootstrap interval (Table 1 F1
//     and ACC, the ablation and evolution studies, Table 3's F1, sweeps), the
//     figure draws it as an error bar, and a note says what the bars are.
//   - Order: methods in the config's order; rounds, variants and swept
//     values in natural numeric order (r5, r10, r20; top_k=1, 5, 20), never
//     text order. Checked: TestNaturalOrder, TestWriteSweep.
//   - Axes: bars start at zero with headroom above the tallest bar or
//     whisker; line charts take their range from the data (a curve moving
//     by a few points is not flattened on 0–100); panels meant to be read
//     side by side share one y scale; quantities spanning orders of
//     magnitude (minutes of ours against the paper's) use a log axis.
//   - Legends and notes sit outside the data area: a legend column right of
//     the plots, sized to its longest entry, and notes under them. Nothing
//     may be clipped. Checked: the outer margin of every rendered figure is
//     background (text running off an edge would paint it) and the legend
//     column is at least as wide as its longest entry.
package reports
