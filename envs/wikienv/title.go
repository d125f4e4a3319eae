package wikienv

import (
	"strings"
	"unicode"
)

// ptbEscapes are the Penn-Treebank bracket codes FEVER's wiki dump uses in
// page ids and sentences.
var ptbEscapes = strings.NewReplacer(
	"-LRB-", "(", "-RRB-", ")",
	"-LSB-", "[", "-RSB-", "]",
	"-LCB-", "{", "-RCB-", "}",
	"-COLON-", ":",
)

// DisplayTitle turns a FEVER/Wikipedia page id ("Soul_Food_-LRB-film-RRB-")
// into the title an agent would search for ("Soul Food (film)").
func DisplayTitle(id string) string {
	return strings.TrimSpace(strings.ReplaceAll(ptbEscapes.Replace(id), "_", " "))
}

// titleKey is the loose form under which a search still hits a page: case,
// punctuation, underscores and spacing do not matter.
func titleKey(title string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(DisplayTitle(title)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		default:
			space = true
		}
	}
	return b.String()
}
