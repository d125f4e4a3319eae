package memstyle

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/datasets/omnibehavior"
	"github.com/memharness/memharness/datasets/synth"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/metrics"
)

// synthUsers writes a small synthetic OmniBehavior copy and returns its
// users with their binary questions only (Table 1).
func synthUsers(t testing.TB, users, tests int, seed uint64) []behavior.UserSet {
	t.Helper()
	dir := t.TempDir()
	if err := synth.WriteOmniBehavior(dir, synth.OmniBehaviorConfig{Users: users, Seed: seed}); err != nil {
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
		sets[i].Instances = slices.DeleteFunc(sets[i].Instances, func(in behavior.Instance) bool {
			return in.Question.Kind != behavior.Binary
		})
	}
	return sets
}

// memCheckpoints is an in-memory predict.Checkpoints holding JSON, as the
// runner's file store does.
type memCheckpoints struct {
	mu sync.Mutex
	m  map[string][]byte
}

func newCheckpoints() *memCheckpoints { return &memCheckpoints{m: map[string][]byte{}} }

func (c *memCheckpoints) Load(user, name string, v any) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[user+"/"+name]
	if !ok {
		return false, nil
	}
	return true, json.Unmarshal(b, v)
}

func (c *memCheckpoints) Save(user, name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[user+"/"+name] = b
	return nil
}

// counting wraps a model and counts calls per purpose; failAfter > 0 makes
// every call after that many fail.
type counting struct {
	inner     llm.Model
	mu        sync.Mutex
	calls     map[string]int
	n         int
	failAfter int
}

func newCounting(inner llm.Model) *counting { return &counting{inner: inner, calls: map[string]int{}} }

var errInjected = fmt.Errorf("injected 503")

func (c *counting) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	c.mu.Lock()
	c.n++
	if c.failAfter > 0 && c.n > c.failAfter {
		c.mu.Unlock()
		return llm.Response{}, errInjected
	}
	c.calls[req.Purpose]++
	c.mu.Unlock()
	return c.inner.Generate(ctx, req)
}

func (c *counting) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, v := range c.calls {
		n += v
	}
	return n
}

func simEnv() predict.Env {
	return predict.Env{Model: newSim(sim.Config{}), Embedder: embed.Hash{}}
}

// result is one method's evaluation on a set of users.
type result struct {
	labels, preds, fields []string
	prompts               []string
	mems                  []predict.Memory
}

// evaluate builds every user's memory and answers every instance.
func evaluate(t testing.TB, spec predict.Spec, env predict.Env, users []behavior.UserSet) result {
	t.Helper()
	var m predict.Method
	var err error
	if spec.Kind == predict.KindTruncation {
		m, err = predict.New(spec)
	} else {
		m, err = New(spec)
	}
	if err != nil {
		t.Fatal(err)
	}
	var r result
	ctx := context.Background()
	for _, u := range users {
		mem, err := m.PrepareUser(ctx, env, u)
		if err != nil {
			t.Fatalf("%s: prepare %s: %v", spec.Kind, u.User, err)
		}
		r.mems = append(r.mems, mem)
		for _, in := range u.Instances {
			rec := &recorder{inner: env.Model}
			e := env
			e.Model = rec
			out, err := m.Predict(ctx, e, mem, in)
			if err != nil {
				t.Fatalf("%s: predict %s: %v", spec.Kind, in.ID, err)
			}
			r.labels = append(r.labels, in.Question.Label)
			r.preds = append(r.preds, out.Pred)
			r.fields = append(r.fields, in.Question.Field)
			r.prompts = append(r.prompts, rec.last)
			if out.Prompt != rec.last {
				t.Errorf("%s: %s: Outcome.Prompt is not the prompt sent (%d bytes vs %d)", spec.Kind, in.ID, len(out.Prompt), len(rec.last))
			}
		}
	}
	return r
}

// recorder keeps the last prompt sent.
type recorder struct {
	inner llm.Model
	last  string
}

func (r *recorder) Generate(ctx context.Context, req llm.Request) (llm.Response, error) {
	r.last = req.Messages[0].Content
	return r.inner.Generate(ctx, req)
}

// table1 is the paper's aggregation: positive-class F1 and accuracy per
// field over valid answers, the unweighted mean per scene (field prefix),
// then over scenes.
func (r result) table1() (acc, f1 float64) {
	byField := map[string][2][]string{}
	for i, f := range r.fields {
		v := byField[f]
		v[0], v[1] = append(v[0], r.labels[i]), append(v[1], r.preds[i])
		byField[f] = v
	}
	type agg struct{ acc, f1, n float64 }
	scenes := map[string]*agg{}
	for f, v := range byField {
		l, p := metrics.ValidOnly(v[0], v[1])
		if len(l) == 0 {
			continue
		}
		_, _, ff := metrics.PRF(metrics.BinaryCounts(l, p, "1"))
		s := strings.SplitN(f, "_", 2)[0]
		if scenes[s] == nil {
			scenes[s] = &agg{}
		}
		scenes[s].acc += metrics.Accuracy(l, p)
		scenes[s].f1 += ff
		scenes[s].n++
	}
	for _, a := range scenes {
		acc += a.acc / a.n
		f1 += a.f1 / a.n
	}
	return 100 * acc / float64(len(scenes)), 100 * f1 / float64(len(scenes))
}
