package metrics

import "math"

// Accuracy is the share of items whose prediction equals the label. Invalid
// (empty) predictions count as wrong. It is NaN for zero items.
func Accuracy(labels, preds []string) float64 {
	checkLen(len(labels), len(preds))
	if len(labels) == 0 {
		return math.NaN()
	}
	correct := 0
	for i, l := range labels {
		if preds[i] != "" && preds[i] == l {
			correct++
		}
	}
	return float64(correct) / float64(len(labels))
}

// AccuracyValidOnly is the accuracy over items with a valid (non-empty)
// prediction only. This is PraMem's protocol: a question whose every attempt
// failed to parse is excluded from the metrics rather than counted wrong. It
// is NaN when no prediction is valid.
func AccuracyValidOnly(labels, preds []string) float64 {
	checkLen(len(labels), len(preds))
	n, correct := 0, 0
	for i, l := range labels {
		if preds[i] == "" {
			continue
		}
		n++
		if preds[i] == l {
			correct++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return float64(correct) / float64(n)
}

// Correct reports, per item, whether the prediction is valid and equals the
// label. It is the input McNemar's test needs.
func Correct(labels, preds []string) []bool {
	checkLen(len(labels), len(preds))
	out := make([]bool, len(labels))
	for i, l := range labels {
		out[i] = preds[i] != "" && preds[i] == l
	}
	return out
}

// ValidOnly returns the labels and predictions of the items whose prediction
// is valid (non-empty), in order.
func ValidOnly(labels, preds []string) (l, p []string) {
	checkLen(len(labels), len(preds))
	for i := range labels {
		if preds[i] != "" {
			l = append(l, labels[i])
			p = append(p, preds[i])
		}
	}
	return l, p
}

// PRF is precision, recall and F1 from positive-class counts, with the
// reference implementation's zero rules: P = 0 when TP+FP = 0, R = 0 when
// TP+FN = 0 and F1 = 0 when P+R = 0. A field with no positives that the model
// never predicts positive therefore scores F1 = 0, not "undefined".
func PRF(tp, fp, fn int) (precision, recall, f1 float64) {
	if tp < 0 || fp < 0 || fn < 0 {
		panic("metrics: negative count")
	}
	if tp+fp > 0 {
		precision = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		recall = float64(tp) / float64(tp+fn)
	}
	if precision+recall > 0 {
		f1 = 2 * precision * recall / (precision + recall)
	}
	return precision, recall, f1
}

// BinaryCounts counts true positives, false positives and false negatives
// for the class positive. An invalid (empty) prediction of a positive item is
// a false negative; callers following the reference filter invalid items out
// first with ValidOnly.
func BinaryCounts(labels, preds []string, positive string) (tp, fp, fn int) {
	checkLen(len(labels), len(preds))
	for i, l := range labels {
		p := preds[i]
		switch {
		case l == positive && p == positive:
			tp++
		case l != positive && p == positive:
			fp++
		case l == positive && p != positive:
			fn++
		}
	}
	return tp, fp, fn
}

func checkLen(a, b int) {
	if a != b {
		panic("metrics: slice length mismatch")
	}
}
