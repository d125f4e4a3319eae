// Package metrics holds the scoring functions of the harness as plain
// functions on slices: accuracy, positive-class precision/recall/F1, confusion
// matrices with an "invalid" column, macro-F1, bootstrap confidence intervals
// clustered by user, a paired bootstrap and McNemar's test.
//
// Nothing here does I/O. Misuse (mismatched slice lengths, a label outside the
// class list, a confidence level outside (0, 1)) panics with a "metrics: "
// message, as gonum's stat package does; statistical caveats such as too few
// clusters are returned as warnings next to the result.
//
// An empty prediction string always means "no valid answer" (the model's
// output could not be parsed after every attempt).
package metrics
