// Package unit is the vocabulary of the unit column of every long-format
// CSV the reports write (metrics.csv, table1.csv, pramem_table2.csv,
// lifemem_table2.csv, lifemem_vs_paper.csv, sweep.csv ...): one list for
// every file, so a reader can filter on it, and one place the writers and
// the contract tests check against. A share or a score on a 0–100 scale is
// always in percent.
package unit

import "slices"

// The units.
const (
	Percent = "%"
	Count   = "count"
	Tokens  = "tokens"
	USD     = "USD"
	Draws   = "draws"
)

// All lists the vocabulary.
func All() []string { return []string{Percent, Count, Tokens, USD, Draws} }

// Valid reports whether u is in the vocabulary.
func Valid(u string) bool { return slices.Contains(All(), u) }
