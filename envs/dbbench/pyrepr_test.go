package dbbench

import (
	"math"
	"testing"
	"time"
)

func TestPyRepr(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{nil, "None"},
		{int64(-5), "-5"},
		{1.0, "1.0"},
		{0.1, "0.1"},
		{6800.0, "6800.0"},
		{3.3333333333333335, "3.3333333333333335"},
		{1e16, "1e+16"},
		{1.5e16, "1.5e+16"},
		{123456789012345.6, "123456789012345.6"},
		{0.0001, "0.0001"},
		{0.00001, "1e-05"},
		{math.Copysign(0, -1), "-0.0"},
		{math.Inf(1), "inf"},
		{pyDecimal("6800"), "Decimal('6800')"},
		{"John Doe", "'John Doe'"},
		{"it's", `"it's"`},
		{`both ' and "`, `'both \' and "'`},
		{"tab\tnew\nline\\", `'tab\tnew\nline\\'`},
		{"\x01", `'\x01'`},
		{"café", "'café'"},
		{"\u00a0", `'\xa0'`},
		{[]byte("ab'"), `b"ab'"`},
		{pyDate{2023, 1, 5}, "datetime.date(2023, 1, 5)"},
		{time.Date(2023, 1, 5, 10, 30, 0, 0, time.UTC), "datetime.datetime(2023, 1, 5, 10, 30)"},
		{time.Date(2023, 1, 5, 10, 30, 7, 0, time.UTC), "datetime.datetime(2023, 1, 5, 10, 30, 7)"},
	}
	for _, tt := range tests {
		if got := pyRepr(tt.in); got != tt.want {
			t.Errorf("pyRepr(%#v) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestRenderRows(t *testing.T) {
	tests := []struct {
		rows [][]any
		want string
	}{
		{nil, "[]"},
		{[][]any{{int64(5)}}, "[(5,)]"},
		{[][]any{{int64(1), "a"}, {int64(2), nil}}, "[(1, 'a'), (2, None)]"},
	}
	for _, tt := range tests {
		if got := renderRows(tt.rows); got != tt.want {
			t.Errorf("renderRows = %s, want %s", got, tt.want)
		}
	}
}
