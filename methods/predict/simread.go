package predict

import (
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
	"github.com/memharness/memharness/llm/sim"
)

// SimReaders are the embedded backbone's readers of the prediction path's
// requests: a question (hint.Predict, which every built-in prediction
// method attaches, estimated by the sim's toolkit and written in a drawn
// surface form) and a recursive summary's fold (Summarize).
func SimReaders() []sim.Reader {
	return []sim.Reader{
		sim.ReaderFor(func(s *sim.Sim, req llm.Request, p hint.Predict) (string, error) {
			a, err := s.Predict(req.Purpose, p)
			if err != nil {
				return "", err
			}
			return s.Surface(req, a), nil
		}),
		sim.ReaderFor(func(_ *sim.Sim, req llm.Request, h Summarize) (string, error) { return summarize(req.Purpose, h) }),
		sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h SummarizeDialogue) (string, error) { return dialogueSummary(h), nil }),
	}
}
