package pramem

import (
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/methods/predict"
)

// PracticeTargets are the practice targets m draws for u (pool positions,
// in round order), for the external capture test.
func PracticeTargets(m predict.Method, u behavior.UserSet) ([]int, error) {
	c := m.(*method).cfg
	first := u.Instances[0]
	return samplePractice(first.History[:first.PracticeCut], newQuestionBook(u), c.minHist, c.poolSize, c.rounds, c.seed, u.User, c.releaseSampling)
}
