package reports

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"slices"
	"testing"

	"github.com/memharness/memharness/reports/render"
	"gonum.org/v1/plot/vg"
)

var _ = vg.Inch

// checkFigureRules fails the test when a figure breaks the figure rules
// (render.CheckFigure).
func checkFigureRules(t *testing.T, name string, img image.Image) {
	t.Helper()
	if err := render.CheckFigure(img); err != nil {
		t.Errorf("%s: %v", name, err)
	}
}

func decodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decode png: %v", err)
	}
	return img
}

func TestNaturalOrder(t *testing.T) {
	tests := []struct {
		in, want []string
	}{
		{[]string{"pramem_r20", "pramem_r5", "pramem_r10"}, []string{"pramem_r5", "pramem_r10", "pramem_r20"}},
		{[]string{"top_k=20", "top_k=1", "top_k=5"}, []string{"top_k=1", "top_k=5", "top_k=20"}},
		{[]string{"tau1.0", "tau0.9", "tau0.75"}, []string{"tau0.75", "tau0.9", "tau1.0"}},
		{[]string{"b", "a10", "a9", "a"}, []string{"a", "a9", "a10", "b"}},
		{[]string{"L80", "L10", "L30", "k4", "k8"}, []string{"L10", "L30", "L80", "k4", "k8"}},
	}
	for _, tt := range tests {
		got := slices.Clone(tt.in)
		render.SortNatural(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("sortNatural(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestDataRange(t *testing.T) {
	tests := []struct {
		name        string
		vals        []float64
		floor, ceil float64
		lo, hi      float64
	}{
		{"F1 between 20 and 30 is not drawn on 0-100", []float64{20, 25, 30}, 0, 100, 19, 31},
		{"clamped at the floor", []float64{0, 50}, 0, 100, 0, 55},
		{"flat series opens a window", []float64{40, 40}, 0, 100, 36, 44},
		{"NaNs ignored", []float64{math.NaN(), 10, 20}, math.NaN(), math.NaN(), 9, 21},
	}
	for _, tt := range tests {
		lo, hi := render.DataRange(tt.vals, tt.floor, tt.ceil)
		if math.Abs(lo-tt.lo) > 1e-9 || math.Abs(hi-tt.hi) > 1e-9 {
			t.Errorf("%s: dataRange = [%g, %g], want [%g, %g]", tt.name, lo, hi, tt.lo, tt.hi)
		}
	}
}

func TestNiceTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		want   []string
	}{
		{0, 28, []string{"0", "5", "10", "15", "20", "25"}},
		{86.5, 91.2, []string{"87", "88", "89", "90", "91"}},
		{0, 0.55, []string{"0.0", "0.1", "0.2", "0.3", "0.4", "0.5"}},
		{2000, 16000, []string{"2500", "5000", "7500", "10000", "12500", "15000"}},
		{191, 222, []string{"195", "200", "205", "210", "215", "220"}},
		{2.2, 14.5, []string{"2.5", "5.0", "7.5", "10.0", "12.5"}},
	}
	for _, tt := range tests {
		var got []string
		for _, tk := range (render.NiceTicks{}).Ticks(tt.lo, tt.hi) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Ticks(%g, %g) = %v, want %v", tt.lo, tt.hi, got, tt.want)
		}
	}
}
