package memstyle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/predict"
)

var styleKinds = []string{KindMem0, KindMemOS, KindProEx}

// construction lists the purposes each kind's construction must use.
var construction = map[string][]string{
	KindMem0:  {"mem0.extract", "mem0.update"},
	KindMemOS: {"memos.extract", "memos.consolidate"},
	KindProEx: {"proex.induce", "proex.validate"},
}

func TestNew(t *testing.T) {
	tests := []struct {
		spec predict.Spec
		want knobs
		err  string
	}{
		{spec: predict.Spec{Kind: "mem0"}, want: knobs{Kind: "mem0", TopK: 10, Chunk: 20, MaxFacts: 12}},
		{spec: predict.Spec{Kind: "memos", Memory: &predict.MemorySpec{TopK: 4, MaxMemory: 8, Profiles: 9}},
			want: knobs{Kind: "memos", TopK: 4, Chunk: 20, MaxMemory: 8, MaxFacts: 12}},
		{spec: predict.Spec{Kind: "proex"}, want: knobs{Kind: "proex", Profiles: 3, Holdout: 10, MaxFacts: 48}},
		{spec: predict.Spec{Kind: "proex", Memory: &predict.MemorySpec{Profiles: 5, Holdout: -1}},
			want: knobs{Kind: "proex", Profiles: 5, MaxFacts: 48}},
		{spec: predict.Spec{Kind: "pramem"}, err: "unknown method kind"},
		{spec: predict.Spec{Kind: "mem0", Language: "fr"}, err: "fr"},
	}
	for _, tt := range tests {
		t.Run(tt.spec.Kind, func(t *testing.T) {
			m, err := New(tt.spec)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got knobs
			switch m := m.(type) {
			case *mem0:
				got = m.k
			case *memos:
				got = m.k
			case *proex:
				got = m.k
			}
			if got != tt.want || m.Name() != tt.spec.Kind {
				t.Errorf("knobs %+v (name %q), want %+v", got, m.Name(), tt.want)
			}
		})
	}
}

// truncationPrompts answers the instances with the truncation baseline.
func truncationPrompts(t *testing.T, users []behavior.UserSet) map[string]string {
	t.Helper()
	r := evaluate(t, predict.Spec{Kind: predict.KindTruncation}, simEnv(), users)
	out := map[string]string{}
	i := 0
	for _, u := range users {
		for _, in := range u.Instances {
			out[in.ID] = r.prompts[i]
			i++
		}
	}
	return out
}

// Each kind end to end on synthetic users: construction uses its calls,
// the memory block is appended after the truncation prompt, and Meta holds
// the efficiency figures.
func TestEndToEnd(t *testing.T) {
	users := synthUsers(t, 3, 3, 11)
	plain := truncationPrompts(t, users)
	headers := map[string]string{
		KindMem0:  "## 补充信息：关于该用户的记忆",
		KindMemOS: "## 补充信息：该用户的结构化记忆",
		KindProEx: "## 补充信息：用户画像",
	}
	for _, kind := range styleKinds {
		t.Run(kind, func(t *testing.T) {
			model := newCounting(newSim(sim.Config{}))
			env := simEnv()
			env.Model = model
			r := evaluate(t, predict.Spec{Kind: kind}, env, users)
			for _, p := range construction[kind] {
				if model.calls[p] == 0 {
					t.Errorf("no %s call (calls %v)", p, model.calls)
				}
			}
			for i, mem := range r.mems {
				if mem.Text == "" || mem.Tokens == 0 || mem.Calls == 0 {
					t.Errorf("user %d: memory %+v", i, mem)
				}
				for _, k := range []string{"construction_seconds", "calls", "memory_tokens"} {
					if _, ok := mem.Meta[k]; !ok {
						t.Errorf("user %d: meta lacks %s: %v", i, k, mem.Meta)
					}
				}
				if mem.Meta["calls"] != mem.Calls || mem.Meta["memory_tokens"] != mem.Tokens {
					t.Errorf("meta %v vs memory calls %d tokens %d", mem.Meta, mem.Calls, mem.Tokens)
				}
			}
			i, withFacts := 0, 0
			for _, u := range users {
				for _, in := range u.Instances {
					got, base := r.prompts[i], plain[in.ID]
					i++
					block, ok := strings.CutPrefix(got, base+"\n\n")
					if !ok || !strings.HasPrefix(block, headers[kind]) {
						t.Fatalf("%s: prompt is not the truncation prompt + blank line + memory block:\n%s", in.ID, got[max(0, len(base)-200):])
					}
					if strings.Contains(block, "records (sum ") {
						withFacts++
					}
				}
			}
			if withFacts < i/2 {
				t.Errorf("only %d of %d memory blocks carry facts", withFacts, i)
			}
		})
	}
}

// stable drops the wall-clock figure from a memory's Meta.
func stable(m predict.Memory) predict.Memory {
	m.Meta = maps.Clone(m.Meta)
	delete(m.Meta, "construction_seconds")
	return m
}

func TestDeterministic(t *testing.T) {
	users := synthUsers(t, 2, 2, 5)
	for _, kind := range styleKinds {
		t.Run(kind, func(t *testing.T) {
			a := evaluate(t, predict.Spec{Kind: kind}, simEnv(), users)
			b := evaluate(t, predict.Spec{Kind: kind}, simEnv(), users)
			for i := range a.mems {
				if d := cmp.Diff(stable(a.mems[i]), stable(b.mems[i])); d != "" {
					t.Errorf("memory %d differs (-a +b):\n%s", i, d)
				}
			}
			if d := cmp.Diff(a.prompts, b.prompts); d != "" || fmt.Sprint(a.preds) != fmt.Sprint(b.preds) {
				t.Errorf("predictions differ:\n%s", d)
			}
		})
	}
}

// A finished construction is resumed from its checkpoint without a call;
// an interrupted one continues and ends with the same memory as an
// uninterrupted run.
func TestResumeFromCheckpoints(t *testing.T) {
	u := synthUsers(t, 1, 2, 9)[0]
	ctx := context.Background()
	for _, kind := range styleKinds {
		t.Run(kind, func(t *testing.T) {
			m, err := New(predict.Spec{Kind: kind})
			if err != nil {
				t.Fatal(err)
			}
			env := simEnv()
			full, err := m.PrepareUser(ctx, env, u)
			if err != nil {
				t.Fatal(err)
			}

			cps := newCheckpoints()
			broken := newCounting(newSim(sim.Config{}))
			broken.failAfter = full.Calls / 2
			env.Model, env.Checkpoints = broken, cps
			if _, err := m.PrepareUser(ctx, env, u); !errors.Is(err, errInjected) {
				t.Fatalf("interrupted construction: err %v", err)
			}
			if len(cps.m) != 1 {
				t.Fatalf("checkpoints %v", maps.Keys(cps.m))
			}
			resumed := newCounting(newSim(sim.Config{}))
			env.Model = resumed
			mem, err := m.PrepareUser(ctx, env, u)
			if err != nil {
				t.Fatal(err)
			}
			if mem.Text != full.Text || fmt.Sprint(mem.Meta["units"]) != fmt.Sprint(full.Meta["units"]) {
				t.Errorf("resumed memory differs:\n%s\n---\n%s", mem.Text, full.Text)
			}
			if n := resumed.total(); n == 0 || n >= full.Calls {
				t.Errorf("resumed run made %d calls, full run %d", n, full.Calls)
			}
			// The stored memory says what the construction cost over every
			// session, as an uninterrupted one does (no per-process figure).
			if _, ok := mem.Meta["session_calls"]; ok {
				t.Errorf("memory meta carries a per-session call count: %v", mem.Meta)
			}
			if mem.Calls < full.Calls {
				t.Errorf("calls over both sessions %d < %d", mem.Calls, full.Calls)
			}

			env.Model = llm.ModelFunc(func(ctx context.Context, req llm.Request) (llm.Response, error) {
				return llm.Response{}, fmt.Errorf("no call expected, got %s", req.Purpose)
			})
			again, err := m.PrepareUser(ctx, env, u)
			if err != nil {
				t.Fatal(err)
			}
			if again.Text != mem.Text || again.Calls != mem.Calls {
				t.Errorf("finished construction: text equal %v, calls %d vs %d", again.Text == mem.Text, again.Calls, mem.Calls)
			}
		})
	}
}

// The checkpoint name hashes what determines the memory: evaluation-only
// settings share it, construction settings and the data do not.
func TestCheckpointNames(t *testing.T) {
	users := synthUsers(t, 2, 2, 9)
	name := func(s predict.Spec, u behavior.UserSet) string {
		t.Helper()
		m, err := New(s)
		if err != nil {
			t.Fatal(err)
		}
		var c *common
		switch m := m.(type) {
		case *mem0:
			c = &m.common
		case *memos:
			c = &m.common
		case *proex:
			c = &m.common
		}
		n, err := c.checkpointName(simEnv(), u)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	u := users[0]
	base := name(predict.Spec{Kind: "mem0"}, u)
	if !strings.HasPrefix(base, "mem0-") {
		t.Errorf("name %q", base)
	}
	tests := []struct {
		spec predict.Spec
		u    behavior.UserSet
		same bool
	}{
		{predict.Spec{Kind: "mem0", Name: "other", Memory: &predict.MemorySpec{TopK: 3}, HistoryTokens: 4000}, u, true},
		{predict.Spec{Kind: "mem0", Memory: &predict.MemorySpec{Chunk: 10}}, u, false},
		{predict.Spec{Kind: "memos"}, u, false},
		{predict.Spec{Kind: "mem0"}, users[1], false},
	}
	for i, tt := range tests {
		if got := name(tt.spec, tt.u); (got == base) != tt.same {
			t.Errorf("case %d: %q vs %q, same = %v", i, got, base, tt.same)
		}
	}
	if name(predict.Spec{Kind: "mem0", Language: "en"}, u) == base {
		t.Errorf("records rendered in another language: the name must change")
	}
	p := name(predict.Spec{Kind: "proex"}, u)
	if p == name(predict.Spec{Kind: "proex", HistoryTokens: 4000}, u) {
		t.Errorf("proex validates with the history budget: it must be in the name")
	}
}

// A memory stored as JSON and loaded back predicts exactly as the original.
func TestMemoryJSONRoundTrip(t *testing.T) {
	u := synthUsers(t, 1, 2, 13)[0]
	ctx := context.Background()
	for _, kind := range styleKinds {
		t.Run(kind, func(t *testing.T) {
			m, _ := New(predict.Spec{Kind: kind})
			env := simEnv()
			mem, err := m.PrepareUser(ctx, env, u)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(mem)
			if err != nil {
				t.Fatal(err)
			}
			var loaded predict.Memory
			if err := json.Unmarshal(b, &loaded); err != nil {
				t.Fatal(err)
			}
			prompt := func(mem predict.Memory) string {
				rec := &recorder{inner: env.Model}
				e := env
				e.Model = rec
				if _, err := m.Predict(ctx, e, mem, u.Instances[0]); err != nil {
					t.Fatal(err)
				}
				return rec.last
			}
			if a, b := prompt(mem), prompt(loaded); a != b {
				t.Errorf("prompts differ after a JSON round trip")
			}
		})
	}
}

func TestErrors(t *testing.T) {
	u := synthUsers(t, 1, 2, 9)[0]
	ctx := context.Background()
	boom := errors.New("503")
	failing := llm.ModelFunc(func(context.Context, llm.Request) (llm.Response, error) { return llm.Response{}, boom })
	for _, kind := range styleKinds {
		t.Run(kind, func(t *testing.T) {
			m, _ := New(predict.Spec{Kind: kind})
			if _, err := m.PrepareUser(ctx, predict.Env{Model: failing, Embedder: embed.Hash{}}, u); !errors.Is(err, boom) {
				t.Errorf("transport error: %v", err)
			}
			if _, err := m.PrepareUser(ctx, predict.Env{Embedder: embed.Hash{}}, u); err == nil {
				t.Errorf("no model: no error")
			}
			if mem, err := m.PrepareUser(ctx, simEnv(), behavior.UserSet{User: "none"}); err != nil || mem.Text != "" || mem.Calls != 0 {
				t.Errorf("no instances: %+v %v", mem, err)
			}
			if kind != KindProEx {
				if _, err := m.PrepareUser(ctx, predict.Env{Model: newSim(sim.Config{})}, u); err == nil || !strings.Contains(err.Error(), "embedder") {
					t.Errorf("no embedder: %v", err)
				}
			}
			// An empty memory predicts like truncation.
			rec := &recorder{inner: newSim(sim.Config{})}
			if _, err := m.Predict(ctx, predict.Env{Model: rec, Embedder: embed.Hash{}}, predict.Memory{}, u.Instances[0]); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(rec.last, "补充信息") {
				t.Errorf("empty memory appended a block")
			}
		})
	}
}
