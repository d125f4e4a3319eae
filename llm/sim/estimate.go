package sim

import (
	"github.com/memharness/memharness/llm/hint"
)

// Weights of the estimator (documented in the package comment).
const (
	priorWeight    = 1.0  // pseudo-count of the prior in the base mean
	shrinkWeight   = 2.0  // pseudo-count of the base mean against specific evidence
	recencyBonus   = 0.25 // extra weight of the newest similar record
	defaultThresh  = 0.5
	minThreshold   = 0.05
	maxThreshold   = 0.95
	defaultPersist = 0.005
)

// estimate returns the estimated value of p.Field for p.Target from the
// visible records and the memory facts, starting from prior.
func estimate(p hint.Predict, facts []Fact, prior float64) float64 {
	evs, ys := sameSceneOutcomes(p)

	baseSum, baseN := priorWeight*prior, priorWeight
	for _, y := range ys {
		baseSum += y
		baseN++
	}
	// specW doubles as the amount of specific evidence: a record sharing two
	// values with the target counts about twice.
	var specWY, specW float64
	want := targetValues(p.Target)
	for i, e := range evs {
		s := shared(e, want)
		if s == 0 {
			continue
		}
		rec := 1.0
		if len(evs) > 1 {
			rec = float64(i) / float64(len(evs)-1)
		}
		w := float64(s) * (1 + recencyBonus*rec)
		specWY += w * ys[i]
		specW += w
	}
	// Population facts describe the user's records of the target's scene
	// ("scene=X" facts) or of the whole field ("all" facts). Scene facts are
	// the more precise base, so "all" facts count only without them.
	var allSum, allN, sceneSum, sceneN float64
	for _, f := range facts {
		if f.Bias || f.Field != p.Field || !f.Holds(p.Target) {
			continue
		}
		switch {
		case len(f.Conds) == 0:
			allSum, allN = allSum+f.Sum, allN+float64(f.Count)
		case sceneOnly(f.Conds):
			sceneSum, sceneN = sceneSum+f.Sum, sceneN+float64(f.Count)
		default:
			specWY += f.Sum
			specW += float64(f.Count)
		}
	}
	if sceneN > 0 {
		baseSum, baseN = baseSum+sceneSum, baseN+sceneN
	} else {
		baseSum, baseN = baseSum+allSum, baseN+allN
	}
	base := baseSum / baseN
	if specW == 0 {
		return base
	}
	// (M·(specWY/M) + K·base)/(M+K) with M = specW.
	return (specWY + shrinkWeight*base) / (specW + shrinkWeight)
}

// targetValues splits each attribute of the target once.
func targetValues(target hint.Event) map[string][]string {
	out := make(map[string][]string, len(target.Attrs))
	for k, v := range target.Attrs {
		out[k] = AttrValues(v)
	}
	return out
}

// shared counts the attribute values e has in common with the target.
func shared(e hint.Event, want map[string][]string) int {
	n := 0
	for k, tv := range want {
		ev, ok := e.Attrs[k]
		if !ok {
			continue
		}
		for _, v := range tv {
			if HasValue(ev, v) {
				n++
			}
		}
	}
	return n
}

// biasShift sums the bias facts for field.
func biasShift(facts []Fact, field string) float64 {
	var s float64
	for _, f := range facts {
		if f.Bias && f.Field == field {
			s += f.Shift
		}
	}
	return s
}

func sceneOnly(conds []Cond) bool {
	for _, c := range conds {
		if c.Key != "scene" {
			return false
		}
	}
	return true
}

// sameSceneOutcomes returns the visible records that carry p.Field's outcome
// and share the target's scene, with those outcomes.
func sameSceneOutcomes(p hint.Predict) (evs []hint.Event, ys []float64) {
	for _, e := range p.Visible {
		y, ok := e.Outcomes[p.Field]
		if !ok {
			continue
		}
		if p.Target.Scene != "" && e.Scene != "" && e.Scene != p.Target.Scene {
			continue
		}
		ys = append(ys, y)
		evs = append(evs, e)
	}
	return evs, ys
}
