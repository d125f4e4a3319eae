package family

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// A finished shard seals its folder: the manifest lists the SHA-256 of every
// file the merge reads (samples, prompts, usage, memories, checkpoints,
// lifelong cells), and `bench merge` refuses a shard whose files no longer
// match, naming the file. A flipped answer, a sample moved between shards or
// inflated usage then fails the merge instead of entering the results.
// The seal guards against files changed after the shard finished (by hand,
// by a tool, by a bad copy), not against someone who rewrites the manifest
// too.

// unsealed reports whether a shard file stays out of the seal: the
// manifest holds the seal, the lock file holds the PID of whoever opened
// the folder last, the sample index is rebuilt from samples.jsonl by
// whoever finds it stale, and the response caches are SQLite files that change
// when opened (the merge checks them as caches).
func unsealed(rel string) bool {
	return rel == runrecord.ManifestFile || rel == runstore.LockFile || rel == runrecord.SampleIndexFile ||
		rel == ".cache" || strings.HasPrefix(rel, ".cache/")
}

// SealShard seals a finished shard's folder into its manifest (other runs
// are not merged and keep no seal).
func SealShard(run Run, man *runrecord.Manifest) error {
	if run.Shard == nil {
		return nil
	}
	seal, err := sealDir(run.Dir)
	man.Seal = seal
	return err
}

// sealDir returns the digests of every sealed file below dir, by slash
// path relative to dir.
func sealDir(dir string) (map[string]string, error) {
	seal := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if unsealed(rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		sum, err := fileDigest(p)
		if err != nil {
			return err
		}
		seal[rel] = sum
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("seal %s: %w", dir, err)
	}
	return seal, nil
}

func fileDigest(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// verifySeal checks a finished shard's files against its seal: a changed,
// missing or added file is an error naming it.
func verifySeal(s ShardRun) error {
	if len(s.Manifest.Seal) == 0 {
		return fmt.Errorf("shard %s (%s) has no seal of its files (finished by an older harness, or its manifest was edited); re-run it to merge it", s.Spec, s.Dir)
	}
	now, err := sealDir(s.Dir)
	if err != nil {
		return fmt.Errorf("shard %s: %w", s.Spec, err)
	}
	names := slices.Collect(maps.Keys(s.Manifest.Seal))
	for k := range now {
		if _, ok := s.Manifest.Seal[k]; !ok {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	var bad []string
	for _, rel := range names {
		was, sealed := s.Manifest.Seal[rel]
		is, present := now[rel]
		switch {
		case !present:
			bad = append(bad, rel+" is missing")
		case !sealed:
			bad = append(bad, rel+" was added")
		case was != is:
			bad = append(bad, fmt.Sprintf("%s changed (sha256 %.12s sealed, %.12s now)", rel, was, is))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("shard %s (%s) was changed after it finished: %s; refusing to merge it (re-run the shard to rebuild it)",
			s.Spec, s.Dir, strings.Join(FirstN(bad, 5), "; "))
	}
	return nil
}
