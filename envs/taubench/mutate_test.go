package taubench

import (
	"crypto/sha256"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"sort"
)

// A mutated tool-call sequence: the gold tool calls of one task, altered
// the ways an agent goes wrong (other valid ids, invalid ids, wrong JSON
// types, dropped or extra arguments, int/float swaps, repeated calls,
// unknown tools, arguments that are not an object).
type mutSeq struct {
	Task  int       `json:"task"` // position in the suite's task list
	Split string    `json:"split"`
	Index int       `json:"index"`
	Calls []mutCall `json:"calls"`
}

type mutCall struct {
	Name string `json:"name"`
	Args string `json:"args"` // JSON text of the arguments
}

// mutator draws mutations from pools built from the suite's data.
type mutator struct {
	s     *Suite
	rng   *rand.Rand
	pools map[string][]Value // argument name -> values seen in gold calls
	keys  map[string][]string
	tools []string
	gold  map[string][]*Object // tool -> gold kwargs seen
}

func newMutator(s *Suite, seed uint64) *mutator {
	m := &mutator{s: s, rng: rand.New(rand.NewPCG(seed, 14)), pools: map[string][]Value{}, keys: map[string][]string{}, gold: map[string][]*Object{}}
	for _, r := range s.d.tasks {
		for _, a := range r.Actions {
			if a.Kwargs == nil || a.Name == Respond {
				continue
			}
			m.gold[a.Name] = append(m.gold[a.Name], a.Kwargs)
			for _, k := range a.Kwargs.Keys() {
				m.pools[k] = append(m.pools[k], a.Kwargs.vals[k])
			}
		}
	}
	for _, tbl := range s.d.domain.tables() {
		var ids []string
		s.d.base.Each(tbl, func(id string, _ *Object) bool {
			ids = append(ids, id)
			return true
		})
		m.keys[tbl] = ids
	}
	m.tools = s.d.tools.names()
	return m
}

func (m *mutator) pick(n int) int { return m.rng.IntN(n) }

// wrongType returns a value of another JSON type than v, or a variant.
func (m *mutator) wrongType(v Value) Value {
	huge, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	opts := []Value{Int(123), Float(12.5), true, false, nil, []Value{}, []Value{Clone(v)}, NewObject().Set("a", Clone(v)), "0", "", "É ΣΑ İ",
		fromBig(huge), Float(1e300), Float(math.Copysign(0, -1)), Int(-7)}
	if n, ok := v.(Num); ok {
		opts = append(opts, n.String(), Float(n.Float64()), Int(int64(n.Float64())))
	}
	if s, ok := v.(string); ok {
		opts = append(opts, []Value{s, s}, s+" ", s+"x")
	}
	return opts[m.pick(len(opts))]
}

// swapNums turns ints into floats and back, deep, each with chance 1/2.
func (m *mutator) swapNums(v Value) Value {
	switch x := v.(type) {
	case Num:
		if m.pick(2) == 0 {
			if x.IsFloat && x.F == float64(int64(x.F)) {
				return Int(int64(x.F))
			}
			if !x.IsFloat {
				return Float(float64(x.I))
			}
		}
		return x
	case []Value:
		out := make([]Value, len(x))
		for i, e := range x {
			out[i] = m.swapNums(e)
		}
		return out
	case *Object:
		o := NewObject()
		for _, k := range x.keys {
			o.Set(k, m.swapNums(x.vals[k]))
		}
		return o
	}
	return v
}

// otherID is a valid id of the kind the argument names, when there is one.
func (m *mutator) otherID(k string, v Value) Value {
	tbl := map[string]string{"order_id": "orders", "user_id": "users", "reservation_id": "reservations", "product_id": "products"}[k]
	if ids := m.keys[tbl]; len(ids) > 0 && m.pick(2) == 0 {
		return ids[m.pick(len(ids))]
	}
	if pool := m.pools[k]; len(pool) > 0 {
		return Clone(pool[m.pick(len(pool))])
	}
	return v
}

// mutateArgs alters one gold call's arguments.
func (m *mutator) mutateArgs(kw *Object) Value {
	o := Clone(kw).(*Object)
	keys := o.Keys()
	n := 1 + m.pick(2)
	for i := 0; i < n; i++ {
		var k string
		if len(keys) > 0 {
			k = keys[m.pick(len(keys))]
		}
		switch op := m.pick(12); {
		case op < 3 && k != "":
			o.Set(k, m.otherID(k, o.vals[k]))
		case op < 5 && k != "":
			o.Set(k, m.wrongType(o.vals[k]))
		case op < 7:
			return m.swapNums(o)
		case op == 7 && k != "":
			o.Delete(k)
			keys = o.Keys()
		case op == 8:
			extra := []string{"data", "extra", "reason", "amount"}[m.pick(4)]
			o.Set(extra, m.wrongType("x"))
			keys = o.Keys()
		case op == 9 && k != "":
			// Mutate inside a list of objects (flights, passengers, payments).
			if l, ok := o.vals[k].([]Value); ok && len(l) > 0 {
				if e, ok := l[0].(*Object); ok && e.Len() > 0 {
					ek := e.Keys()[m.pick(e.Len())]
					if m.pick(2) == 0 {
						e.Set(ek, m.wrongType(e.vals[ek]))
					} else {
						e.Set(ek, m.otherID(ek, e.vals[ek]))
					}
				} else {
					l[0] = m.wrongType(l[0])
				}
			}
		case op == 10 && k != "":
			o.Set(k, "INVALID-"+fmt.Sprint(m.pick(1000)))
		default:
			if m.pick(8) == 0 {
				return []Value{Int(1), "x", nil, Float(2.5), true}[m.pick(5)]
			}
		}
	}
	return o
}

// fromPools fills every parameter of t from values seen in gold calls
// (or a type-shifted stand-in when there are none).
func (m *mutator) fromPools(t *tool) *Object {
	o := NewObject()
	for _, p := range t.params {
		if pool := m.pools[p.name]; len(pool) > 0 {
			o.Set(p.name, Clone(pool[m.pick(len(pool))]))
		} else {
			o.Set(p.name, m.wrongType("1 + 2"))
		}
	}
	return o
}

// sequence builds one mutated sequence for task i.
func (m *mutator) sequence(i int) mutSeq {
	r := m.s.d.tasks[i]
	seq := mutSeq{Task: i, Split: r.Split, Index: r.Index, Calls: []mutCall{}}
	add := func(name string, args Value) {
		seq.Calls = append(seq.Calls, mutCall{Name: name, Args: Dumps(args)})
	}
	for _, a := range r.Actions {
		if a.Name == Respond || a.Kwargs == nil {
			continue
		}
		switch op := m.pick(10); {
		case op < 3:
			add(a.Name, a.Kwargs)
		case op < 8:
			add(a.Name, m.mutateArgs(a.Kwargs))
		case op == 8:
			add(a.Name, a.Kwargs)
			add(a.Name, m.mutateArgs(a.Kwargs))
		default:
			// nothing: the agent skipped the call
		}
		if m.pick(3) == 0 {
			name := m.tools[m.pick(len(m.tools))]
			if gs := m.gold[name]; len(gs) > 0 && m.pick(4) > 0 {
				add(name, m.mutateArgs(gs[m.pick(len(gs))]))
			} else {
				add(name, m.mutateArgs(m.fromPools(m.s.d.tools[name])))
			}
		}
		if m.pick(25) == 0 {
			add([]string{"unknown_tool", "respond_now", "get_orders"}[m.pick(3)], NewObject())
		}
	}
	return seq
}

// sequences builds n sequences over tasks drawn at random.
func (m *mutator) sequences(n int) []mutSeq {
	out := make([]mutSeq, n)
	for i := range out {
		out[i] = m.sequence(m.pick(len(m.s.d.tasks)))
	}
	return out
}

// seqResult is what a sequence produced: each call's observation, the
// final data hash and the reward's state check against the task's gold.
type seqResult struct {
	Outputs  []string `json:"outputs"`
	Hash     string   `json:"hash"`
	GoldHash string   `json:"gold_hash"`
	Reward   float64  `json:"reward"`
}

// runSeq plays a sequence the way env.step does. goldHash caches the
// gold data hash per task when hashes are wanted.
func runSeq(s *Suite, q mutSeq, goldHash map[int]string) (seqResult, *DB, error) {
	db := s.d.base.Fresh()
	var res seqResult
	for _, c := range q.Calls {
		t := s.d.tools[c.Name]
		if t == nil {
			res.Outputs = append(res.Outputs, "Unknown action "+c.Name)
			continue
		}
		args, err := Decode([]byte(c.Args))
		if err != nil {
			return res, nil, fmt.Errorf("call %s: %w", c.Name, err)
		}
		out, _, err := invoke(t, db, args)
		if err != nil {
			return res, nil, err
		}
		res.Outputs = append(res.Outputs, out)
	}
	// The reward's database part (r_actions); the sequences hold no
	// replies, so the outputs part is left out.
	rec := s.d.tasks[q.Task]
	if v := s.judge(rec, db, nil); v.StateOK {
		res.Reward = 1
	}
	if goldHash != nil {
		g, ok := goldHash[q.Task]
		if !ok {
			gold, _ := s.GoldState(rec)
			g = DataHash(gold)
			goldHash[q.Task] = g
		}
		res.Hash, res.GoldHash = DataHash(db), g
	}
	return res, db, nil
}

// compactOutput keeps short outputs whole and long ones as a digest, so
// golden files stay small.
func compactOutput(s string) string {
	rs := []rune(s)
	if len(rs) <= 160 {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	return fmt.Sprintf("sha256:%x len:%d head:%s", sum, len(rs), string(rs[:60]))
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
