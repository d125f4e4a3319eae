package webshop

import "strings"

// colorNames are checked in order by normalizeColor, compound names first so
// "navy blue" is not read as "blue". Our own list.
var colorNames = []string{
	"light blue", "dark blue", "navy blue", "sky blue", "royal blue", "light grey", "dark grey",
	"light gray", "dark gray", "light green", "dark green", "army green", "olive green", "hot pink",
	"light pink", "rose gold", "dark brown", "light brown", "off white", "wine red",
	"black", "white", "blue", "navy", "green", "olive", "yellow", "orange", "purple", "violet",
	"pink", "brown", "grey", "gray", "silver", "gold", "beige", "khaki", "ivory", "cream", "teal",
	"turquoise", "burgundy", "maroon", "coral", "mint", "lavender", "tan", "camel", "charcoal",
	"red",
}

// normalizeColor returns the first colour name contained in s, else s, as
// the reference's normalize_color does (a plain substring test, as there).
func normalizeColor(s string) string {
	for _, c := range colorNames {
		if strings.Contains(s, c) {
			return c
		}
	}
	return s
}
