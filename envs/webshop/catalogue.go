package webshop

import (
	"encoding/json"
	"fmt"
)

// dummyAttr is the reference's attribute list for products it has none for.
const dummyAttr = "DUMMY_ATTR"

// Catalogue is the set of products with their search index.
type Catalogue struct {
	Products []*Product
	byASIN   map[string]*Product
	index    *index
}

// Product returns the product with asin, or nil.
func (c *Catalogue) Product(asin string) *Product { return c.byASIN[asin] }

// ReadCatalogue reads items_shuffle*.json (a JSON list of scraped product
// records) and attaches attributes from items_ins_v2 (nil when absent).
// As in the reference, records whose asin is "nan" or longer than 10
// characters are dropped, and the first of duplicate ASINs wins.
func ReadCatalogue(data []byte, file string, attrs map[string]AttrRecord) (*Catalogue, error) {
	elems, lines, err := arrayElems(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var products []*Product
	seen := map[string]bool{}
	for i, e := range elems {
		var r rawProduct
		if err := json.Unmarshal(e, &r); err != nil {
			return nil, fmt.Errorf("%s:%d: product %d: %w", file, lines[i], i, err)
		}
		if r.ASIN == "" {
			return nil, fmt.Errorf("%s:%d: product %d: field asin: missing", file, lines[i], i)
		}
		if r.ASIN == "nan" || len(r.ASIN) > 10 || seen[r.ASIN] {
			continue
		}
		seen[r.ASIN] = true
		p, err := r.convert()
		if err != nil {
			return nil, fmt.Errorf("%s:%d: product %d (asin %s): %w", file, lines[i], i, r.ASIN, err)
		}
		p.Attributes = []string{dummyAttr}
		if a, ok := attrs[p.ASIN]; ok && a.Attributes != nil {
			p.Attributes = a.Attributes
		}
		products = append(products, p)
	}
	return NewCatalogue(products), nil
}

// NewCatalogue indexes products for search.
func NewCatalogue(products []*Product) *Catalogue {
	c := &Catalogue{Products: products, byASIN: make(map[string]*Product, len(products))}
	for _, p := range products {
		c.byASIN[p.ASIN] = p
	}
	c.index = newIndex(products)
	return c
}
