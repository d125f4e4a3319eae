package apibank

import (
	"fmt"
	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/internal/pyfmt"
	"strconv"
	"time"
)

// The reference APIs validate dates with Python's datetime.strptime, which is
// more lenient than Go's time.Parse (single-digit months and hours, runs of
// whitespace) and has its own error texts. These are the three layouts used.
const (
	layoutDate     = "%Y-%m-%d"
	layoutDateTime = "%Y-%m-%d %H:%M:%S"
	layoutMonthDay = "%m-%d"
)

// Python's _strptime directive patterns for the layouts above.
var (
	dateRE     = lazyre.New(`^(\d\d\d\d)-(1[0-2]|0[1-9]|[1-9])-(3[0-1]|[1-2]\d|0[1-9]|[1-9]| [1-9])`)
	dateTimeRE = lazyre.New(`^(\d\d\d\d)-(1[0-2]|0[1-9]|[1-9])-(3[0-1]|[1-2]\d|0[1-9]|[1-9]| [1-9])\s+(2[0-3]|[0-1]\d|\d):([0-5]\d|\d):(6[0-1]|[0-5]\d|\d)`)
	monthDayRE = lazyre.New(`^(1[0-2]|0[1-9]|[1-9])-(3[0-1]|[1-2]\d|0[1-9]|[1-9]| [1-9])`)
)

// strptime parses s like datetime.strptime(s, layout) and returns the time in
// UTC; the error text is Python's.
func strptime(s, layout string) (time.Time, error) {
	re := dateTimeRE
	switch layout {
	case layoutDate:
		re = dateRE
	case layoutMonthDay:
		re = monthDayRE
	}
	m := re.FindStringSubmatchIndex(s)
	if m == nil {
		return time.Time{}, fmt.Errorf("time data %s does not match format %s", pyfmt.Str(s), pyfmt.Str(layout))
	}
	if m[1] != len(s) {
		return time.Time{}, fmt.Errorf("unconverted data remains: %s", s[m[1]:])
	}
	num := func(i int) int {
		n, _ := strconv.Atoi(trimSpace(s[m[2*i]:m[2*i+1]]))
		return n
	}
	year, month, day, hour, minute, sec := 1900, 1, 1, 0, 0, 0
	switch layout {
	case layoutMonthDay:
		month, day = num(1), num(2)
	default:
		year, month, day = num(1), num(2), num(3)
		if layout == layoutDateTime {
			hour, minute, sec = num(4), num(5), num(6)
		}
	}
	if year < 1 {
		return time.Time{}, fmt.Errorf("year %d is out of range", year)
	}
	if day > daysIn(year, month) {
		return time.Time{}, fmt.Errorf("day is out of range for month")
	}
	if sec > 59 {
		return time.Time{}, fmt.Errorf("second must be in 0..59")
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, 0, time.UTC), nil
}

func daysIn(year, month int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// strftime formats t in one of the layouts, zero-padded like Python.
func strftime(t time.Time, layout string) string {
	switch layout {
	case layoutDate:
		return fmt.Sprintf("%04d-%02d-%02d", t.Year(), t.Month(), t.Day())
	case layoutMonthDay:
		return fmt.Sprintf("%02d-%02d", t.Month(), t.Day())
	}
	return fmt.Sprintf("%04d-%02d-%02d %02d:%02d:%02d", t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second())
}

func trimSpace(s string) string {
	for len(s) > 0 && s[0] == ' ' {
		s = s[1:]
	}
	return s
}
