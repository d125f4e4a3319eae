package toolqa

import (
	"fmt"
	"strconv"

	"github.com/memharness/memharness/internal/pyfmt"
)

// Each solveX mirrors one template of ToolQA's generator notebooks
// (dataset_generation/{easy,hard}_questions/*_coffee.ipynb): same row
// selection, same loop order, same Python formatting.

func solveDayPct(t *Table, _ *Question, d []string) (solution, error) {
	r, err := t.day(d[0])
	if err != nil {
		return solution{}, err
	}
	return solution{
		SQL:    fmt.Sprintf("SELECT Open, Close FROM %s WHERE Date = '%s';", TableName, d[0]),
		Calc:   fmt.Sprintf("(%s - %s) / %s * 100", pyfmt.Float(r.Close), pyfmt.Float(r.Open), pyfmt.Float(r.Open)),
		Answer: pyfmt.Float(pyRound((r.Close-r.Open)/r.Open*100, 2)) + "%",
	}, nil
}

func solveBull(t *Table, _ *Question, d []string) (solution, error) {
	r, err := t.day(d[0])
	if err != nil {
		return solution{}, err
	}
	ans := "bearish"
	if r.Close > r.Open {
		ans = "bullish"
	}
	return solution{SQL: fmt.Sprintf("SELECT Open, Close FROM %s WHERE Date = '%s';", TableName, d[0]), Answer: ans}, nil
}

func solveDayRange(t *Table, _ *Question, d []string) (solution, error) {
	r, err := t.day(d[0])
	if err != nil {
		return solution{}, err
	}
	return solution{
		SQL:    fmt.Sprintf("SELECT High, Low FROM %s WHERE Date = '%s';", TableName, d[0]),
		Calc:   fmt.Sprintf("%s - %s", pyfmt.Float(r.High), pyfmt.Float(r.Low)),
		Answer: pyfmt.Float(pyRound(r.High-r.Low, 2)),
	}, nil
}

func solveMaxHigh(t *Table, _ *Question, d []string) (solution, error) {
	rows, err := t.between(d[0], d[1])
	if err != nil {
		return solution{}, err
	}
	v, cur := maxHigh(rows)
	return solution{
		SQL:    fmt.Sprintf("SELECT MAX(High), Currency FROM %s WHERE %s;", TableName, where(d)),
		Answer: pyNumber(v, cur != "") + " " + cur,
	}, nil
}

func solveMinLow(t *Table, _ *Question, d []string) (solution, error) {
	rows, err := t.between(d[0], d[1])
	if err != nil {
		return solution{}, err
	}
	v, cur := minLow(rows)
	return solution{
		SQL:    fmt.Sprintf("SELECT MIN(Low), Currency FROM %s WHERE %s;", TableName, where(d)),
		Answer: pyNumber(v, cur != "") + " " + cur,
	}, nil
}

func solveAvgClose(t *Table, _ *Question, d []string) (solution, error) {
	rows, err := t.between(d[0], d[1])
	if err != nil {
		return solution{}, err
	}
	return solution{
		SQL:    fmt.Sprintf("SELECT AVG(Close) FROM %s WHERE %s;", TableName, where(d)),
		Answer: pyFixed(meanClose(rows), 1) + " " + rows[0].Currency,
	}, nil
}

// firstOpenLastClose is the SQL for questions comparing the first day's
// open with the last day's close.
func firstOpenLastClose(d []string) string {
	return fmt.Sprintf("SELECT (SELECT Open FROM %[1]s WHERE %[2]s ORDER BY Date LIMIT 1) AS first_open, "+
		"(SELECT Close FROM %[1]s WHERE %[2]s ORDER BY Date DESC LIMIT 1) AS last_close;", TableName, where(d))
}

func solveChange(t *Table, _ *Question, d []string) (solution, error) {
	rows, err := t.between(d[0], d[1])
	if err != nil {
		return solution{}, err
	}
	first, last := rows[0], rows[len(rows)-1]
	return solution{
		SQL:    firstOpenLastClose(d),
		Calc:   fmt.Sprintf("%s - %s", pyfmt.Float(last.Close), pyfmt.Float(first.Open)),
		Answer: pyFixed(last.Close-first.Open, 1) + " " + first.Currency,
	}, nil
}

func solvePctIncrease(t *Table, _ *Question, d []string) (solution, error) {
	rows, err := t.between(d[0], d[1])
	if err != nil {
		return solution{}, err
	}
	first, last := rows[0], rows[len(rows)-1]
	return solution{
		SQL:    firstOpenLastClose(d),
		Calc:   fmt.Sprintf("(%s - %s) / %s * 100", pyfmt.Float(last.Close), pyfmt.Float(first.Open), pyfmt.Float(first.Open)),
		Answer: pyFixed((last.Close-first.Open)/first.Open*100, 1) + "%",
	}, nil
}

func solvePrevPct(t *Table, _ *Question, d []string) (solution, error) {
	today, err := t.day(d[0])
	if err != nil {
		return solution{}, err
	}
	prev, err := t.previousDate(d[0])
	if err != nil {
		return solution{}, err
	}
	yesterday, err := t.day(prev)
	if err != nil {
		return solution{}, err
	}
	return solution{
		SQL:    fmt.Sprintf("SELECT Date, Close FROM %s WHERE Date <= '%s' ORDER BY Date DESC LIMIT 2;", TableName, d[0]),
		Calc:   fmt.Sprintf("(%s - %s) / %s * 100", pyfmt.Float(today.Close), pyfmt.Float(yesterday.Close), pyfmt.Float(yesterday.Close)),
		Answer: pyFixed((today.Close-yesterday.Close)/yesterday.Close*100, 1) + "%",
	}, nil
}

func solveWidestDay(t *Table, _ *Question, d []string) (solution, error) {
	rows, err := t.between(d[0], d[1])
	if err != nil {
		return solution{}, err
	}
	return solution{
		SQL:    fmt.Sprintf("SELECT Date, High - Low AS spread FROM %s WHERE %s ORDER BY spread DESC, Date LIMIT 1;", TableName, where(d)),
		Answer: widestDay(rows),
	}, nil
}

func solveAvgVolume(t *Table, _ *Question, d []string) (solution, error) {
	rows, err := t.between(d[0], d[1])
	if err != nil {
		return solution{}, err
	}
	return solution{
		SQL:    fmt.Sprintf("SELECT AVG(Volume) FROM %s WHERE %s;", TableName, where(d)),
		Answer: pyFixed(meanVolume(rows), 1),
	}, nil
}

// dailyChanges is SQL for close-to-close changes inside the range (the
// first day of the range has none, as in the generator).
func dailyChanges(d []string) string {
	return fmt.Sprintf("WITH c AS (SELECT Date, Close - LAG(Close) OVER (ORDER BY Date) AS change FROM %s WHERE %s) ", TableName, where(d))
}

func solveBiggestRise(t *Table, _ *Question, d []string) (solution, error) {
	rows, err := t.between(d[0], d[1])
	if err != nil {
		return solution{}, err
	}
	day, err := biggestRise(rows)
	if err != nil {
		return solution{}, err
	}
	return solution{
		SQL:    dailyChanges(d) + "SELECT Date, change FROM c WHERE change > 0 ORDER BY change DESC, Date LIMIT 1;",
		Answer: day,
	}, nil
}

func solveCountRises(t *Table, _ *Question, d []string) (solution, error) {
	rows, err := t.between(d[0], d[1])
	if err != nil {
		return solution{}, err
	}
	return solution{
		SQL:    dailyChanges(d) + "SELECT COUNT(*) FROM c WHERE change > 0;",
		Answer: strconv.Itoa(countRises(rows)),
	}, nil
}

func solvePriceRange(t *Table, q *Question, d []string) (solution, error) {
	rows, err := t.between(d[0], d[1])
	if err != nil {
		return solution{}, err
	}
	bug := q.Source == SourceToolQA
	sql := fmt.Sprintf("SELECT MAX(High) - MIN(Low) AS price_range, Currency FROM %s WHERE %s;", TableName, where(d))
	if bug {
		sql = fmt.Sprintf("SELECT MAX(High) AS price_range, Currency FROM %s WHERE %s;", TableName, where(d))
	}
	return solution{SQL: sql, Answer: pyFixed(priceRange(rows, bug), 1) + " " + rows[0].Currency}, nil
}

func solveCountBullish(t *Table, _ *Question, d []string) (solution, error) {
	rows, err := t.between(d[0], d[1])
	if err != nil {
		return solution{}, err
	}
	return solution{
		SQL:    fmt.Sprintf("SELECT COUNT(*) FROM %s WHERE %s AND Close > Open;", TableName, where(d)),
		Answer: strconv.Itoa(countBullish(rows)),
	}, nil
}

func solveAvgDayPct(t *Table, _ *Question, d []string) (solution, error) {
	rows, err := t.between(d[0], d[1])
	if err != nil {
		return solution{}, err
	}
	return solution{
		SQL:    fmt.Sprintf("SELECT AVG((Close - Open) / Open * 100) FROM %s WHERE %s;", TableName, where(d)),
		Answer: pyFixed(meanDailyPct(rows), 1) + "%",
	}, nil
}
