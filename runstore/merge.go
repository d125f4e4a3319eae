package runstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memharness/memharness/llm/cache"
	"github.com/memharness/memharness/runrecord"
)

// A sharded run writes each shard into its own run directory; the merges
// below combine them into one that equals a single process's run byte for
// byte (on the sim backbone).

// Shard is one finished shard's run directory; Name (e.g. "0/2") names it
// in errors.
type Shard struct {
	Name, Dir string
}

// MergeSamples writes every shard's samples as the merged run's sample
// log in plan order (order), as Compact would, and returns how many. A
// planned sample in no shard, one in two shards, or one outside the plan
// is an error.
func MergeSamples(shards []Shard, order []string, runDir string) (int, error) {
	byID := map[string]runrecord.Sample{}
	from := map[string]string{}
	for _, s := range shards {
		samples, err := runrecord.ReadSamples(filepath.Join(s.Dir, runrecord.SamplesFile))
		if err != nil {
			return 0, fmt.Errorf("shard %s: %w", s.Name, err)
		}
		for _, rec := range samples {
			if prev, dup := from[rec.ID]; dup {
				return 0, fmt.Errorf("sample %s is in shard %s and shard %s; the shards overlap", rec.ID, prev, s.Name)
			}
			byID[rec.ID], from[rec.ID] = rec, s.Name
		}
	}
	var buf bytes.Buffer
	var missing []string
	for _, id := range order {
		rec, ok := byID[id]
		if !ok {
			missing = append(missing, id)
			continue
		}
		line, err := json.Marshal(rec)
		if err != nil {
			return 0, fmt.Errorf("merge: encode %s: %w", id, err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
		delete(byID, id)
	}
	if len(missing) > 0 {
		return 0, fmt.Errorf("merge: %d planned samples are in no shard (e.g. %s); re-run the shards to finish them", len(missing), strings.Join(firstN(missing, 3), ", "))
	}
	if len(byID) > 0 {
		extra := slices.Sorted(maps.Keys(byID))
		return 0, fmt.Errorf("merge: %d samples in the shards are not in the plan (e.g. %s); were the shards run with another config?", len(extra), strings.Join(firstN(extra, 3), ", "))
	}
	return len(order), WriteFileAtomic(filepath.Join(runDir, runrecord.SamplesFile), buf.Bytes())
}

// MergePrompts writes prompts.jsonl in plan order from the shards' files,
// copying each sample's line as it is.
func MergePrompts(shards []Shard, order []string, runDir string) error {
	type source struct {
		data []byte
		idx  map[string]runrecord.Span
	}
	var srcs []source
	for _, s := range shards {
		path := filepath.Join(s.Dir, runrecord.PromptsFile)
		idx, err := runrecord.IndexPrompts(path)
		if err != nil {
			return fmt.Errorf("shard %s: %w", s.Name, err)
		}
		if len(idx) == 0 {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("shard %s: %w", s.Name, err)
		}
		srcs = append(srcs, source{b, idx})
	}
	if len(srcs) == 0 {
		return nil // runs that keep no prompts
	}
	var out bytes.Buffer
	for _, id := range order {
		for _, sr := range srcs {
			if sp, ok := sr.idx[id]; ok {
				out.Write(sr.data[sp.Off : sp.Off+sp.Len])
				break
			}
		}
	}
	return WriteFileAtomic(filepath.Join(runDir, runrecord.PromptsFile), out.Bytes())
}

// MergeJournals writes the shards' usage journals one after the other as
// the merged run's usage.jsonl. Shards own disjoint samples and saved
// states, so the journal's units stay unique, and its file units still
// match the copied files byte for byte.
func MergeJournals(shards []Shard, runDir string) error {
	var all []byte
	for _, s := range shards {
		b, err := os.ReadFile(filepath.Join(s.Dir, UsageJournal))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("shard %s: %w", s.Name, err)
		}
		if len(b) > 0 && b[len(b)-1] != '\n' {
			b = append(b, '\n') // the store cuts a torn line on open
		}
		all = append(all, b...)
	}
	if err := WriteFileAtomic(filepath.Join(runDir, UsageJournal), all); err != nil {
		return err
	}
	return MergeChunks(shards, runDir)
}

// MergeChunks writes the shards' call-record chunk stores one after the
// other, leaving out batches whose chunks are all in an earlier shard's
// and that no batch is compressed against (chunks are content-addressed:
// the first copy serves every call).
func MergeChunks(shards []Shard, runDir string) error {
	var stores [][]byte
	for _, s := range shards {
		b, err := os.ReadFile(filepath.Join(s.Dir, runrecord.ChunksFile))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("shard %s: %w", s.Name, err)
		}
		stores = append(stores, b)
	}
	all, err := runrecord.MergeChunkStores(stores)
	if err != nil {
		return fmt.Errorf("merge %s: %w", runrecord.ChunksFile, err)
	}
	if len(all) == 0 {
		return nil
	}
	return WriteFileAtomic(filepath.Join(runDir, runrecord.ChunksFile), all)
}

// MergeCaches imports each shard's response caches into the --out root's
// cache folder, file by file (one file per endpoint identity).
func MergeCaches(shards []Shard, cacheDir string) (int64, error) {
	var total int64
	for _, s := range shards {
		files, _ := filepath.Glob(filepath.Join(s.Dir, ".cache", "*.sqlite"))
		for _, f := range files {
			st, err := cache.Inspect(f)
			if err != nil {
				return total, fmt.Errorf("shard %s: %w", s.Name, err)
			}
			if err := os.MkdirAll(cacheDir, 0o755); err != nil {
				return total, err
			}
			dst, err := cache.Open(filepath.Join(cacheDir, filepath.Base(f)), st.Identity)
			if err != nil {
				return total, err
			}
			n, err := dst.Import(f)
			if cerr := dst.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return total, fmt.Errorf("shard %s: %w", s.Name, err)
			}
			total += n
		}
	}
	return total, nil
}

// CopyTree copies the regular files below src into dst. A file already in
// dst with other content is an error: shards own disjoint users and methods.
func CopyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == src {
			return nil
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if old, err := os.ReadFile(target); err == nil {
			if bytes.Equal(old, b) {
				return nil
			}
			if !strings.HasSuffix(target, runrecord.ManifestFile) {
				return fmt.Errorf("%s differs between shards; the shards overlap", filepath.Join(filepath.Base(dst), rel))
			}
		}
		return WriteFileAtomic(target, b)
	})
}

func firstN(xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	return append(slices.Clone(xs[:n]), fmt.Sprintf("… %d more", len(xs)-n))
}
