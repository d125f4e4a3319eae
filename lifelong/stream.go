package lifelong

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/memharness/memharness/methods/agent"
)

// Batch is one Learn call's trajectories.
type Batch struct {
	// Env is the environment every trajectory comes from; "" when the batch
	// mixes environments (random stream).
	Env   string
	Items []agent.Trajectory
}

// Stage is a unit of learning followed by a checkpoint (method Save) and,
// when Eval is non-empty, by the evaluation of those test sets.
type Stage struct {
	// Index is 1-based; row Index of the score matrix.
	Index int
	// Env is the environment learned in this stage (similarity stream);
	// "" for a chunk of a random or buffer stream.
	Env     string
	Batches []Batch
	// Eval lists the test sets evaluated after the stage, in stream order.
	Eval []string
}

// Trajectories counts the stage's trajectories.
func (s Stage) Trajectories() int {
	n := 0
	for _, b := range s.Batches {
		n += len(b.Items)
	}
	return n
}

// Stream is a whole task stream over the environments Envs.
type Stream struct {
	Kind   string
	Envs   []string
	Stages []Stage
	// Batch is the batch (and buffer cache) size.
	Batch int
	// Dropped counts trajectories of environments outside Envs.
	Dropped int
}

// NewStream builds the stream of the given kind over trajs: similarity
// keeps envs' order with one stage per environment; random and buffer
// shuffle globally with seed and cut the stream into len(envs) checkpoint
// stages, evaluating every test set only after the last (their env
// boundaries vanish, so only the final row of S is defined, as in App. H).
func NewStream(kind string, trajs []agent.Trajectory, envs []string, batch int, seed int64) (Stream, error) {
	if len(envs) == 0 {
		return Stream{}, fmt.Errorf("stream: no environments")
	}
	if batch < 1 {
		return Stream{}, fmt.Errorf("stream: batch %d, want >= 1", batch)
	}
	byEnv, dropped, err := groupByEnv(trajs, envs)
	if err != nil {
		return Stream{}, err
	}
	st := Stream{Kind: kind, Envs: slices.Clone(envs), Batch: batch, Dropped: dropped}
	switch kind {
	case StreamSimilarity:
		for j, e := range envs {
			st.Stages = append(st.Stages, Stage{
				Index: j + 1, Env: e, Batches: chunk(e, byEnv[e], batch), Eval: slices.Clone(envs[:j+1]),
			})
		}
	case StreamRandom:
		all := shuffled(byEnv, envs, seed)
		st.Stages = cutStages(chunk("", all, batch), len(envs), envs)
	case StreamBuffer:
		st.Stages = cutStages(buffered(shuffled(byEnv, envs, seed), envs, batch), len(envs), envs)
	default:
		return Stream{}, fmt.Errorf("stream: unknown kind %q (want similarity, random or buffer)", kind)
	}
	return st, nil
}

// groupByEnv sorts each environment's trajectories easy→hard (Difficulty,
// then ID for a stable order) and rejects duplicate IDs, which would make
// resumed runs ambiguous.
func groupByEnv(trajs []agent.Trajectory, envs []string) (map[string][]agent.Trajectory, int, error) {
	by := map[string][]agent.Trajectory{}
	ids := map[string]bool{}
	dropped := 0
	for _, t := range trajs {
		if !slices.Contains(envs, t.Env) {
			dropped++
			continue
		}
		if ids[t.ID] {
			return nil, 0, fmt.Errorf("stream: duplicate trajectory id %q", t.ID)
		}
		ids[t.ID] = true
		by[t.Env] = append(by[t.Env], t)
	}
	for _, list := range by {
		// Easy→hard, and within one difficulty the order the files list
		// them in (the release reads its files top to bottom).
		slices.SortStableFunc(list, func(a, b agent.Trajectory) int {
			return cmp.Compare(a.Difficulty, b.Difficulty)
		})
	}
	return by, dropped, nil
}

// shuffled is one seeded global shuffle of a canonical order (envs order,
// then easy→hard), so the result depends on the seed only.
func shuffled(by map[string][]agent.Trajectory, envs []string, seed int64) []agent.Trajectory {
	var all []agent.Trajectory
	for _, e := range envs {
		all = append(all, by[e]...)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6c69_6665_6c6f_6e67)) // "lifelong"
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	return all
}

func chunk(env string, items []agent.Trajectory, size int) []Batch {
	var out []Batch
	for start := 0; start < len(items); start += size {
		out = append(out, Batch{Env: env, Items: slices.Clone(items[start:min(start+size, len(items))])})
	}
	return out
}

// buffered replays the random arrival order through one cache per
// environment: a cache that reaches size is committed as one batch; the
// caches left over at the end are flushed in the order of their first
// arrival.
func buffered(arrivals []agent.Trajectory, envs []string, size int) []Batch {
	cache := map[string][]agent.Trajectory{}
	var firstSeen []string
	var out []Batch
	for _, t := range arrivals {
		if !slices.Contains(firstSeen, t.Env) {
			firstSeen = append(firstSeen, t.Env)
		}
		cache[t.Env] = append(cache[t.Env], t)
		if len(cache[t.Env]) == size {
			out = append(out, Batch{Env: t.Env, Items: cache[t.Env]})
			cache[t.Env] = nil
		}
	}
	for _, e := range firstSeen {
		if len(cache[e]) > 0 {
			out = append(out, Batch{Env: e, Items: cache[e]})
		}
	}
	return out
}

// cutStages splits batches into n checkpoint stages of near-equal batch
// counts; only the last evaluates, on every environment.
func cutStages(batches []Batch, n int, envs []string) []Stage {
	stages := make([]Stage, n)
	for j := range stages {
		lo, hi := j*len(batches)/n, (j+1)*len(batches)/n
		stages[j] = Stage{Index: j + 1, Batches: batches[lo:hi]}
	}
	stages[n-1].Eval = slices.Clone(envs)
	return stages
}
