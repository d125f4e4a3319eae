package webshop

import (
	"strconv"
	"strings"

	"github.com/memharness/memharness/internal/pyfmt"
)

// Button labels, as the reference's pages show them.
const (
	btnSearch      = "Search"
	btnBack        = "Back to Search"
	btnNext        = "Next >"
	btnPrev        = "< Prev"
	btnBuy         = "Buy Now"
	btnDescription = "Description"
	btnFeatures    = "Features"
	btnReviews     = "Reviews"
	btnAttributes  = "Attributes"
)

// subPages are the item sub-pages. The reference's item page hides the
// Attributes button (commented out in its template) but its server still
// serves the page, so click[Attributes] works without being shown.
var subPages = []string{btnDescription, btnFeatures, btnReviews, btnAttributes}

// resultDetail is how many results per page show title and price in
// ExpeL's text rendering; the rest show only their ASIN.
const resultDetail = 3

// Observations that are not pages.
const (
	obsInvalid  = "Invalid action!"
	obsThink    = "OK."
	obsEnded    = "The episode has ended."
	scorePrefix = "Your score (min 0.0, max 1.0): "
)

func button(label string) string { return "[" + label + "]" }

func renderStart(instruction string) string {
	return "WebShop\nInstruction:\n" + instruction + "\n" + button(btnSearch)
}

// renderResults shows one page of results; page is 1-based.
func renderResults(results []*Product, page, detail int) string {
	var b strings.Builder
	b.WriteString(button(btnBack) + "\n")
	b.WriteString("Page " + itoa(page) + " (Total results: " + itoa(len(results)) + ")\n")
	if page > 1 {
		b.WriteString(button(btnPrev) + "\n")
	}
	if page*pageSize < len(results) {
		b.WriteString(button(btnNext) + "\n")
	}
	for i, p := range pageOf(results, page) {
		b.WriteString(button(p.ASIN) + "\n")
		if i < detail {
			b.WriteString(p.Name + "\n" + p.PriceTag + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// pageOf is the slice of results shown on a 1-based page.
func pageOf(results []*Product, page int) []*Product {
	lo := (page - 1) * pageSize
	if lo < 0 || lo >= len(results) {
		return nil
	}
	return results[lo:min(lo+pageSize, len(results))]
}

// renderItem shows an item page; chosen maps option names to values.
func renderItem(p *Product, chosen map[string]string) string {
	var b strings.Builder
	b.WriteString(button(btnBack) + "\n" + button(btnPrev) + "\n")
	for _, o := range p.Options {
		b.WriteString(o.Name + " ")
		for _, v := range o.Values {
			if chosen[o.Name] == v {
				b.WriteString("[" + button(v) + "]")
			} else {
				b.WriteString(button(v))
			}
		}
		b.WriteString("\n")
	}
	b.WriteString(p.Name + "\nPrice: " + p.PriceTag + "\nRating: " + p.Rating + "\n")
	for _, s := range []string{btnDescription, btnFeatures, btnReviews, btnBuy} {
		b.WriteString(button(s) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// renderSub shows a Description, Features, Reviews or Attributes page.
func renderSub(p *Product, sub string) string {
	head := button(btnBack) + "\n" + button(btnPrev)
	var body string
	switch sub {
	case btnDescription:
		body = p.Description
	case btnFeatures:
		body = strings.Join(p.BulletPoints, "\n")
	case btnAttributes:
		body = strings.Join(p.Attributes, "\n")
	case btnReviews:
		body = "" // the official catalogue ships no reviews
	}
	if body = strings.TrimSpace(body); body == "" {
		return head
	}
	return head + "\n" + body
}

func renderDone(reward float64) string { return scorePrefix + pyfmt.Float(reward) }

func itoa(n int) string { return strconv.Itoa(n) }
