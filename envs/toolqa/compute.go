package toolqa

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/memharness/memharness/internal/pyfmt"
)

// This file recomputes answers from the table the way ToolQA's question
// generators did (pandas, row loops in file order, Python formatting), so
// the oracle's answers are derived from the CSV, never copied from a key.

var errNoRows = errors.New("no rows in the date range")

// day returns the first row dated d (pandas .loc[...].iloc[0]).
func (t *Table) day(d string) (Row, error) {
	for _, r := range t.Rows {
		if r.Date == d {
			return r, nil
		}
	}
	return Row{}, fmt.Errorf("no row dated %s", d)
}

// between returns the rows with from <= Date <= to, in file order (string
// comparison, as pandas does on the Date column).
func (t *Table) between(from, to string) ([]Row, error) {
	var rows []Row
	for _, r := range t.Rows {
		if r.Date >= from && r.Date <= to {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w %s..%s", errNoRows, from, to)
	}
	return rows, nil
}

// previousDate is the date before d in the sorted list of distinct dates.
func (t *Table) previousDate(d string) (string, error) {
	set := map[string]bool{}
	for _, r := range t.Rows {
		set[r.Date] = true
	}
	dates := make([]string, 0, len(set))
	for x := range set {
		dates = append(dates, x)
	}
	sort.Strings(dates)
	i := sort.SearchStrings(dates, d)
	if i >= len(dates) || dates[i] != d {
		return "", fmt.Errorf("no row dated %s", d)
	}
	if i == 0 {
		return "", fmt.Errorf("%s is the first date; it has no previous day", d)
	}
	return dates[i-1], nil
}

// maxHigh is the generator's loop: the first strictly greatest High, with
// its currency, starting from 0.
func maxHigh(rows []Row) (float64, string) {
	best, cur := 0.0, ""
	for _, r := range rows {
		if r.High > best {
			best, cur = r.High, r.Currency
		}
	}
	return best, cur
}

// minLow is the generator's loop starting from 1000000.
func minLow(rows []Row) (float64, string) {
	best, cur := 1000000.0, ""
	for _, r := range rows {
		if r.Low < best {
			best, cur = r.Low, r.Currency
		}
	}
	return best, cur
}

// pyNumber prints a value that Python holds as an int when it never moved
// off its integer starting value (max_price = 0) and as a float otherwise.
func pyNumber(x float64, isFloat bool) string {
	if !isFloat {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return pyfmt.Float(x)
}

func meanClose(rows []Row) float64 {
	sum := 0.0
	for _, r := range rows {
		sum += r.Close
	}
	return sum / float64(len(rows))
}

func meanVolume(rows []Row) float64 {
	var sum int64
	for _, r := range rows {
		sum += r.Volume
	}
	return float64(sum) / float64(len(rows))
}

func meanDailyPct(rows []Row) float64 {
	sum := 0.0
	for _, r := range rows {
		sum += (r.Close - r.Open) / r.Open * 100
	}
	return sum / float64(len(rows))
}

// widestDay is the first day with the strictly greatest High-Low ("" when
// every day has a zero range, as the generator would print).
func widestDay(rows []Row) string {
	best, date := 0.0, ""
	for _, r := range rows {
		if d := r.High - r.Low; d > best {
			best, date = d, r.Date
		}
	}
	return date
}

// biggestRise is the first day with the strictly greatest positive
// close-to-close change within rows. The generator had no answer (it reused
// a stale variable) when no day rose; we report that as an error.
func biggestRise(rows []Row) (string, error) {
	best, date := 0.0, ""
	for i := 1; i < len(rows); i++ {
		if c := rows[i].Close - rows[i-1].Close; c > best {
			best, date = c, rows[i].Date
		}
	}
	if date == "" {
		return "", errors.New("no day in the range closed higher than the day before")
	}
	return date, nil
}

func countRises(rows []Row) int {
	n := 0
	for i := 1; i < len(rows); i++ {
		if rows[i].Close > rows[i-1].Close {
			n++
		}
	}
	return n
}

func countBullish(rows []Row) int {
	n := 0
	for _, r := range rows {
		if r.Close > r.Open {
			n++
		}
	}
	return n
}

// priceRange is High-Low over rows. ToolQA's generator started its lowest
// price at 0 and only lowered it, so its key is the highest High (minus 0);
// LifeMem's regenerated questions use the real max(High)-min(Low).
func priceRange(rows []Row, toolqaBug bool) float64 {
	hi, _ := maxHigh(rows)
	lo := math.Inf(1)
	if toolqaBug {
		lo = 0
	}
	for _, r := range rows {
		if r.Low < lo {
			lo = r.Low
		}
	}
	return hi - lo
}
