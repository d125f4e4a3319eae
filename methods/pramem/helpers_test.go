package pramem

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/datasets/omnibehavior"
	"github.com/memharness/memharness/datasets/synth"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/metrics"
)

// memStore is an in-memory predict.Checkpoints that keeps JSON copies, as
// the run store does, so loads never alias saved values.
type memStore struct {
	mu    sync.Mutex
	m     map[string][]byte
	saves int
}

func newMemStore() *memStore { return &memStore{m: map[string][]byte{}} }

func (s *memStore) Load(user, name string, v any) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[user+"/"+name]
	if !ok {
		return false, nil
	}
	return true, json.Unmarshal(b, v)
}

func (s *memStore) Save(user, name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[user+"/"+name] = b
	s.saves++
	return nil
}

func (s *memStore) names(prefix string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for k := range s.m {
		if strings.Contains(k, prefix) {
			out = append(out, k)
		}
	}
	return out
}

// omniUsers writes a synthetic OmniBehavior copy and returns its binary
// instances per user and the planted truth.
func omniUsers(t testing.TB, users, tests int, seed uint64) ([]behavior.UserSet, *synth.OmniBehaviorData) {
	t.Helper()
	dir := t.TempDir()
	cfg := synth.OmniBehaviorConfig{Users: users, Seed: seed}
	if err := synth.WriteOmniBehavior(dir, cfg); err != nil {
		t.Fatal(err)
	}
	truth, err := synth.GenerateOmniBehavior(cfg)
	if err != nil {
		t.Fatal(err)
	}
	d, err := omnibehavior.Load(dir, "zh")
	if err != nil {
		t.Fatal(err)
	}
	sets, err := omnibehavior.BuildInstances(d, omnibehavior.Options{TestPerUser: tests})
	if err != nil {
		t.Fatal(err)
	}
	for i := range sets {
		var keep []behavior.Instance
		for _, in := range sets[i].Instances {
			if in.Question.Kind == behavior.Binary {
				keep = append(keep, in)
			}
		}
		sets[i].Instances = keep
	}
	return sets, truth
}

func simEnv(st predict.Checkpoints) predict.Env {
	return predict.Env{Model: newSim(sim.Config{PersistentInvalidRate: -1}), Checkpoints: st}
}

// scored is one answered question.
type scored struct{ field, label, pred string }

// evaluate prepares every user and answers every instance.
func evaluate(t testing.TB, m predict.Method, env predict.Env, sets []behavior.UserSet) ([]scored, []predict.Memory) {
	t.Helper()
	var out []scored
	var mems []predict.Memory
	for _, u := range sets {
		mem, err := m.PrepareUser(context.Background(), env, u)
		if err != nil {
			t.Fatal(err)
		}
		mems = append(mems, mem)
		for _, in := range u.Instances {
			o, err := m.Predict(context.Background(), env, mem, in)
			if err != nil {
				t.Fatal(err)
			}
			if o.Valid {
				out = append(out, scored{in.Question.Field, in.Question.Label, o.Pred})
			}
		}
	}
	return out, mems
}

// overallF1 is Table 1's Overall: positive-class F1 per field pooled over
// users, scene = mean of its fields, Overall = mean of the scenes.
func overallF1(s []scored) float64 {
	byField := map[string][2][]string{}
	for _, x := range s {
		v := byField[x.field]
		v[0] = append(v[0], x.label)
		v[1] = append(v[1], x.pred)
		byField[x.field] = v
	}
	sceneSum, sceneN := map[string]float64{}, map[string]int{}
	for f, v := range byField {
		tp, fp, fn := metrics.BinaryCounts(v[0], v[1], "1")
		_, _, f1 := metrics.PRF(tp, fp, fn)
		scene, _, _ := strings.Cut(f, "_")
		sceneSum[scene] += f1
		sceneN[scene]++
	}
	var tot float64
	for sc := range sceneSum {
		tot += sceneSum[sc] / float64(sceneN[sc])
	}
	if len(sceneSum) == 0 {
		return 0
	}
	return 100 * tot / float64(len(sceneSum))
}

// countingModel counts calls per purpose and can cancel a context after a
// number of calls.
type countingModel struct {
	llm.Model
	mu     sync.Mutex
	calls  map[string]int
	n      int
	after  int // cancel once this many calls were made (0 = never)
	cancel context.CancelFunc
}

func (c *countingModel) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	c.mu.Lock()
	if c.calls == nil {
		c.calls = map[string]int{}
	}
	c.calls[req.Purpose]++
	c.n++
	if c.after > 0 && c.n == c.after && c.cancel != nil {
		c.cancel()
	}
	c.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return llm.Response{}, fmt.Errorf("counting: %w", err)
	}
	return c.Model.Generate(ctx, req)
}
