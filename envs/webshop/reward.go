package webshop

import "strings"

// fuzzyThreshold is the token_set_ratio above which two strings match.
const fuzzyThreshold = 85

// exactMatchOptions are option names matched exactly, not fuzzily.
var exactMatchOptions = map[string]bool{"size": true}

// RewardInfo breaks a reward into the reference's components.
type RewardInfo struct {
	RType         float64  `json:"r_type"`
	QueryMatch    bool     `json:"query_match"`
	CategoryMatch bool     `json:"category_match"`
	TitleScore    float64  `json:"title_score"`
	RAtt          *float64 `json:"r_att,omitempty"` // nil when the goal has no attributes
	ROption       *float64 `json:"r_option,omitempty"`
	RPrice        *bool    `json:"r_price,omitempty"`
	AttrMatches   int      `json:"attr_matches"`
	OptionMatches int      `json:"option_matches"`
	Reward        float64  `json:"reward"`
}

// Reward scores buying p at price with the chosen options (option name →
// value) against goal, as WebShop's get_reward does; see the package notes
// for the approximations.
func Reward(p *Product, g *Goal, price float64, options map[string]string) RewardInfo {
	info := typeReward(p, g)
	nAttr := attributeMatches(p, g.Attributes)
	nOpt := optionMatches(p, g.GoalOptions, options)
	info.AttrMatches, info.OptionMatches = nAttr, nOpt
	if len(g.Attributes) > 0 {
		v := float64(nAttr) / float64(len(g.Attributes))
		info.RAtt = &v
	}
	if len(g.GoalOptions) > 0 {
		v := float64(nOpt) / float64(len(g.GoalOptions))
		info.ROption = &v
	}
	priceOK := 0
	if g.PriceUpper > 0 {
		ok := price <= g.PriceUpper
		info.RPrice = &ok
		if ok {
			priceOK = 1
		}
	}
	info.Reward = combine(info.RType, nAttr, nOpt, priceOK, len(g.Attributes), len(g.GoalOptions))
	return info
}

// combine is the reference's total: (attribute + option + price matches) /
// (goal attributes + goal options + 1), times the type reward, clamped to
// [0, 1].
func combine(rType float64, attrMatches, optMatches, priceOK, nAttr, nOpt int) float64 {
	r := float64(attrMatches+optMatches+priceOK) / float64(nAttr+nOpt+1) * rType
	return min(max(r, 0), 1)
}

// typeReward says whether the bought product is the right kind of thing:
// same search query, two shared category levels, or enough shared nouns.
func typeReward(p *Product, g *Goal) RewardInfo {
	info := RewardInfo{QueryMatch: p.Query == g.Query}
	if g.ProductCategory != "" || p.ProductCategory != "" {
		info.CategoryMatch = len(intersect(categoryLevels(p.ProductCategory), categoryLevels(g.ProductCategory))) >= 2
	}
	bought := nounTokens(p.Name)
	want := nounTokens(g.Name)
	if len(want) == 0 {
		info.TitleScore = 0.2
	} else {
		info.TitleScore = float64(len(intersect(bought, want))) / float64(len(want))
	}
	info.RType = 1
	if !(info.QueryMatch || info.CategoryMatch || info.TitleScore > 0.2) {
		info.RType = 0.5
	}
	if info.TitleScore < 0.1 {
		info.RType = 0.1
	}
	if info.TitleScore == 0 {
		info.RType = 0
	}
	return info
}

func categoryLevels(s string) []string {
	var out []string
	for _, part := range strings.Split(s, "›") {
		out = append(out, strings.TrimSpace(part))
	}
	return out
}

// intersect is the set intersection of a and b.
func intersect(a, b []string) map[string]bool {
	inB := map[string]bool{}
	for _, w := range b {
		inB[w] = true
	}
	out := map[string]bool{}
	for _, w := range a {
		if inB[w] {
			out[w] = true
		}
	}
	return out
}

// productText is title, bullet points and description, lower-cased: where
// the reward looks for attributes and options the structured fields lack.
func productText(p *Product) [3]string {
	return [3]string{
		strings.ToLower(p.Name),
		strings.ToLower(strings.Join(p.BulletPoints, " ")),
		strings.ToLower(p.Description),
	}
}

func inText(texts [3]string, s string) bool {
	for _, t := range texts {
		if strings.Contains(t, s) {
			return true
		}
	}
	return false
}

// attributeMatches counts goal attributes found among the product's
// attributes (fuzzily) or in its title, bullet points or description.
func attributeMatches(p *Product, goal []string) int {
	texts := productText(p)
	n := 0
	for _, g := range goal {
		matched := false
		for _, a := range p.Attributes {
			if tokenSetRatio(a, g) > fuzzyThreshold {
				matched = true
				break
			}
		}
		if matched || inText(texts, g) {
			n++
		}
	}
	return n
}

// optionMatches counts chosen options that match a goal option (exactly
// for sizes, fuzzily otherwise, colours normalised first) or appear in the
// product's text.
func optionMatches(p *Product, goal []string, chosen map[string]string) int {
	goalNorm := make([]string, len(goal))
	for i, g := range goal {
		goalNorm[i] = normalizeColor(g)
	}
	texts := productText(p)
	n := 0
	for name, value := range chosen {
		v := normalizeColor(value)
		matched := false
		if exactMatchOptions[strings.ToLower(name)] {
			for _, g := range goalNorm {
				if g == v {
					matched = true
					break
				}
			}
		} else {
			for _, g := range goalNorm {
				if tokenSetRatio(g, v) > fuzzyThreshold {
					matched = true
					break
				}
			}
		}
		if matched || inText(texts, v) {
			n++
		}
	}
	return n
}
