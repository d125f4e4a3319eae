package dbbench

import (
	"encoding/json"
	"testing"
)

func num(s string) json.Number { return json.Number(s) }

func TestMatchDirect(t *testing.T) {
	gold := [][]any{{"unpaid", num("6800.0")}, {"pending", num("6100.0")}}
	one := [][]any{{num("42")}}
	tests := []struct {
		name   string
		answer string
		gold   [][]any
		want   bool
	}{
		{"python repr", "[('unpaid', Decimal('6800')), ('pending', Decimal('6100'))]", gold, true},
		{"plain numbers", "[('unpaid', 6800), ('pending', 6100.0000001)]", gold, true},
		{"row order matters", "[('pending', 6100), ('unpaid', 6800)]", gold, false},
		{"too few rows", "[('unpaid', 6800)]", gold, false},
		{"double quotes tolerated", `[("unpaid", 6800), ("pending", 6100)]`, gold, true},
		{"unquoted strings", "[(unpaid, 6800), (pending, 6100)]", gold, true},
		{"float off by more than 1e-6", "[('unpaid', 6800.01), ('pending', 6100)]", gold, false},
		{"single value without tuple", "42", one, true},
		{"single value in tuple", "[(42,)]", one, true},
		{"single value decimal", "[(Decimal('42.0000'),)]", one, true},
		{"quoted number: upstream off-by-one keeps the quote", "[('42',)]", one, false},
		{"junk around a number never parses (upstream trim keeps one junk char)", "[(x'42',)]", one, false},
		{"empty answer, empty gold", "", [][]any{}, true},
		{"empty list, empty gold", "[]", [][]any{}, true},
		{"unbalanced parens", "[(42,]", one, false},
		{"nested Decimal twice", "[(Decimal(Decimal('1')),)]", one, false},
		{"comma inside string never matches", "[('a, b',)]", [][]any{{"a, b"}}, false},
		{"python float syntax with underscores", "[(4_2,)]", one, true},
		{"hex is not a python float", "[(0x2a,)]", one, false},
		{"extra quotes beyond two", "[(''unpaid'', 6800), ('pending', 6100)]", gold, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MatchDirect(tt.answer, tt.gold); got != tt.want {
				t.Errorf("MatchDirect(%q) = %v, want %v", tt.answer, got, tt.want)
			}
		})
	}
}

func TestPyFloat(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"1", 1, true}, {"-2.5", -2.5, true}, {".5", 0.5, true}, {"5.", 5, true}, {"1e3", 1000, true},
		{"1_000", 1000, true}, {"1__0", 0, false}, {"_1", 0, false}, {"0x10", 0, false}, {"", 0, false},
		{" 7 ", 7, true}, {"-", 0, false}, {".", 0, false}, {"1.2.3", 0, false},
	}
	for _, tt := range tests {
		got, ok := pyFloat(tt.in)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("pyFloat(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func FuzzMatchDirect(f *testing.F) {
	for _, s := range []string{"[(1, 'a')]", "[(Decimal('1'),)]", "((", "Decimal(", "[('x', 1.5e3)]"} {
		f.Add(s)
	}
	gold := [][]any{{num("1"), "a"}}
	f.Fuzz(func(t *testing.T, s string) {
		MatchDirect(s, gold)
		MatchDirect(s, nil)
	})
}
