package pystr

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Expected values are what CPython 3.11 returns.
func TestFields(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"21\x1f", "21"}, {"a\x1cb\x1dc\x1ed", "a b c d"}, {" a\u00a0b\u3000c\u2028", "a b c"},
		{"a\u200bb", "a\u200bb"}, {"\u0085x\t\n\v\f\ry", "x y"}, {"", ""},
	} {
		if got := JoinFields(tc.in); got != tc.want {
			t.Errorf("JoinFields(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := Strip("\x1c x \x1f"); got != "x" {
		t.Errorf("Strip = %q", got)
	}
}

func TestLower(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"ABC", "abc"}, {"ΟΔΟΣ", "οδος"}, {"ΟΔΟΣ ΣΑ", "οδος σα"}, {"Σ", "σ"}, {"AΣ.", "aς."},
		{"AΣ'B", "aσ'b"}, {"A'Σ", "a'ς"}, {"ΣA", "σa"}, {"İstanbul", "i\u0307stanbul"},
		{"ẞ", "ß"}, {"ΑΣ\u0301Β", "ασ\u0301β"}, {"ΑΣ\u0301", "ας\u0301"},
	} {
		if got := Lower(tc.in); got != tc.want {
			t.Errorf("Lower(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestIsWord(t *testing.T) {
	for _, tc := range []struct {
		r    rune
		want bool
	}{
		{'a', true}, {'_', true}, {'9', true}, {'²', true}, {'½', true}, {'Ⅻ', true}, {'é', true},
		{'\u0301', false}, {'-', false}, {' ', false}, {'ー', true}, {'中', true}, {'\u200d', false},
	} {
		if got := IsWord(tc.r); got != tc.want {
			t.Errorf("IsWord(%q) = %v, want %v", tc.r, got, tc.want)
		}
	}
}

func TestReplaceWords(t *testing.T) {
	arts := []string{"a", "an", "the"}
	for _, tc := range []struct{ in, want string }{
		{"the cat", "  cat"}, {"«the»", "« »"}, {"an apple a day", "  apple   day"},
		{"theater", "theater"}, {"éthe", "éthe"}, {"the\u0301", " \u0301"}, {"²the", "²the"},
		{"a_b", "a_b"}, {"the-an", " - "}, {"ana", "ana"}, {"", ""},
	} {
		if got := ReplaceWords(tc.in, arts, " "); got != tc.want {
			t.Errorf("ReplaceWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRemovePunctuation(t *testing.T) {
	if got := RemovePunctuation(`a,b.c!"«»—_`); got != "abc«»—" {
		t.Errorf("RemovePunctuation = %q", got)
	}
}

func FuzzLower(f *testing.F) {
	for _, s := range []string{"ΟΔΟΣ", "İ", "AΣ'B", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		lo := Lower(s)
		// Lower-casing is idempotent except for the final-sigma choice,
		// which only ever yields a lower-case sigma.
		if again := Lower(lo); again != lo {
			t.Fatalf("Lower not idempotent on %q: %q then %q", s, lo, again)
		}
		if strings.ContainsRune(lo, 'Σ') {
			t.Fatalf("capital sigma survived in %q", lo)
		}
	})
}

func FuzzReplaceWords(f *testing.F) {
	for _, s := range []string{"the cat", "«the»", "a an the"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		out := ReplaceWords(s, []string{"a", "an", "the"}, " ")
		for _, w := range Fields(out) {
			if w == "a" || w == "an" || w == "the" {
				t.Fatalf("article %q left in %q -> %q", w, s, out)
			}
		}
	})
}

func TestUpper(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"abc", "ABC"}, {"straße", "STRASSE"}, {"ﬁle", "FILE"}, {"ǅ", "Ǆ"}, {"ᾳ", "ΑΙ"}, {"ŉ", "ʼN"}, {"µ", "Μ"}, {"ı", "I"},
	} {
		if got := Upper(tc.in); got != tc.want {
			t.Errorf("Upper(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDigits(t *testing.T) {
	// int('٣'), int('９'), int('𝟗') in CPython: 3, 9, 9.
	for _, tc := range []struct {
		r    rune
		want int
	}{{'7', 7}, {'٣', 3}, {'９', 9}, {'𝟗', 9}, {'𝟎', 0}, {'²', -1}, {'a', -1}} {
		if got := DigitValue(tc.r); got != tc.want {
			t.Errorf("DigitValue(%q) = %d, want %d", tc.r, got, tc.want)
		}
	}
	if got := ASCIIDigits("x٣.５"); got != "x3.5" {
		t.Errorf("ASCIIDigits = %q", got)
	}
}
