package sim

import (
	"fmt"
	"strconv"

	"github.com/memharness/memharness/llm/hint"
)

// answer is a valid answer before its surface form is chosen.
type answer struct {
	label  string // "4", "Yes", ...
	binary bool
}

func (s *Sim) predict(purpose string, p hint.Predict) (answer, error) {
	if p.Field == "" {
		return answer{}, fmt.Errorf("sim: %s: predict hint without a field", purpose)
	}
	facts := ParseFacts(p.Memory)
	switch p.Kind {
	case "multi_class":
		return rate(purpose, p, facts)
	case "binary":
		prob := estimate(p, facts, 0.5)
		thr := s.threshold() - biasShift(facts, p.Field)
		thr = min(max(thr, minThreshold), maxThreshold)
		if prob > thr {
			return answer{label: "Yes", binary: true}, nil
		}
		return answer{label: "No", binary: true}, nil
	default:
		return answer{}, fmt.Errorf("sim: %s: unknown question kind %q for field %s", purpose, p.Kind, p.Field)
	}
}

// rate predicts a class of a multi_class question.
func rate(purpose string, p hint.Predict, facts []Fact) (answer, error) {
	if len(p.Classes) == 0 {
		return answer{}, fmt.Errorf("sim: %s: multi_class question %s has no classes", purpose, p.Field)
	}
	vals := classValues(p.Classes)
	prior := vals[len(vals)/2]
	best := calibrate(vals, rateEvidence(p, facts, prior))
	return answer{label: p.Classes[best]}, nil
}

// classValues values the classes: their numbers when every class is a
// number, else their 1-based positions.
func classValues(classes []string) []float64 {
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
