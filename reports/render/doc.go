// Package render is the reports' toolkit: CSV files (WriteCSV, with the
// unit column checked against reports/unit and text cells kept from being
// read as formulas), Markdown and LaTeX tables (Table), figures drawn once
// onto PNG, PDF and SVG canvases (bar, point and line charts, heat maps),
// and the escaping that keeps model output, data and config strings inert
// in each format. It knows nothing of runs or papers: the run report
// (package reports) and the studies (reports/lifemem, PraMem's in reports)
// hand it rows, panels and titles.
//
// # Figure rules
//
// Every figure is meant to drop into a paper unchanged. The rules, and where
// the tests check them (package reports' figure_image_test.go renders each
// figure kind at both widths and measures it; a probe canvas keeps every
// string's extent from the fonts' metrics):
//
//   - Formats: PNG at FigureDPI (300, recorded in a pHYs chunk), PDF (fonts
//     embedded) and SVG, one base name (table1.png, .pdf, .svg), drawn once
//     onto all three canvases. Checked: pHYs and tEXt chunks, a PDF whose
//     cross-references resolve, an SVG that parses, identical bytes on a
//     second render.
//   - Size: TwoColumn (7 in) or OneColumn (3.5 in) wide, never taller than
//     a page's text (9 in). Panels fill their grid (four as 2×2) rather than
//     leave an empty quadrant; one column stacks them. Checked: width and
//     height, TestGridCols.
//   - Text: a short title; provenance (what the figure redraws, task,
//     backbone, prompts, data, warnings such as methods with empty memories)
//     in a small caption line under the plot and in the files' metadata
//     (PNG tEXt, PDF info, SVG title/desc; no dates); Liberation Serif at
//     10 pt (title), 8 pt (panel titles, axis labels, legend), 7 pt (ticks,
//     cells, notes). Names are written out (ALFWorld, API-Bank, τ-bench).
//     Checked: every string inside the canvas.
//   - Colour: Okabe and Ito's palette in a fixed order (no black fill: the
//     whiskers are black), each series with its own hatch (bars) or marker
//     and dash (points, lines), so series stay apart in greyscale; fills are
//     outlined, so yellow keeps an edge. Heat maps: one white-to-blue ramp on
//     a fixed 0–100 % scale with a colour bar; cells not evaluated are grey
//     and hatched, with a legend entry, never read as 0 %. Checked:
//     TestSeriesDistinctInGreyscale, TestNotEvaluatedDiffersFromZero.
//   - Uncertainty: wherever the report has a bootstrap interval, the figure
//     draws it as an error bar (on a white halo, visible on any fill) and a
//     note states the level and resamples from the report's settings.
//   - Order: methods in the config's order; rounds, variants and swept
//     values in natural numeric order (r5, r10, r20), never text order.
//     Checked: TestNaturalOrder, TestWriteSweep.
//   - Axes: bars start at zero with headroom above the tallest bar or
//     whisker, ours and the paper's; points (Table 1, Table 8) and lines
//     take their range from the data; log axes for quantities spanning
//     orders of magnitude; at least four labelled ticks on a numeric axis.
//     Checked: tick count on every numeric axis.
//   - Legends sit outside the data: a column right of the plots when it is
//     narrow, else rows under them; line series get line swatches. Checked:
//     the legend's box overlaps no panel.
package render
