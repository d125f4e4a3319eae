package metrics

import (
	"fmt"
	"testing"
)

// benchItems is a MovieLens-sized evaluation: 300 users × 30 questions.
func benchItems() []Labeled {
	var items []Labeled
	for u := range 300 {
		for j := range 30 {
			l := fmt.Sprint(1 + (u+j)%5)
			p := l
			if (u*7+j)%3 == 0 {
				p = fmt.Sprint(1 + (u+j+1)%5)
			}
			items = append(items, Labeled{fmt.Sprint(u), l, p})
		}
	}
	return items
}

func BenchmarkAccuracyCI(b *testing.B) {
	items := benchItems()
	for b.Loop() {
		AccuracyCI(items, true, 1000, 0.95, 1)
	}
}

func BenchmarkMacroF1CI(b *testing.B) {
	items := benchItems()
	for b.Loop() {
		MacroF1CI(items, five, 1000, 0.95, 1)
	}
}

func BenchmarkMcNemar(b *testing.B) {
	a, c := pairs(5000, 700, 600, 2000)
	for b.Loop() {
		McNemar(a, c)
	}
}
