package webshop

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/internal/pyfmt"
)

// Option is one customisation dimension of a product ("color", "size").
type Option struct {
	Name   string   // lower-cased, as the reference shows it
	Values []string // lower-cased, "/" replaced by " | " as in the reference
}

// Product is a catalogue entry after the reference's load-time cleaning.
type Product struct {
	ASIN            string
	Name            string // the raw title (the reference's name and Title)
	Category        string
	Query           string // lower-cased, trimmed
	ProductCategory string
	Description     string
	BulletPoints    []string
	Pricing         []float64 // one price, or a [low, high] range
	PriceTag        string    // "$10.99" or "$24.49 to $39.99"
	Options         []Option  // in file order
	Attributes      []string  // from items_ins_v2; ["DUMMY_ATTR"] when absent
	Rating          string
}

// Price is what buying the product costs: the single price, or the lower
// bound of a range (see the package fidelity notes).
func (p *Product) Price() float64 {
	if len(p.Pricing) == 0 {
		return defaultPrice
	}
	return p.Pricing[0]
}

// optionTypes maps each option value to its option name; when a value
// appears under two names the later one wins, as in ExpeL's text parser.
func (p *Product) optionTypes() map[string]string {
	m := map[string]string{}
	for _, o := range p.Options {
		for _, v := range o.Values {
			m[v] = o.Name
		}
	}
	return m
}

// defaultPrice is the reference's price for a product without pricing.
const defaultPrice = 100.0

// rawProduct is one record of items_shuffle*.json. Fields whose type varies
// in the official file stay raw and are decoded by hand.
type rawProduct struct {
	ASIN                 string          `json:"asin"`
	Name                 string          `json:"name"`
	Category             string          `json:"category"`
	Query                string          `json:"query"`
	ProductCategory      string          `json:"product_category"`
	FullDescription      json.RawMessage `json:"full_description"`
	SmallDescription     json.RawMessage `json:"small_description"`
	Pricing              json.RawMessage `json:"pricing"`
	CustomizationOptions json.RawMessage `json:"customization_options"`
	AverageRating        json.RawMessage `json:"average_rating"`
}

// convert cleans one record the way the reference's load_products does.
func (r *rawProduct) convert() (*Product, error) {
	p := &Product{
		ASIN:            r.ASIN,
		Name:            r.Name,
		Category:        r.Category,
		Query:           strings.ToLower(strings.TrimSpace(r.Query)),
		ProductCategory: r.ProductCategory,
		Rating:          "N.A.",
	}
	var err error
	if p.Description, err = optString(r.FullDescription); err != nil {
		return nil, fmt.Errorf("field full_description: %w", err)
	}
	if p.BulletPoints, err = stringOrList(r.SmallDescription); err != nil {
		return nil, fmt.Errorf("field small_description: %w", err)
	}
	pricing, err := optString(r.Pricing)
	if err != nil {
		return nil, fmt.Errorf("field pricing: %w", err)
	}
	if p.Pricing, p.PriceTag, err = parsePricing(pricing); err != nil {
		return nil, fmt.Errorf("field pricing: %w", err)
	}
	if p.Options, err = parseOptions(r.CustomizationOptions); err != nil {
		return nil, fmt.Errorf("field customization_options: %w", err)
	}
	return p, nil
}

// nonPrice strips everything but digits and dots from one price.
var nonPrice = lazyre.New(`[^\d.]`)

// parsePricing reads "$12.99" or "$24.49 - $39.99" (every "$" starts a
// price; the first two count). An empty string means $100.0.
func parsePricing(s string) ([]float64, string, error) {
	if s == "" {
		return []float64{defaultPrice}, "$" + pyfmt.Float(defaultPrice), nil
	}
	parts := strings.Split(s, "$")[1:]
	if len(parts) == 0 {
		return nil, "", fmt.Errorf("no price in %q", s)
	}
	var out []float64
	for _, part := range parts {
		v, err := strconv.ParseFloat(nonPrice.ReplaceAllString(part, ""), 64)
		if err != nil {
			return nil, "", fmt.Errorf("bad price %q in %q", part, s)
		}
		out = append(out, v)
	}
	if len(out) == 1 {
		return out, "$" + pyfmt.Float(out[0]), nil
	}
	out = out[:2]
	return out, "$" + pyfmt.Float(out[0]) + " to $" + pyfmt.Float(out[1]), nil
}

// parseOptions decodes customization_options keeping the file's key order
// (the item page lists options in that order).
func parseOptions(raw json.RawMessage) ([]Option, error) {
	if isNull(raw) {
		return nil, nil
	}
	keys, vals, err := orderedObject(raw)
	if err != nil {
		return nil, err
	}
	var out []Option
	for i, k := range keys {
		if isNull(vals[i]) {
			continue
		}
		var contents []struct {
			Value *string `json:"value"`
		}
		if err := json.Unmarshal(vals[i], &contents); err != nil {
			return nil, fmt.Errorf("option %q: %w", k, err)
		}
		o := Option{Name: strings.ToLower(k)}
		for j, c := range contents {
			if c.Value == nil {
				return nil, fmt.Errorf("option %q entry %d: missing value", k, j)
			}
			o.Values = append(o.Values, normalizeOptionValue(*c.Value))
		}
		out = append(out, o)
	}
	return out, nil
}

// normalizeOptionValue is the reference's cleaning of an option value.
func normalizeOptionValue(v string) string {
	return strings.ToLower(strings.ReplaceAll(strings.TrimSpace(v), "/", " | "))
}
