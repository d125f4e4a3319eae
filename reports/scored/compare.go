package scored

import (
	"github.com/memharness/memharness/metrics"
)

// Comparison is one method against the baseline on the items both finished.
type Comparison struct {
	Method, Baseline string
	N                int
	Acc              metrics.Paired // valid-only accuracy, method − baseline
	F1               metrics.Paired // macro-F1 (multi_class) or positive F1 (binary)
	McNemar          metrics.McNemarResult
}

func compare(a, b *Cell, opts Options) *Comparison {
	bIndex := make(map[string]int, len(b.Keys))
	for i, k := range b.Keys {
		bIndex[k] = i
	}
	var pa, pb []metrics.Labeled
	for i, k := range a.Keys {
		j, ok := bIndex[k]
		if !ok {
			continue
		}
		pa = append(pa, a.Items[i])
		pb = append(pb, b.Items[j])
	}
	cmp := &Comparison{Method: a.Method, Baseline: b.Method, N: len(pa)}
	units := metrics.UserClusters(pa)
	paired := func(sa, sb func([]int) float64) metrics.Paired {
		return metrics.PairedBootstrap(units, sa, sb, opts.Iters, opts.Level, opts.Seed)
	}
	cmp.Acc = paired(metrics.AccuracyStat(pa, true), metrics.AccuracyStat(pb, true))
	if a.Field.Kind == KindBinary {
		cmp.F1 = paired(metrics.PositiveF1Stat(pa, opts.Positive), metrics.PositiveF1Stat(pb, opts.Positive))
	} else {
		cmp.F1 = paired(metrics.MacroF1Stat(pa, a.Field.Classes), metrics.MacroF1Stat(pb, a.Field.Classes))
	}
	la, pra := pick(pa, seq(len(pa)))
	lb, prb := pick(pb, seq(len(pb)))
	cmp.McNemar = metrics.McNemar(metrics.Correct(la, pra), metrics.Correct(lb, prb))
	return cmp
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
