// Package registry maps every behaviour-prediction method kind to its
// constructor. The foundation baselines live in methods/predict; PraMem and
// the memory-system baselines in their own packages, which import predict,
// so the mapping sits here rather than in predict.New.
package registry

import (
	"github.com/memharness/memharness/methods/memstyle"
	"github.com/memharness/memharness/methods/pramem"
	"github.com/memharness/memharness/methods/predict"
)

// New builds the method a spec describes.
func New(s predict.Spec) (predict.Method, error) {
	switch s.Kind {
	case predict.KindPraMem:
		return pramem.New(s)
	case predict.KindMem0, predict.KindMemOS, predict.KindProEx:
		return memstyle.New(s)
	default:
		return predict.New(s)
	}
}
