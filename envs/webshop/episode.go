package webshop

import (
	"context"
	"strings"

	"github.com/memharness/memharness/envs"
)

// pageKind is where the shopper is.
type pageKind int

const (
	pageStart pageKind = iota
	pageResults
	pageItem
	pageSub
	pageDone
)

var pageNames = [...]string{"search", "results", "item", "item_sub", "done"}

func (k pageKind) String() string { return pageNames[k] }

// episode is one shopping session. It only reads the suite's catalogue.
type episode struct {
	suite   *Suite
	goal    *Goal
	page    pageKind
	results []*Product
	pageNum int
	item    *Product
	chosen  map[string]string // option name → value
	sub     string
	steps   int
	done    bool
	info    *RewardInfo
}

var _ envs.Episode = (*episode)(nil)

func (e *episode) Observation() string { return renderStart(e.goal.InstructionText) }
func (e *episode) Done() bool          { return e.done }
func (e *episode) Close() error        { return nil }

// Score is the reward of the purchase, 0 before one.
func (e *episode) Score() float64 {
	if e.info == nil {
		return 0
	}
	return e.info.Reward
}

// Step applies one action. Nothing the agent sends is an error: bad actions
// answer "Invalid action!" with Invalid set.
func (e *episode) Step(_ context.Context, action string) (envs.Step, error) {
	if e.done {
		return envs.Step{Observation: obsEnded, Done: true, Invalid: true}, nil
	}
	e.steps++
	st := e.apply(action)
	if st.Info == nil {
		st.Info = map[string]any{}
	}
	st.Info["page"] = e.page.String()
	if !e.done && e.steps >= e.suite.MaxSteps() {
		e.done = true // out of steps without a purchase
	}
	st.Done = e.done
	return st, nil
}

func invalid(why string) envs.Step {
	return envs.Step{Observation: obsInvalid, Invalid: true, Info: map[string]any{"error": why}}
}

func (e *episode) apply(action string) envs.Step {
	a, err := ParseAction(action)
	if err != nil {
		return invalid(err.Error())
	}
	switch a.Kind {
	case ActThink:
		return envs.Step{Observation: obsThink}
	case ActSearch:
		if e.page != pageStart {
			return invalid("search is only possible on the search page")
		}
		e.results = e.suite.cat.Search(strings.ToLower(a.Arg))
		e.page, e.pageNum = pageResults, 1
		return e.show()
	}
	return e.click(a.Arg)
}

// click handles click[target] on the current page.
func (e *episode) click(target string) envs.Step {
	is := func(label string) bool { return strings.EqualFold(target, label) }
	switch {
	case is(btnBack):
		if e.page == pageStart {
			return invalid("already on the search page")
		}
		e.page, e.results, e.item, e.chosen = pageStart, nil, nil, nil
		return envs.Step{Observation: renderStart(e.goal.InstructionText)}
	case is(btnNext):
		if e.page != pageResults || e.pageNum*pageSize >= len(e.results) {
			return invalid("no next page")
		}
		e.pageNum++
		return e.show()
	case is(btnPrev):
		return e.prev()
	case is(btnBuy):
		if e.page != pageItem {
			return invalid("Buy Now is on item pages")
		}
		return e.buy()
	}
	for _, s := range subPages {
		if is(s) {
			if e.page != pageItem {
				return invalid(s + " is on item pages")
			}
			e.page, e.sub = pageSub, s
			return e.show()
		}
	}
	switch e.page {
	case pageResults:
		for _, p := range pageOf(e.results, e.pageNum) {
			if is(p.ASIN) {
				e.page, e.item, e.chosen = pageItem, p, map[string]string{}
				return e.show()
			}
		}
		return invalid("no product " + target + " on this page")
	case pageItem:
		return e.chooseOption(target)
	}
	return invalid("nothing to click called " + target)
}

// prev goes one page back: previous results page, item → results,
// sub-page → item.
func (e *episode) prev() envs.Step {
	switch {
	case e.page == pageResults && e.pageNum > 1:
		e.pageNum--
	case e.page == pageItem:
		e.page, e.item, e.chosen = pageResults, nil, nil
	case e.page == pageSub:
		e.page = pageItem
	default:
		return invalid("no previous page")
	}
	return e.show()
}

// chooseOption selects an option value of the current item; the value's
// option name is the last one listing it, as in ExpeL.
func (e *episode) chooseOption(target string) envs.Step {
	for v, name := range e.item.optionTypes() {
		if strings.EqualFold(v, target) {
			e.chosen[name] = v
			return envs.Step{Observation: "You have clicked " + v + "."}
		}
	}
	return invalid("no option " + target + " on this item")
}

func (e *episode) buy() envs.Step {
	info := Reward(e.item, e.goal, e.item.Price(), e.chosen)
	e.info, e.page, e.done = &info, pageDone, true
	return envs.Step{
		Observation: renderDone(info.Reward),
		Reward:      info.Reward,
		Info: map[string]any{
			"asin": e.item.ASIN, "options": copyMap(e.chosen), "reward_info": info,
			"success": info.Reward >= 1,
		},
	}
}

// show renders the current page.
func (e *episode) show() envs.Step {
	switch e.page {
	case pageResults:
		return envs.Step{Observation: renderResults(e.results, e.pageNum, e.suite.resultDetail)}
	case pageItem:
		return envs.Step{Observation: renderItem(e.item, e.chosen)}
	case pageSub:
		return envs.Step{Observation: renderSub(e.item, e.sub)}
	}
	return envs.Step{Observation: renderStart(e.goal.InstructionText)}
}

func copyMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
