package render

import (
	"fmt"
	"strconv"
	"strings"
)

// Small text helpers every writer shares.

// at is s[i], or "" past the end (a short row, a missing column).
func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return ""
}

// orDefault is s, or def when s is empty (a model or data source the run
// did not record).
func OrDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// NameList joins names, the first n of them and a count of the rest.
func NameList(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// CIText says what a figure's error bars are: the cluster bootstrap's level
// and resamples, as a report ran it.
func CIText(level float64, iters int) string {
	return fmt.Sprintf("Error bars: %s %% cluster bootstrap CI (users resampled), %s resamples.",
		strconv.FormatFloat(100*level, 'f', -1, 64), Thousands(iters))
}

// Thousands writes n with thousands separators (1,000).
func Thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
