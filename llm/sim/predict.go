package sim

import (
	"fmt"
	"strconv"

	"github.com/memharness/memharness/llm/hint"
)

// Answer is a valid answer before its surface form is chosen.
type Answer struct {
	Label  string // "4", "Yes", ...
	Binary bool
}

// Predict estimates the answer to the question p shows (see Ratings and
// Estimation in the package comment); purpose names the request in errors.
func (s *Sim) Predict(purpose string, p hint.Predict) (Answer, error) {
	if p.Field == "" {
		return Answer{}, fmt.Errorf("sim: %s: predict hint without a field", purpose)
	}
	facts := ParseFacts(p.Memory)
	switch p.Kind {
	case "multi_class":
		return rate(purpose, p, facts)
	case "binary":
		prob := estimate(p, facts, 0.5)
		thr := s.Threshold() - biasShift(facts, p.Field)
		thr = min(max(thr, minThreshold), maxThreshold)
		if prob > thr {
			return Answer{Label: "Yes", Binary: true}, nil
		}
		return Answer{Label: "No", Binary: true}, nil
	default:
		return Answer{}, fmt.Errorf("sim: %s: unknown question kind %q for field %s", purpose, p.Kind, p.Field)
	}
}

// rate predicts a class of a multi_class question.
func rate(purpose string, p hint.Predict, facts []Fact) (Answer, error) {
	if len(p.Classes) == 0 {
		return Answer{}, fmt.Errorf("sim: %s: multi_class question %s has no classes", purpose, p.Field)
	}
	vals := ClassValues(p.Classes)
	prior := vals[len(vals)/2]
	best := calibrate(vals, rateEvidence(p, facts, prior))
	return Answer{Label: p.Classes[best]}, nil
}

// ClassValues values the classes: their numbers when every class is a
// number, else their 1-based positions.
func ClassValues(classes []string) []float64 {
	vals := make([]float64, len(classes))
	for i, c := range classes {
		v, err := strconv.ParseFloat(c, 64)
		if err != nil {
			for j := range vals {
				vals[j] = float64(j + 1)
			}
			return vals
		}
		vals[i] = v
	}
	return vals
}
