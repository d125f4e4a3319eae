package family

import (
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/envs/taubench"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/methods/agent/lifemem"
	"github.com/memharness/memharness/methods/memstyle"
	"github.com/memharness/memharness/methods/pramem"
	"github.com/memharness/memharness/methods/predict"
)

// BuiltinSimReaders are the embedded backbone's readers of every built-in
// kind's requests, each from the package of the method or environment whose
// hints it reads: the prediction path, the memory-system baselines, PraMem,
// the shared agent (with every environment's action syntax), LifeMem and
// τ-bench's simulated customer. moreActing adds what the acting reader
// knows of environments of one's own (envs.SimActing).
func BuiltinSimReaders(moreActing ...envs.SimActing) ([]sim.Reader, error) {
	agentReaders, err := agent.SimReaders(append(all.SimActing(), moreActing...)...)
	if err != nil {
		return nil, err
	}
	var out []sim.Reader
	for _, rs := range [][]sim.Reader{predict.SimReaders(), memstyle.SimReaders(), pramem.SimReaders(),
		agentReaders, lifemem.SimReaders(), taubench.SimReaders()} {
		out = append(out, rs...)
	}
	return out, nil
}
