package webshop

import (
	"fmt"
	"strings"

	"github.com/memharness/memharness/envs"
)

// Gold buys the goal product with the goal options: search by the goal's
// words (the instruction without its price clause, else the product name,
// else its category query — whichever lists the product on the earliest
// page), page forward to it, open it, click each goal option, Buy Now.
func (s *Suite) Gold(t envs.Task) ([]string, error) {
	g, err := goalOf(t)
	if err != nil {
		return nil, err
	}
	p := s.cat.Product(g.ASIN)
	if p == nil {
		return nil, fmt.Errorf("product %s is not in the catalogue", g.ASIN)
	}
	query, page := s.bestQuery(g)
	if page < 0 {
		return nil, fmt.Errorf("no goal query finds product %s", g.ASIN)
	}
	acts := []string{Action{ActSearch, query}.String()}
	for range page {
		acts = append(acts, Action{ActClick, btnNext}.String())
	}
	acts = append(acts, Action{ActClick, p.ASIN}.String())
	values, err := goalValues(p, g.GoalOptions)
	if err != nil {
		return nil, err
	}
	for _, v := range values {
		acts = append(acts, Action{ActClick, v}.String())
	}
	acts = append(acts, Action{ActClick, btnBuy}.String())
	if len(acts) > MaxSteps {
		return nil, fmt.Errorf("gold path needs %d steps (> %d)", len(acts), MaxSteps)
	}
	return acts, nil
}

// bestQuery returns the candidate query listing the product on the
// earliest results page (0-based), or page -1 when none lists it.
func (s *Suite) bestQuery(g *Goal) (string, int) {
	instr, _ := splitPrice(g.InstructionText)
	best, bestPage := "", -1
	for _, q := range []string{instr, g.Name, g.Query} {
		q = cleanQuery(q)
		if q == "" {
			continue
		}
		for i, p := range s.cat.Search(q) {
			if p.ASIN == g.ASIN {
				if bestPage < 0 || i/pageSize < bestPage {
					best, bestPage = q, i/pageSize
				}
				break
			}
		}
		if bestPage == 0 {
			break
		}
	}
	return best, bestPage
}

// cleanQuery makes text safe inside search[...]: brackets and line breaks
// become spaces.
func cleanQuery(q string) string {
	q = strings.Map(func(r rune) rune {
		if r == '[' || r == ']' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, q)
	return strings.Join(strings.Fields(strings.ToLower(q)), " ")
}

// goalValues maps each goal option to the product's option value to click:
// the exact value, else (outside size options) the best fuzzy match above
// the reward's threshold. A purchase holds one value per option name, so
// two goal options under one name cannot both be bought.
func goalValues(p *Product, goal []string) ([]string, error) {
	types := p.optionTypes()
	byName := map[string]string{}
	var out []string
	for _, g := range goal {
		v := matchOption(p, g)
		if v == "" {
			return nil, fmt.Errorf("goal option %q is not an option of %s", g, p.ASIN)
		}
		if prev, ok := byName[types[v]]; ok {
			return nil, fmt.Errorf("goal options %q and %q are both values of option %q of %s", prev, g, types[v], p.ASIN)
		}
		byName[types[v]] = g
		out = append(out, v)
	}
	return out, nil
}

func matchOption(p *Product, goal string) string {
	goal = strings.ToLower(strings.TrimSpace(goal))
	for _, o := range p.Options {
		for _, v := range o.Values {
			if v == goal {
				return v
			}
		}
	}
	best, bestScore := "", fuzzyThreshold
	for _, o := range p.Options {
		if exactMatchOptions[o.Name] {
			continue
		}
		for _, v := range o.Values {
			if sc := tokenSetRatio(normalizeColor(goal), normalizeColor(v)); sc > bestScore {
				best, bestScore = v, sc
			}
		}
	}
	return best
}
