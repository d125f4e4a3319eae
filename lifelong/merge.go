package lifelong

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/memharness/memharness/runstore"
)

// MergeShards gathers each shard's method folders into runDir and writes
// its info file with every configured method (methods).
func MergeShards(shards []runstore.Shard, runDir string, methods []MethodSpec) error {
	info, err := ReadInfo(shards[0].Dir)
	if err != nil {
		return fmt.Errorf("shard %s: %w", shards[0].Name, err)
	}
	info.Config.Methods = methods
	for _, s := range shards {
		si, err := ReadInfo(s.Dir)
		if err != nil {
			return fmt.Errorf("shard %s: %w", s.Name, err)
		}
		if !slices.Equal(si.Config.Envs, info.Config.Envs) {
			return fmt.Errorf("shard %s ran the stream over %v, shard %s over %v (an environment was available to one only); re-run them on like machines",
				s.Name, si.Config.Envs, shards[0].Name, info.Config.Envs)
		}
		ents, err := os.ReadDir(filepath.Join(s.Dir, Dir))
		if err != nil {
			return fmt.Errorf("shard %s: %w", s.Name, err)
		}
		for _, e := range ents {
			if e.IsDir() {
				if err := runstore.CopyTree(filepath.Join(s.Dir, Dir, e.Name()), filepath.Join(runDir, Dir, e.Name())); err != nil {
					return fmt.Errorf("shard %s: %w", s.Name, err)
				}
			}
		}
	}
	return WriteInfo(runDir, info)
}
