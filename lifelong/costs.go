package lifelong

import (
	"slices"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runrecord"
)

// Usage is the call and token count of a part of the protocol (the
// record type runrecord.LifelongUsage).
type Usage = runrecord.LifelongUsage

// UsageOf converts one purpose's meter counters.
func UsageOf(p llm.PurposeStats) Usage {
	return Usage{
		Calls: p.Calls, CachedCalls: p.Cached, Errors: p.Errors,
		PromptTokens: p.Usage.PromptTokens, CompletionTokens: p.Usage.CompletionTokens, Cost: p.Usage.Cost,
	}
}

// Snapshotter is what the runner reads usage from (*llm.Meter is one).
type Snapshotter interface {
	Snapshot() llm.MeterSnapshot
}

// DefaultEnvPurposes are the purposes of calls made by environments (not by
// the method) during episodes; they are reported apart from acting.
func DefaultEnvPurposes() []string { return []string{"taubench.user"} }

// byPurpose sums the snapshots of several meters per purpose.
func byPurpose(meters []Snapshotter) map[string]Usage {
	out := map[string]Usage{}
	for _, m := range meters {
		for p, st := range m.Snapshot().ByPurpose {
			out[p] = out[p].Add(UsageOf(st))
		}
	}
	return out
}

// split returns the difference between two per-purpose readings, divided
// into method calls and environment calls. Purposes are visited in sorted
// order so float sums do not depend on map order.
func split(after, before map[string]Usage, envPurposes []string) (method, env Usage) {
	for _, p := range sortedKeys(after) {
		d := after[p].Sub(before[p])
		if slices.Contains(envPurposes, p) {
			env = env.Add(d)
		} else {
			method = method.Add(d)
		}
	}
	return method, env
}

// Costs is a method's accounting over a lifelong run (Table 10):
// construction (Learn and EndStage of the stream and of self-learn) versus
// acting (the method's calls while playing test episodes); the record type
// runrecord.LifelongCosts, written to costs.json.
type Costs = runrecord.LifelongCosts

// SplitSnapshot divides one whole-run meter snapshot into construction and
// acting usage by purpose: construction(purpose) decides, and envPurposes
// go to Environment. It serves runs whose meter was not read per stage.
func SplitSnapshot(method string, snap llm.MeterSnapshot, construction func(purpose string) bool, envPurposes []string) Costs {
	c := Costs{Method: method}
	for _, p := range sortedKeys(snap.ByPurpose) {
		u := UsageOf(snap.ByPurpose[p])
		switch {
		case slices.Contains(envPurposes, p):
			c.Environment = c.Environment.Add(u)
		case construction != nil && construction(p):
			c.Construction = c.Construction.Add(u)
		default:
			c.Acting = c.Acting.Add(u)
		}
	}
	return c.WithRates()
}
