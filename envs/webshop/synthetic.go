package webshop

import (
	"sort"
	"strconv"
	"strings"
)

// priceStep is the spacing of the reference's price limits ($10 .. $990).
const priceStep = 10.0

// SyntheticGoals builds one goal per product that has a synthetic
// instruction in items_ins_v2 (the reference's get_synthetic_goals, which
// makes one goal per option combination): the first value of each option,
// by option name, and a deterministic price limit, the second multiple of
// $10 above the price (the reference draws one of the first four at random).
// IDs are "synthetic_<ASIN>", in catalogue order.
func SyntheticGoals(cat *Catalogue, attrs map[string]AttrRecord) []Goal {
	var out []Goal
	for _, p := range cat.Products {
		a, ok := attrs[p.ASIN]
		if !ok || a.Instruction == "" || len(a.InstructionAttributes) == 0 {
			continue
		}
		opts := append([]Option(nil), p.Options...)
		sort.SliceStable(opts, func(i, j int) bool { return opts[i].Name < opts[j].Name })
		var goalOpts, texts []string
		for _, o := range opts {
			if len(o.Values) == 0 {
				continue
			}
			goalOpts = append(goalOpts, o.Values[0])
			texts = append(texts, o.Name+": "+o.Values[0])
		}
		instr := a.Instruction
		if len(texts) > 0 {
			instr += " with " + strings.Join(texts, ", and ")
		}
		limit := float64(noPriceLimit)
		if l, ok := priceLimit(p.Price()); ok {
			limit = l
			instr += ", and price lower than " + fmtPrice(l) + " dollars"
		}
		out = append(out, Goal{
			ID: "synthetic_" + p.ASIN, ASIN: p.ASIN, Category: p.Category, Query: p.Query,
			Name: p.Name, ProductCategory: p.ProductCategory, InstructionText: instr,
			Attributes: a.InstructionAttributes, PriceUpper: limit, GoalOptions: goalOpts, Weight: 1,
		})
	}
	return out
}

// priceLimit is the second multiple of $10 above price, when the
// reference's range ($10 .. $990) has at least two above it.
func priceLimit(price float64) (float64, bool) {
	var above []float64
	for i := 1; i < 100 && len(above) < 2; i++ {
		if v := priceStep * float64(i); v > price {
			above = append(above, v)
		}
	}
	if len(above) < 2 {
		return 0, false
	}
	return above[1], true
}

// fmtPrice prints a price with two decimals, as the goal texts do.
func fmtPrice(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
