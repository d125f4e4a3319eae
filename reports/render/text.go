package render

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
