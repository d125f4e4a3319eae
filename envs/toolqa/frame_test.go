package toolqa

import (
	"strings"
	"testing"
)

func smallTable(t testing.TB) *Table {
	t.Helper()
	csv := "Date,Open,High,Low,Close,Volume,Currency\n" +
		"2000-01-03,122.25,124.0,116.1,116.5,6640,USD\n" +
		"2000-01-04,116.25,120.5,115.75,116.25,5492,USD\n" +
		"2000-01-05,115.0,121.0,115.0,118.6,6165,USD\n" +
		"2000-01-06,119,121.4,116.5,116.85,5094,USD\n"
	tb, err := ReadTable(strings.NewReader(csv), "small.csv")
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func TestFrame(t *testing.T) {
	type call struct{ tool, arg, want string }
	for _, tc := range []struct {
		name  string
		calls []call
	}{
		{"needs LoadDB", []call{{"FilterDB", "Date=2000-01-03", msgNoDB}, {"GetValue", "Open", msgNoDB}}},
		{"unknown db", []call{{"LoadDB", "flights", msgUnknownD}}},
		{"single day", []call{
			{"LoadDB", "coffee", "We have successfully loaded the coffee database, including the following columns: Date, Open, High, Low, Close, Volume, Currency."},
			{"FilterDB", "Date=2000-01-06", "We have successfully filtered the data (1 rows)."},
			{"GetValue", "Open", "119.0"}, // pandas prints floats like Python
			{"GetValue", "Volume", "5094"},
		}},
		{"date range with and", []call{
			{"LoadDB", "coffee", ""},
			{"FilterDB", "Date>='2000-01-04' and Date<=2000-01-05", "We have successfully filtered the data (2 rows)."},
			{"GetValue", "Close", "116.25, 118.6"},
		}},
		{"numeric comparison, not string", []call{
			{"LoadDB", "coffee", ""},
			{"FilterDB", "Open>=116.25", "We have successfully filtered the data (3 rows)."},
			{"FilterDB", "Volume < 6000", "We have successfully filtered the data (2 rows)."},
			{"GetValue", "Date", "2000-01-04, 2000-01-06"},
		}},
		{"string comparison", []call{{"LoadDB", "coffee", ""}, {"FilterDB", "Currency=USD", "We have successfully filtered the data (4 rows)."}}},
		{"zero rows reverts the call", []call{
			{"LoadDB", "coffee", ""},
			{"FilterDB", "Open>100, Open>500", "The filtering query Open>500 resulted in 0 rows. Reverting."},
			{"GetValue", "Date", "2000-01-03, 2000-01-04, 2000-01-05, 2000-01-06"},
		}},
		{"bad conditions", []call{
			{"LoadDB", "coffee", ""},
			{"FilterDB", "Price>1", "The column 'Price' does not exist."},
			{"FilterDB", "Open", "The filtering query Open is incorrect (no valid operator). Please modify the condition."},
			{"GetValue", "Price", "The value you are querying does not exist. Please modify it."},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &frame{table: smallTable(t)}
			for _, c := range tc.calls {
				var got string
				switch c.tool {
				case "LoadDB":
					got, _ = f.loadDB(c.arg)
				case "FilterDB":
					got, _ = f.filterDB(c.arg)
				case "GetValue":
					got, _ = f.getValue(c.arg, DefaultLimits())
				}
				if c.want != "" && got != c.want {
					t.Errorf("%s[%s] = %q, want %q", c.tool, c.arg, got, c.want)
				}
			}
		})
	}
}

func TestGetValueCapsRows(t *testing.T) {
	f := &frame{table: smallTable(t)}
	f.loadDB("coffee")
	got, ok := f.getValue("Volume", Limits{Rows: 2, Chars: 1000})
	if !ok || !strings.HasPrefix(got, "6640, 5492, ...") || !strings.Contains(got, "4 values in all") {
		t.Errorf("getValue with a 2-row cap = %q, %v", got, ok)
	}
}

func FuzzFilterDB(f *testing.F) {
	for _, s := range []string{"Date=2000-01-03", "Open>=1, Close<200", "and and, ,", "Date>2000/01/04", "=", "Volume<=1e9", ">=<="} {
		f.Add(s)
	}
	tb := smallTable(f)
	f.Fuzz(func(t *testing.T, arg string) {
		fr := &frame{table: tb}
		fr.loadDB("coffee")
		msg, ok := fr.filterDB(arg)
		if msg == "" {
			t.Fatal("empty observation")
		}
		if len(fr.rows) == 0 {
			t.Fatalf("FilterDB[%q] left no rows (ok=%v, %q)", arg, ok, msg)
		}
		if _, ok := fr.getValue("Date", DefaultLimits()); !ok {
			t.Fatal("GetValue after FilterDB failed")
		}
	})
}
