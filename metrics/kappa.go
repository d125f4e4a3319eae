package metrics

import (
	"errors"
	"fmt"
	"math"
)

// CohenKappa is Cohen's κ of two raters' labels of the same items:
// (pₒ − pₑ) / (1 − pₑ), where pₒ is the share of items they label alike
// and pₑ the agreement expected by chance, Σ over labels of the product of
// the two raters' shares of that label. 1 is full agreement, 0 chance
// level, below 0 worse than chance. When both raters give every item one
// and the same label, pₑ is 1 and κ is 0/0: NaN, as scikit-learn's
// cohen_kappa_score gives. Unequal lengths or no items are errors.
func CohenKappa[L comparable](a, b []L) (float64, error) {
	if len(a) != len(b) {
		return 0, fmt.Errorf("cohen's kappa: %d labels against %d", len(a), len(b))
	}
	if len(a) == 0 {
		return 0, errors.New("cohen's kappa: no items")
	}
	n := float64(len(a))
	agree := 0
	ca, cb := map[L]int{}, map[L]int{}
	for i := range a {
		if a[i] == b[i] {
			agree++
		}
		ca[a[i]]++
		cb[b[i]]++
	}
	po := float64(agree) / n
	pe := 0.0
	for l, k := range ca {
		pe += float64(k) / n * float64(cb[l]) / n
	}
	if pe == 1 {
		return math.NaN(), nil
	}
	return (po - pe) / (1 - pe), nil
}
