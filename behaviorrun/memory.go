package behaviorrun

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/runrecord"
)

// BuildMemory loads a user's stored memory of method m or builds and stores
// it. The construction's model calls are journalled with the checkpoints
// and the memory they paid for (not with the sample that triggered the
// build). env's checkpoints are replaced by the store's; retryBudget bounds
// the construction's retry waits (0: unbounded).
func BuildMemory(ctx context.Context, st Store, m predict.Method, env predict.Env, user behavior.UserSet, retryBudget time.Duration) (predict.Memory, error) {
	name := MemoryPath(m.Name(), user.User)
	var mem predict.Memory
	ok, err := st.ReadJSON(name, &mem)
	if errors.Is(err, runrecord.ErrDamaged) {
		// A damaged memory is rebuilt rather than failing its samples on
		// every resume.
		if err := st.Reject(name, err); err != nil {
			return mem, err
		}
		mem, ok, err = predict.Memory{}, false, nil
	}
	if err != nil || ok {
		return mem, err
	}
	calls := &llm.CallLog{}
	var locks *keyedLocks // the run's, kept so methods sharing a construction wait for each other
	if c, ok := env.Checkpoints.(checkpoints); ok {
		locks = c.locks
	}
	env.Checkpoints = checkpoints{st: st, calls: calls, locks: locks}
	ctx = llm.WithRetryBudget(llm.WithCallLog(ctx, calls), retryBudget)
	mem, err = m.PrepareUser(ctx, env, user)
	if err != nil {
		return mem, err
	}
	if mem.Text == "" && mem.Calls == 0 && mem.Meta == nil {
		return mem, nil // memoryless method: nothing to store
	}
	if err := recordID(st, name, user.User); err != nil {
		return mem, err
	}
	return mem, st.WriteJSONWith(name, mem, calls.Take())
}

// MemoryEmpty reports whether a memory method built nothing for a user. The
// methods' records say what they hold: Mem0/MemOS count stored units, RAG its
// documents, PraMem its pattern (user_exp) and bias-alert (model_exp)
// entries; any other method is empty when it made construction calls yet
// holds no text.
func MemoryEmpty(mem predict.Memory) bool {
	count := func(key string) (int, bool) {
		v, ok := mem.Meta[key]
		if !ok {
			return 0, false
		}
		f, ok := v.(float64) // after a JSON round trip
		if !ok {
			if i, isInt := v.(int); isInt {
				return i, true
			}
			return 0, false
		}
		return int(f), true
	}
	if n, ok := count("stored"); ok {
		return n == 0
	}
	if n, ok := count("documents"); ok {
		return n == 0
	}
	if u, ok := count("user_exp"); ok {
		m, _ := count("model_exp")
		return u+m == 0
	}
	return mem.Calls > 0 && strings.TrimSpace(mem.Text) == ""
}
