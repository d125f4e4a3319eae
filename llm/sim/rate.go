package sim

import (
	"math"
	"slices"

	"github.com/memharness/memharness/llm/hint"
)

// devShrink is the pseudo-count pulling a feature's deviation towards zero:
// a feature seen n times keeps n/(n+devShrink) of its deviation from the
// user's mean (documented in the package comment).
const devShrink = 3.0

// ratingEvidence is what the rating reader makes of a question.
type ratingEvidence struct {
	mean float64 // the user's mean (visible records, population facts, prior)
	est  float64 // mean plus the target's feature deviations
	// resid are the visible ratings minus their own leave-one-out
	// estimates: the user's rating scale around an estimate.
	resid []float64
}

// featTally accumulates the (recency-weighted) ratings of one feature: an
// attribute value ("genre=Drama") or the scope of a conjunctive fact.
type featTally struct {
	key    string // the attribute, or the whole scope of a conjunctive fact
	n, sum float64
}

// rateEvidence estimates a rating as the user's mean plus, for every
// attribute of the target, the strongest positive and the strongest
// negative shrunk deviation of its values (see the package comment), and
// collects the visible records' residuals around the same estimator.
func rateEvidence(p hint.Predict, facts []Fact, prior float64) ratingEvidence {
	var ev ratingEvidence
	evs, ys := sameSceneOutcomes(p)

	// The user's mean: visible ratings, population facts (scene facts when
	// there are any, else "all" facts) and the prior as one pseudo-record.
	sum, n := priorWeight*prior, priorWeight
	for _, y := range ys {
		sum += y
		n++
	}
	want := targetValues(p.Target)
	feats := map[string]*featTally{}
	add := func(id, key string, w, s float64) {
		f, ok := feats[id]
		if !ok {
			f = &featTally{key: key}
			feats[id] = f
		}
		f.n += w
		f.sum += s
	}
	var conj []Fact // conjunctive facts, matched per event
	var allSum, allN, sceneSum, sceneN float64
	for _, f := range facts {
		if f.Bias || f.Field != p.Field {
			continue
		}
		switch {
		case len(f.Conds) == 0:
			allSum, allN = allSum+f.Sum, allN+float64(f.Count)
		case sceneOnly(f.Conds):
			if f.Holds(p.Target) {
				sceneSum, sceneN = sceneSum+f.Sum, sceneN+float64(f.Count)
			}
		case len(f.Conds) == 1 && f.Conds[0].Key != "scene":
			// An attribute value: counts for the target and for every
			// visible record that has it.
			if _, ok := want[f.Conds[0].Key]; ok {
				add(f.Conds[0].Key+"="+f.Conds[0].Value, f.Conds[0].Key, float64(f.Count), f.Sum)
			}
		default:
			conj = append(conj, f)
			s := Scope(f.Conds)
			add(s, s, float64(f.Count), f.Sum)
		}
	}
	if sceneN > 0 {
		sum, n = sum+sceneSum, n+sceneN
	} else {
		sum, n = sum+allSum, n+allN
	}
	ev.mean = sum / n

	weights := make([]float64, len(evs))
	for i, e := range evs {
		rec := 1.0
		if len(evs) > 1 {
			rec = float64(i) / float64(len(evs)-1)
		}
		w := 1 + recencyBonus*rec
		weights[i] = w
		for _, id := range eventFeatures(e, want, conj) {
			add(id.id, id.key, w, w*ys[i])
		}
	}

	// deviations sums, per attribute, the strongest positive and the
	// strongest negative deviation of an event's features; without is the
	// weight and rating of a record to leave out of its own features.
	deviations := func(ids []featID, w, y float64) float64 {
		type span struct{ hi, lo float64 }
		var spans []span
		var keys []string
		for _, id := range ids {
			f, ok := feats[id.id]
			if !ok {
				continue
			}
			fn, fs := f.n-w, f.sum-w*y
			if fn <= 1e-9 {
				continue
			}
			d := (fs - fn*ev.mean) / (fn + devShrink)
			k := slices.Index(keys, f.key)
			if k < 0 {
				keys, spans = append(keys, f.key), append(spans, span{})
				k = len(spans) - 1
			}
			spans[k].hi, spans[k].lo = max(spans[k].hi, d), min(spans[k].lo, d)
		}
		total := 0.0
		for _, s := range spans {
			total += s.hi + s.lo
		}
		return total
	}
	ev.est = ev.mean + deviations(eventFeatures(p.Target, want, conj), 0, 0)
	ev.resid = make([]float64, len(evs))
	for i, e := range evs {
		ev.resid[i] = ys[i] - (ev.mean + deviations(eventFeatures(e, want, conj), weights[i], ys[i]))
	}
	return ev
}

type featID struct{ id, key string }

// eventFeatures lists the features of e among the target's attributes, in
// a fixed order (the target's keys sorted, then the facts' order), plus the
// conjunctive facts that hold for e.
func eventFeatures(e hint.Event, want map[string][]string, conj []Fact) []featID {
	var out []featID
	for _, k := range sortedKeys(want) {
		a, ok := e.Attrs[k]
		if !ok {
			continue
		}
		for _, v := range AttrValues(a) {
			out = append(out, featID{k + "=" + v, k})
		}
	}
	for _, f := range conj {
		if f.Holds(e) {
			s := Scope(f.Conds)
			out = append(out, featID{s, s})
		}
	}
	return out
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// calibrate turns the estimate into a class through the user's visible
// rating scale: every visible record's residual r puts one unit of mass at
// est + r, split linearly between the two nearest class values (clamped to
// the ends); the class with the most mass wins, ties going to the class
// nearest the estimate, then to the lower class. With no visible rating the
// class nearest the estimate wins.
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
	if len(ev.resid) == 0 || len(vals) == 1 {
		return nearest(ev.est)
	}
	mass := make([]float64, len(vals))
	for _, r := range ev.resid {
		x := ev.est + r
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
		switch {
		case mass[i] > mass[best]+1e-9:
			best = i
		case math.Abs(mass[i]-mass[best]) <= 1e-9 && math.Abs(vals[i]-ev.est) < math.Abs(vals[best]-ev.est):
			best = i
		}
	}
	return best
}
