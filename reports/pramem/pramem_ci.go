package pramem

import "math"

// f1Intervals returns the bootstrap interval ends of a method's F1 per Table
// 1 column (scenes, then Overall), from the run's Table 1; NaN where a
// column has no interval or the method is not in Table 1.
func (st *pramemStudy) f1Intervals(method string) (lo, hi []float64) {
	lo, hi = make([]float64, t1Overall+1), make([]float64, t1Overall+1)
	for i := range lo {
		lo[i], hi[i] = math.NaN(), math.NaN()
	}
	t, err := st.t1.get()
	if err != nil || t == nil {
		return lo, hi
	}
	for _, m := range t.methods {
		if m.Method != method {
			continue
		}
		for i, iv := range m.F1 {
			lo[i], hi[i] = iv.Lo, iv.Hi
		}
	}
	return lo, hi
}

// accInterval is the bootstrap interval of a method's Overall ACC.
func (st *pramemStudy) accInterval(method string) (lo, hi float64) {
	t, err := st.t1.get()
	if err != nil || t == nil {
		return math.NaN(), math.NaN()
	}
	for _, m := range t.methods {
		if m.Method == method {
			return m.ACC[t1Overall].Lo, m.ACC[t1Overall].Hi
		}
	}
	return math.NaN(), math.NaN()
}
