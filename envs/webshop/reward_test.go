package webshop

import (
	"math"
	"reflect"
	"testing"
)

func TestTokenSetRatio(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"navy blue", "blue", 100},  // subset
		{"Black A34", "black", 100}, // case and subset
		{"new york mets vs atlanta braves", "atlanta braves vs new york mets", 100},
		{"xx-large", "x-large", 93}, // "large xx" vs "large x": 2*7/15
		{"red", "blue", 29},         // no common token: ratio("red","blue") = 2*1/7
		{"", "blue", 0},
		{"!!!", "blue", 0},
		{"12 ounce (pack of 2)", "12 ounce (pack of 1)", 94}, // "12 of ounce pack 2" vs "... 1": 2*17/36
	}
	for _, tt := range tests {
		if got := tokenSetRatio(tt.a, tt.b); got != tt.want {
			t.Errorf("tokenSetRatio(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestRatio(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"abc", "abc", 100},
		{"abc", "", 0},
		{"", "", 100},
		{"kitten", "sitting", 100 * 2 * 4 / 13.0}, // LCS "ittn"
	}
	for _, tt := range tests {
		if got := ratio(tt.a, tt.b); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("ratio(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestNounTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Bright Citrus Deodorant by Earth Mama | Natural and Safe for Sensitive Skin",
			[]string{"citrus", "deodorant", "earth", "mama", "safe", "sensitive", "skin"}},
		{"Tea Bags, Tea, 100 Count", []string{"tea", "bags", "tea"}},
		{"Lenovo Chromebook C340, Intel Core i3-8130U", []string{"lenovo", "chromebook", "c340", "intel", "core", "i3-8130u"}},
		{"12 x 4", nil},
	}
	for _, tt := range tests {
		if got := nounTokens(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("nounTokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTypeReward(t *testing.T) {
	const cat = "Grocery › Beverages › Tea"
	eight := "Leafwell Tea Bags Box Jasmine Leaves Mug Kettle" // 8 nouns
	twelve := eight + " Spoon Tray Lid Strainer"               // 12 nouns
	tests := []struct {
		name string
		goal Goal
		p    Product
		want float64
	}{
		{"no shared noun", Goal{Query: "tea", Name: eight}, Product{Query: "tea", Name: "Other"}, 0},
		{"query and title", Goal{Query: "tea", Name: eight}, Product{Query: "tea", Name: "Leafwell Tea"}, 1},
		{"title above 0.2", Goal{Query: "tea", Name: "Leafwell Tea Bags"}, Product{Query: "x", Name: "Leafwell"}, 1},
		{"category", Goal{Name: eight, ProductCategory: cat}, Product{Query: "x", Name: "Leafwell", ProductCategory: "Grocery › Beverages › Coffee"}, 1},
		{"one category level", Goal{Name: eight, ProductCategory: cat}, Product{Query: "x", Name: "Leafwell", ProductCategory: "Grocery › Snacks"}, 0.5},
		{"weak title", Goal{Query: "tea", Name: eight}, Product{Query: "x", Name: "Leafwell"}, 0.5},
		{"very weak title", Goal{Query: "tea", Name: twelve}, Product{Query: "tea", Name: "Leafwell"}, 0.1},
		{"goal without nouns", Goal{Query: "tea", Name: "12 x 4"}, Product{Query: "x", Name: "Leafwell"}, 0.5}, // title_score 0.2 is not > 0.2,
	}
	for _, tt := range tests {
		if got := typeReward(&tt.p, &tt.goal); got.RType != tt.want {
			t.Errorf("%s: r_type %v, want %v (%+v)", tt.name, got.RType, tt.want, got)
		}
	}
}

func TestCombine(t *testing.T) {
	tests := []struct {
		rType                    float64
		attr, opt, price, na, no int
		want                     float64
	}{
		{1, 2, 2, 1, 2, 2, 1},
		{1, 1, 0, 1, 2, 1, 0.5},
		{0.5, 1, 1, 1, 1, 1, 0.5},
		{1, 0, 3, 1, 0, 1, 1}, // more option matches than goal options: clamped
		{0, 1, 1, 1, 1, 1, 0},
	}
	for _, tt := range tests {
		if got := combine(tt.rType, tt.attr, tt.opt, tt.price, tt.na, tt.no); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("combine(%+v) = %v", tt, got)
		}
	}
}

func TestNormalizeColor(t *testing.T) {
	tests := map[string]string{"navy blue": "navy blue", "dark navy": "navy", "grey heather": "grey", "xl": "xl", "black a34": "black"}
	for in, want := range tests {
		if got := normalizeColor(in); got != want {
			t.Errorf("normalizeColor(%q) = %q, want %q", in, got, want)
		}
	}
}
