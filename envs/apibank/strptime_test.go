package apibank

import "testing"

func TestStrptime(t *testing.T) {
	for _, tc := range []struct {
		in, layout, want, err string
	}{
		{"2023-09-12 14:00:00", layoutDateTime, "2023-09-12 14:00:00", ""},
		{"2023-9-2 4:5:6", layoutDateTime, "2023-09-02 04:05:06", ""},
		{"2023-09-12  14:00:00", layoutDateTime, "2023-09-12 14:00:00", ""},
		{"2023-09-12", layoutDateTime, "", "time data '2023-09-12' does not match format '%Y-%m-%d %H:%M:%S'"},
		{"2023-09-12 14:00", layoutDateTime, "", "time data '2023-09-12 14:00' does not match format '%Y-%m-%d %H:%M:%S'"},
		{"2023-02-30", layoutDate, "", "day is out of range for month"},
		{"2023-02-03x", layoutDate, "", "unconverted data remains: x"},
		{"02-29", layoutMonthDay, "", "day is out of range for month"}, // year 1900
		{"3-31", layoutMonthDay, "03-31", ""},
	} {
		got, err := strptime(tc.in, tc.layout)
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("strptime(%q) error = %v, want %q", tc.in, err, tc.err)
			}
		case err != nil:
			t.Errorf("strptime(%q): %v", tc.in, err)
		case strftime(got, tc.layout) != tc.want:
			t.Errorf("strptime(%q) = %s, want %s", tc.in, strftime(got, tc.layout), tc.want)
		}
	}
}

func TestNormalizeDate(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{" 23-3-5 ", "0023-03-05"}, {"2023-03-05", "2023-03-05"}, {"-5-1-1", "-005-01-01"},
	} {
		got := normalizeDate(tc.in, layoutDate)
		if tc.in == "-5-1-1" {
			if got.err == nil {
				t.Errorf("normalizeDate(%q) accepted", tc.in)
			}
			continue
		}
		if got.err != nil || got.s != tc.want {
			t.Errorf("normalizeDate(%q) = %+v, want %s", tc.in, got, tc.want)
		}
	}
}
