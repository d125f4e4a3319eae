package sim

import (
	"math"

	"github.com/memharness/memharness/llm/hint"
)

// Weights of the rating reader (documented in the package comment).
const (
	// devShrink is the pseudo-count pulling a feature's deviation towards
	// zero: a feature seen n times keeps n/(n+devShrink) of its deviation.
	devShrink = 3.0
)

// ratingEvidence is what the rating reader makes of a question.
type ratingEvidence struct {
	mean float64   // the user's mean (visible records, population facts, prior)
	est  float64   // mean plus the target's feature deviations
	ys   []float64 // visible ratings of the field (the user's visible scale)
}

// feature accumulates the (recency-weighted) ratings of one attribute value
// or one conjunctive fact scope.
type feature struct {
	key    string // attribute key, or the whole scope of a conjunctive fact
	n, sum float64
}

// rateEvidence estimates the target's rating as the user's mean plus, for
// every attribute of the target, the strongest positive and the strongest
// negative shrunk deviation of its values (see the package comment).
func rateEvidence(p hint.Predict, facts []Fact, prior float64) ratingEvidence {
	var ev ratingEvidence
	var evs []hint.Event
	for _, e := range p.Visible {
		y, ok := e.Outcomes[p.Field]
		if !ok {
			continue
		}
		if p.Target.Scene != "" && e.Scene != "" && e.Scene != p.Target.Scene {
			continue
		}
		ev.ys = append(ev.ys, y)
		evs = append(evs, e)
	}

	// The user's mean: visible ratings, population facts (scene facts when
	// there are any, else "all" facts) and the prior as one pseudo-record.
	sum, n := priorWeight*prior, priorWeight
	for _, y := range ev.ys {
		sum += y
		n++
	}
	var allSum, allN, sceneSum, sceneN float64
	feats := map[string]*feature{}
	var order []string // insertion order, for deterministic iteration
	add := func(id, key string, w, y float64) {
		f, ok := feats[id]
		if !ok {
			f = &feature{key: key}
			feats[id] = f
			order = append(order, id)
		}
		f.n += w
		f.sum += y
	}
	for _, f := range facts {
		if f.Bias || f.Field != p.Field || !f.Holds(p.Target) {
			continue
		}
		switch {
		case len(f.Conds) == 0:
			allSum, allN = allSum+f.Sum, allN+float64(f.Count)
		case sceneOnly(f.Conds):
			sceneSum, sceneN = sceneSum+f.Sum, sceneN+float64(f.Count)
		case len(f.Conds) == 1:
			c := f.Conds[0]
			add(c.Key+"="+c.Value, c.Key, float64(f.Count), f.Sum)
		default:
			s := scope(f.Conds)
			add(s, s, float64(f.Count), f.Sum)
		}
	}
	if sceneN > 0 {
		sum, n = sum+sceneSum, n+sceneN
	} else {
		sum, n = sum+allSum, n+allN
	}
	ev.mean = sum / n

	want := targetValues(p.Target)
	for i, e := range evs {
		rec := 1.0
		if len(evs) > 1 {
			rec = float64(i) / float64(len(evs)-1)
		}
		w := 1 + recencyBonus*rec
		for k, tv := range want {
			a, ok := e.Attrs[k]
			if !ok {
				continue
			}
			for _, v := range tv {
				if hasValue(a, v) {
					add(k+"="+v, k, w, w*ev.ys[i])
				}
			}
		}
	}

	// Per attribute, the strongest positive and the strongest negative
	// deviation: a film of a loved and a hated genre is neither.
	type span struct{ hi, lo float64 }
	byKey := map[string]*span{}
	for _, id := range order {
		f := feats[id]
		d := (f.sum - f.n*ev.mean) / (f.n + devShrink)
		s, ok := byKey[f.key]
		if !ok {
			s = &span{}
			byKey[f.key] = s
		}
		s.hi, s.lo = max(s.hi, d), min(s.lo, d)
	}
	ev.est = ev.mean
	for _, id := range order { // sum in a fixed order: float addition is not associative
		if s, ok := byKey[feats[id].key]; ok {
			ev.est += s.hi + s.lo
			delete(byKey, feats[id].key)
		}
	}
	return ev
}

// calibrate turns the estimate into a class through the user's visible
// rating scale: every visible rating y becomes y + (est − mean of the
// visible ratings), split linearly between the two nearest class values
// (clamped to the ends); the class with the most mass wins, ties going to
// the class nearest the estimate, then to the lower class. With no visible
// rating the class nearest the estimate wins.
func calibrate(vals []float64, ev ratingEvidence) int {
	nearest := func(x float64) int {
		best := 0
		for i, v := range vals {
			// Strictly closer wins, so ties keep the lower class.
			if math.Abs(v-x) < math.Abs(vals[best]-x) {
				best = i
			}
		}
		return best
	}
	if len(ev.ys) == 0 || len(vals) == 1 {
		return nearest(ev.est)
	}
	var vis float64
	for _, y := range ev.ys {
		vis += y
	}
	shift := ev.est - vis/float64(len(ev.ys))
	mass := make([]float64, len(vals))
	for _, y := range ev.ys {
		x := y + shift
		switch {
		case x <= vals[0]:
			mass[0]++
		case x >= vals[len(vals)-1]:
			mass[len(vals)-1]++
		default:
			for j := 1; j < len(vals); j++ {
				if x <= vals[j] {
					f := (x - vals[j-1]) / (vals[j] - vals[j-1])
					mass[j-1] += 1 - f
					mass[j] += f
					break
				}
			}
		}
	}
	best := nearest(ev.est)
	for i := range vals {
		if mass[i] > mass[best]+1e-9 {
			best = i
		} else if math.Abs(mass[i]-mass[best]) <= 1e-9 &&
			math.Abs(vals[i]-ev.est) < math.Abs(vals[best]-ev.est) {
			best = i
		}
	}
	return best
}
