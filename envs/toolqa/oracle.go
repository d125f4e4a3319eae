package toolqa

import (
	"fmt"
	"strconv"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/internal/pyfmt"
)

// solution is what the oracle derives for one question: the SQL an agent
// would run, an optional formula for Calculate, and the answer recomputed
// from the table.
type solution struct {
	SQL    string
	Calc   string
	Answer string
}

// template is one of ToolQA's 21 coffee question templates (8 easy, 13 hard).
type template struct {
	name  string
	re    *lazyre.Regexp
	solve func(t *Table, q *Question, d []string) (solution, error)
}

const date = `(\d{4}-\d{2}-\d{2})`

func re(s string) *lazyre.Regexp { return lazyre.New(s) }

// where is the SQL date filter of a range question.
func where(d []string) string {
	return fmt.Sprintf("Date >= '%s' AND Date <= '%s'", d[0], d[1])
}

// column reads one column of a single day.
func column(col string, get func(Row) string) func(*Table, *Question, []string) (solution, error) {
	return func(t *Table, _ *Question, d []string) (solution, error) {
		r, err := t.day(d[0])
		if err != nil {
			return solution{}, err
		}
		return solution{SQL: fmt.Sprintf("SELECT %s FROM %s WHERE Date = '%s';", col, TableName, d[0]), Answer: get(r)}, nil
	}
}

var templates = []template{
	{"open", re(`^What was the opening price of coffee on ` + date + `\?$`), column("Open", func(r Row) string { return pyfmt.Float(r.Open) })},
	{"low", re(`^What was the lowest price of coffee on ` + date + `\?$`), column("Low", func(r Row) string { return pyfmt.Float(r.Low) })},
	{"high", re(`^What was the highest price of coffee on ` + date + `\?$`), column("High", func(r Row) string { return pyfmt.Float(r.High) })},
	{"close", re(`^What was the closing price of coffee on ` + date + `\?$`), column("Close", func(r Row) string { return pyfmt.Float(r.Close) })},
	{"volume", re(`^What was the volume of coffee on ` + date + `\?$`), column("Volume", func(r Row) string { return strconv.FormatInt(r.Volume, 10) })},
	{"day-pct", re(`^What was the percentage change in coffee price on ` + date + `, based on the difference between the opening and closing prices\?$`), solveDayPct},
	{"bull", re(`^Was ` + date + ` a bearish or bullish day for coffee price\?$`), solveBull},
	{"day-range", re(`^What was the range of coffee price on ` + date + `, based on the difference between the high and low prices\?+$`), solveDayRange},
	{"max-high", re(`^What was the highest coffee price from ` + date + ` to ` + date + `\?$`), solveMaxHigh},
	{"min-low", re(`^What was the lowest coffee price from ` + date + ` to ` + date + `\?$`), solveMinLow},
	{"avg-close", re(`^What was the average coffee price from ` + date + ` to ` + date + `\?$`), solveAvgClose},
	{"change", re(`^How much did the coffee price change from ` + date + ` to ` + date + `\?$`), solveChange},
	{"prev-pct", re(`^What was the percentage change in coffee price on ` + date + ` compared to the previous day\?$`), solvePrevPct},
	{"widest-day", re(`^On which date from ` + date + ` to ` + date + ` was the difference between the highest and lowest coffee prices the greatest\?$`), solveWidestDay},
	{"avg-volume", re(`^What was the average daily volume of coffee traded from ` + date + ` to ` + date + `\?$`), solveAvgVolume},
	{"biggest-rise", re(`^On which date from ` + date + ` to ` + date + ` did the coffee price have the highest increase compared to the previous day\?$`), solveBiggestRise},
	{"count-rises", re(`^How many times from ` + date + ` to ` + date + ` did the coffee price increase compared to the previous day\?$`), solveCountRises},
	{"pct-increase", re(`^What was the percentage increase in coffee price from ` + date + ` to ` + date + `\?$`), solvePctIncrease},
	{"price-range", re(`^What was the coffee price range from ` + date + ` to ` + date + `\?$`), solvePriceRange},
	{"count-bullish", re(`^On how many days from ` + date + ` to ` + date + ` did the coffee price close higher than the opening price\?$`), solveCountBullish},
	{"avg-day-pct", re(`^What was the average percentage change in coffee price from ` + date + ` to ` + date + `\?$`), solveAvgDayPct},
}

// match finds q's template and its dates.
func match(q *Question) (template, []string, error) {
	for _, tp := range templates {
		if m := tp.re.FindStringSubmatch(q.Question); m != nil {
			return tp, m[1:], nil
		}
	}
	return template{}, nil, fmt.Errorf("question %q matches no known coffee template", q.Question)
}

// solve derives q's solution from t.
func solve(t *Table, q *Question) (solution, error) {
	tp, d, err := match(q)
	if err != nil {
		return solution{}, err
	}
	s, err := tp.solve(t, q, d)
	if err != nil {
		return solution{}, fmt.Errorf("%s template: %w", tp.name, err)
	}
	return s, nil
}

// Gold implements envs.Oracle: load the database (as the training
// trajectories do), run the template's SQL, compute with Calculate where the
// question needs arithmetic, and Finish with the answer recomputed from the
// CSV.
func (s *Suite) Gold(t envs.Task) ([]string, error) {
	q, err := question(t)
	if err != nil {
		return nil, err
	}
	sol, err := solve(s.table, q)
	if err != nil {
		return nil, fmt.Errorf("toolqa: %s: %w", t.ID, err)
	}
	actions := []string{"LoadDB[coffee]", ToolSQLInterpreter + "[" + sol.SQL + "]"}
	if sol.Calc != "" {
		actions = append(actions, ToolCalculate+"["+sol.Calc+"]")
	}
	return append(actions, ToolFinish+"["+sol.Answer+"]"), nil
}

// GoldCustom is the oracle for the single-day (easy) questions using only
// the custom functions LoadDB, FilterDB and GetValue, as ToolQA's original
// tool set would; other questions return an error.
func (s *Suite) GoldCustom(t envs.Task) ([]string, error) {
	q, err := question(t)
	if err != nil {
		return nil, err
	}
	tp, d, err := match(q)
	if err != nil {
		return nil, fmt.Errorf("toolqa: %s: %w", t.ID, err)
	}
	sol, err := tp.solve(s.table, q, d)
	if err != nil {
		return nil, fmt.Errorf("toolqa: %s: %w", t.ID, err)
	}
	get := map[string][]string{
		"open": {"Open"}, "low": {"Low"}, "high": {"High"}, "close": {"Close"}, "volume": {"Volume"},
		"day-pct": {"Open", "Close"}, "bull": {"Open", "Close"}, "day-range": {"High", "Low"},
	}[tp.name]
	if get == nil {
		return nil, fmt.Errorf("toolqa: %s: %s questions have no custom-function oracle", t.ID, tp.name)
	}
	actions := []string{"LoadDB[coffee]", "FilterDB[Date=" + d[0] + "]"}
	for _, c := range get {
		actions = append(actions, ToolGetValue+"["+c+"]")
	}
	if sol.Calc != "" {
		actions = append(actions, ToolCalculate+"["+sol.Calc+"]")
	}
	return append(actions, ToolFinish+"["+sol.Answer+"]"), nil
}
