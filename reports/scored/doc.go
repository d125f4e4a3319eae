// Package scored is a behaviour-prediction run as its reports read it: the
// manifest and samples of a run directory in report order (methods with the
// baseline first, question fields by name), every method × field cell
// scored with its bootstrap intervals, each method's usage, the paired
// comparisons with the baseline, and the words every report of the run
// shares (its title, figure caption, interval notes and document heads).
//
// The generic run report (package reports) and PraMem's study
// (reports/pramem) both write from one Summary, so a number means the same
// in each; neither imports the other's internals.
package scored
