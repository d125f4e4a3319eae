// Package toolqa is ToolQA's coffee (tabular) environment as LifeMem uses it:
// questions about daily coffee prices answered with the custom table
// functions (LoadDB, FilterDB, GetValue), a read-only SQLInterpreter over the
// price CSV loaded into an in-memory SQLite database per episode, a safe
// Calculate tool, and Finish, scored by exact match after ToolQA's answer
// normalisation.
//
// Fidelity notes (where we differ from the reference code, and why):
//   - Messages are English; LifeMem's SQL interpreter answers in Chinese.
//   - SQLInterpreter accepts one read-only statement (an authorizer denies
//     every write, PRAGMA and ATTACH), stops after a time limit and shows at
//     most a bounded number of rows; the reference runs anything on a file.
//   - Calculate is our own arithmetic parser (the reference calls sympy on a
//     restricted character set); results are printed like sympy's evalf.
//   - Values print like Python (138.0, not 138), as in the training data.
//   - ToolQA's normalisation removes "usd" like an article, so "130.65"
//     matches "130.65 USD" (the spec's note says otherwise; the code wins).
package toolqa
