package pyrandom

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The expected values were produced by CPython 3.11's random module; the
// first block is the spec's §1.9 table.
func TestVectors(t *testing.T) {
	seq := func(n int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = i
		}
		return s
	}
	shuffled := func(seed int64, n int) []int {
		s := seq(n)
		New(seed).Shuffle(n, func(i, j int) { s[i], s[j] = s[j], s[i] })
		return s
	}
	floats := func(seed int64, n int) []float64 {
		r := New(seed)
		out := make([]float64, n)
		for i := range out {
			out[i] = r.Random()
		}
		return out
	}
	tests := []struct {
		name string
		got  func() any
		want any
	}{
		{"seed42 random x3", func() any { return floats(42, 3) },
			[]float64{0.6394267984578837, 0.025010755222666936, 0.27502931836911926}},
		{"seed42 randint(0,9) x5", func() any {
			r := New(42)
			out := make([]int, 5)
			for i := range out {
				out[i] = r.RandInt(0, 9)
			}
			return out
		}, []int{1, 0, 4, 3, 3}},
		{"seed42 shuffle(range(10))", func() any { return shuffled(42, 10) },
			[]int{7, 3, 2, 8, 5, 6, 9, 4, 0, 1}},
		{"seed812123316 random x2", func() any { return floats(812123316, 2) },
			[]float64{0.3873780404055692, 0.8835256960248845}},
		{"seed42 choices squared weights", func() any {
			w := make([]float64, 20)
			for i := range w {
				w[i] = float64((i + 1) * (i + 1))
			}
			out, err := New(42).Choices(w, 10)
			if err != nil {
				return err.Error()
			}
			return out
		}, []int{17, 5, 12, 11, 18, 17, 19, 8, 14, 5}},
		{"seed1024 shuffle(range(100)) first 20", func() any { return shuffled(1024, 100)[:20] },
			[]int{30, 88, 92, 36, 63, 71, 34, 81, 95, 62, 70, 28, 69, 33, 64, 8, 93, 32, 99, 16}},

		// Extra vectors from CPython for the paths the spec table does not reach.
		{"seed42 getrandbits widths", func() any {
			r := New(42)
			var out []uint64
			for _, k := range []int{1, 7, 32, 33, 40, 64} {
				out = append(out, r.GetRandBits(k))
			}
			return out
		}, []uint64{1, 14, 107420369, 3184935163, 245864938384, 13585496030504862185}},
		{"two-word seed", func() any { return floats(1<<40+123, 2) },
			[]float64{0.9437888222210947, 0.00375904797666915}},
		{"seed 0", func() any { return floats(0, 2) },
			[]float64{0.8444218515250481, 0.7579544029403025}},
		{"negative seed uses |n|", func() any {
			r := New(-7)
			out := make([]int, 5)
			for i := range out {
				out[i] = r.RandInt(0, 100)
			}
			return out
		}, []int{41, 19, 50, 83, 6}},
		{"sample pool branch", func() any { return New(7).Sample(10, 5) }, []int{5, 2, 6, 9, 0}},
		{"sample pool branch k>5", func() any { return New(7).Sample(30, 8) },
			[]int{10, 4, 12, 20, 1, 2, 17, 3}},
		{"sample set branch", func() any { return New(7).Sample(1000, 10) },
			[]int{331, 970, 154, 404, 666, 49, 74, 840, 548, 96}},
		{"randint wide range", func() any { return New(9).RandInt(0, 1<<40) }, 585718914800},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.got()); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestChoicesRejectsBadWeights(t *testing.T) {
	for _, w := range [][]float64{nil, {0, 0}, {-1, 1}} {
		if _, err := New(1).Choices(w, 3); err == nil {
			t.Errorf("Choices(%v) succeeded, want an error", w)
		}
	}
}

func TestSeedResetsState(t *testing.T) {
	r := New(5)
	a := r.Random()
	r.Random()
	r.Seed(5)
	if b := r.Random(); a != b {
		t.Errorf("reseeding gave %v, want %v", b, a)
	}
}

func BenchmarkRandom(b *testing.B) {
	r := New(1)
	for b.Loop() {
		r.Random()
	}
}

func TestGenericHelpers(t *testing.T) {
	// random.seed(42); random.sample(["a".."j"], 3) and shuffle of the same.
	pop := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	if diff := cmp.Diff([]string{"b", "a", "e"}, SampleOf(New(42), pop, 3)); diff != "" {
		t.Errorf("SampleOf (-want +got):\n%s", diff)
	}
	s := append([]string(nil), pop...)
	ShuffleSlice(New(42), s)
	if diff := cmp.Diff([]string{"h", "d", "c", "i", "f", "g", "j", "e", "a", "b"}, s); diff != "" {
		t.Errorf("ShuffleSlice (-want +got):\n%s", diff)
	}
}
