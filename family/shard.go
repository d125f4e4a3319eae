package family

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
)

// Shard is one slice of a run's work: shard Index (0-based) of Count.
// Prediction runs are split by user (a user's memory, PraMem practice rounds
// included, is built in one shard), lifelong runs by agent method (a
// method's stream is sequential). Each shard writes its own folder below the
// run directory, with its own samples log, usage, memory and response cache;
// `bench merge` combines them into what one process would have written.
type Shard struct {
	Index, Count int
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// ShardsDir is the folder of a sharded run's shards inside its run directory.
const ShardsDir = "shards"

// Dir is the shard's folder: RUN/shards/003-of-016, so names sort in order.
func (s Shard) Dir(runDir string) string {
	return filepath.Join(runDir, ShardsDir, fmt.Sprintf("%03d-of-%03d", s.Index, s.Count))
}

var shardDirName = lazyre.New(`^(\d+)-of-(\d+)$`)

// parseShardDir reads a shard folder's name back.
func parseShardDir(name string) (Shard, bool) {
	m := shardDirName.FindStringSubmatch(name)
	if m == nil {
		return Shard{}, false
	}
	i, _ := strconv.Atoi(m[1])
	n, _ := strconv.Atoi(m[2])
	s := Shard{Index: i, Count: n}
	return s, s.valid() == nil
}

func (s Shard) valid() error {
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("shard %d/%d: want I/N with 0 ≤ I < N", s.Index, s.Count)
	}
	return nil
}

// ParseShard reads "I/N" (I is 0-based).
func ParseShard(v string) (Shard, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(v), "/")
	if !ok {
		return Shard{}, fmt.Errorf("shard %q: want I/N, e.g. 0/4 (I counts from 0)", v)
	}
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q: want I/N with whole numbers", v)
	}
	s := Shard{Index: i, Count: n}
	return s, s.valid()
}

// ShardFromEnv finds the shard a scheduler assigned: BENCH_SHARD ("I/N"),
// else a Slurm array task (SLURM_ARRAY_TASK_ID counted from
// SLURM_ARRAY_TASK_MIN, of SLURM_ARRAY_TASK_COUNT), else a Kubernetes
// Indexed Job (JOB_COMPLETION_INDEX, of BENCH_SHARD_COUNT). ok is false when
// none is set.
func ShardFromEnv(getenv func(string) string) (s Shard, ok bool, err error) {
	if v := getenv("BENCH_SHARD"); v != "" {
		s, err = ParseShard(v)
		return s, err == nil, err
	}
	num := func(name string) (int, error) {
		n, err := strconv.Atoi(strings.TrimSpace(getenv(name)))
		if err != nil {
			return 0, fmt.Errorf("%s=%q is not a number", name, getenv(name))
		}
		return n, nil
	}
	if getenv("SLURM_ARRAY_TASK_ID") != "" && getenv("SLURM_ARRAY_TASK_COUNT") != "" {
		id, err := num("SLURM_ARRAY_TASK_ID")
		if err != nil {
			return s, false, err
		}
		count, err := num("SLURM_ARRAY_TASK_COUNT")
		if err != nil {
			return s, false, err
		}
		lo := 0
		if getenv("SLURM_ARRAY_TASK_MIN") != "" {
			if lo, err = num("SLURM_ARRAY_TASK_MIN"); err != nil {
				return s, false, err
			}
		}
		s = Shard{Index: id - lo, Count: count}
		if err := s.valid(); err != nil {
			return s, false, fmt.Errorf("from Slurm (task %d, min %d, count %d; the array must be contiguous): %w", id, lo, count, err)
		}
		return s, true, nil
	}
	if getenv("JOB_COMPLETION_INDEX") != "" {
		if getenv("BENCH_SHARD_COUNT") == "" {
			return s, false, fmt.Errorf("JOB_COMPLETION_INDEX is set but BENCH_SHARD_COUNT is not (set it to the Job's completions)")
		}
		id, err := num("JOB_COMPLETION_INDEX")
		if err != nil {
			return s, false, err
		}
		count, err := num("BENCH_SHARD_COUNT")
		if err != nil {
			return s, false, err
		}
		s = Shard{Index: id, Count: count}
		if err := s.valid(); err != nil {
			return s, false, fmt.Errorf("from the Indexed Job: %w", err)
		}
		return s, true, nil
	}
	return s, false, nil
}

// Owns reports whether the unit at position i of the plan (a user, or an
// agent method) belongs to this shard. Round-robin over the plan order: a
// partition whose parts differ in size by at most one unit.
func (s *Shard) Owns(i int) bool {
	return s == nil || i%s.Count == s.Index
}

// Mine is the part of items a run works on: every item, or the shard's
// slice of them (item i belongs to shard i mod N).
func Mine[T any](items []T, s *Shard) []T {
	if s == nil {
		return items
	}
	var out []T
	for i, x := range items {
		if s.Owns(i) {
			out = append(out, x)
		}
	}
	return out
}
