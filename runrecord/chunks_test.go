package runrecord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// userPrompts are prompts of one user whose history window slides, as a
// prediction run sends them.
func userPrompts(n int) []string {
	var out []string
	for i := range n {
		var sb strings.Builder
		sb.WriteString("You predict what the user does next.\n")
		for r := i; r < i+60; r++ {
			fmt.Fprintf(&sb, "%d. watched video %d about topic %d for %d seconds\n", r-i+1, r*7919%1000, r%13, r*31%600)
		}
		out = append(out, sb.String())
	}
	return out
}

// writeChain stores the chunks of texts as one chain of batches, as the run
// store does for one user, and returns the file and the chunk IDs of each
// text.
func writeChain(t *testing.T, dir string, texts []string) (string, [][]string) {
	t.Helper()
	enc, err := NewChunkEncoder()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, ChunksFile)
	var file []byte
	var base *Base
	known := map[string]bool{}
	var ids [][]string
	for _, s := range texts {
		var fresh []string
		var these []string
		for _, c := range SplitChunks(s) {
			id := ChunkID(c)
			these = append(these, id)
			if !known[id] {
				known[id] = true
				fresh = append(fresh, c)
			}
		}
		ids = append(ids, these)
		if len(fresh) == 0 {
			continue
		}
		var rec []byte
		if rec, base, err = enc.EncodeAgainst(fresh, base); err != nil {
			t.Fatal(err)
		}
		file = append(file, rec...)
	}
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, ids
}

func readAll(t *testing.T, path string, ids [][]string) []string {
	t.Helper()
	idx, err := IndexChunks(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := NewChunkReader(f, idx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, these := range ids {
		s, err := r.Text(these)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// A chain longer than chainDepth reads back byte for byte, from the front,
// from the back and out of order, and costs far less than its texts.
func TestChunkChainReadsBack(t *testing.T) {
	texts := userPrompts(chainDepth + 10)
	path, ids := writeChain(t, t.TempDir(), texts)
	got := readAll(t, path, ids)
	for i := range texts {
		if got[i] != texts[i] {
			t.Fatalf("text %d does not read back", i)
		}
	}
	// A fresh reader per text: each decompresses its chain cold.
	for _, i := range []int{len(texts) - 1, chainDepth, 1} {
		if s := readAll(t, path, ids[i:i+1])[0]; s != texts[i] {
			t.Fatalf("text %d read cold does not read back", i)
		}
	}
	fi, _ := os.Stat(path)
	total := 0
	for _, s := range texts {
		total += len(s)
	}
	if fi.Size()*10 > int64(total) {
		t.Errorf("chunk store %d bytes for %d bytes of sliding prompts: want under 10%%", fi.Size(), total)
	}
}

// A torn final record is left out of the index and of Complete; a
// damaged record before the end is an error.
func TestChunkStoreTornAndDamaged(t *testing.T) {
	dir := t.TempDir()
	path, ids := writeChain(t, dir, userPrompts(4))
	whole, _ := os.ReadFile(path)
	full, err := IndexChunks(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{1, 5, 11, 40} {
		if err := os.WriteFile(path, whole[:len(whole)-cut], 0o644); err != nil {
			t.Fatal(err)
		}
		idx, err := IndexChunks(path)
		if err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		if idx.Complete >= int64(len(whole)) || idx.Complete == 0 || idx.Len() >= full.Len() {
			t.Errorf("cut %d: Complete %d of %d, %d of %d chunks", cut, idx.Complete, len(whole), idx.Len(), full.Len())
		}
		// What is left reads back.
		readAll(t, path, ids[:1])
	}
	// Damage before the last record is listed, never taken for a torn
	// tail: the records after it stay indexed.
	for _, at := range []int{20, 7, 6, 5} {
		bad := bytes.Clone(whole)
		bad[at] ^= 0x7f
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		idx, err := IndexChunks(path)
		if err != nil {
			t.Fatalf("byte %d: %v", at, err)
		}
		if len(idx.Damage) != 1 || idx.Damage[0].Off != 0 || idx.Torn != 0 || idx.Complete != int64(len(whole)) {
			t.Errorf("byte %d: damage %v, torn %d, complete %d of %d", at, idx.Damage, idx.Torn, idx.Complete, len(whole))
		}
		if idx.Len() == 0 || idx.Len() >= full.Len() {
			t.Errorf("byte %d: %d of %d chunks indexed; want those after the damage", at, idx.Len(), full.Len())
		}
	}
}

// Records of older runs (JSON lines, a self-contained base and a batch
// compressed against it) read back beside new binary records.
func TestChunkStoreReadsJSONLines(t *testing.T) {
	enc, err := NewChunkEncoder()
	if err != nil {
		t.Fatal(err)
	}
	a, b := strings.Repeat("alpha beta gamma ", 40), strings.Repeat("alpha beta gamma ", 39)+"delta"
	plainA := enc.enc.EncodeAll([]byte(a), nil)
	baseLine, _ := json.Marshal(chunkBatch{IDs: []string{ChunkID(a)}, Sizes: []int{len(a)}, BID: "00112233445566778899aabbccddeeff", Zst: plainA})
	zb, err := encodeWithDict([]byte(b), []byte(a))
	if err != nil {
		t.Fatal(err)
	}
	basedLine, _ := json.Marshal(chunkBatch{IDs: []string{ChunkID(b)}, Sizes: []int{len(b)}, Base: "00112233445566778899aabbccddeeff", Zst: zb})
	c := "a new run's text"
	rec, _, err := enc.EncodeAgainst([]string{c}, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), ChunksFile)
	file := append(append(append(baseLine, '\n'), append(basedLine, '\n')...), rec...)
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	got := readAll(t, path, [][]string{{ChunkID(a)}, {ChunkID(b)}, {ChunkID(c)}})
	if got[0] != a || got[1] != b || got[2] != c {
		t.Errorf("mixed store read back %q", got)
	}
}

// Merging keeps a batch whose chunks an earlier store holds when a later
// batch of its store is compressed against it.
func TestMergeChunkStoresKeepsChains(t *testing.T) {
	texts := userPrompts(6)
	pa, ida := writeChain(t, t.TempDir(), texts[:2])
	pb, idb := writeChain(t, t.TempDir(), texts) // repeats texts 0 and 1
	a, _ := os.ReadFile(pa)
	b, _ := os.ReadFile(pb)
	merged, err := MergeChunkStores([][]byte{a, b[:len(b)-3]}) // b's last record torn
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), ChunksFile)
	if err := os.WriteFile(path, merged, 0o644); err != nil {
		t.Fatal(err)
	}
	got := readAll(t, path, append(ida, idb[:5]...))
	for i, s := range append(texts[:2], texts[:5]...) {
		if got[i] != s {
			t.Fatalf("merged text %d does not read back", i)
		}
	}
}

// encodeWithDict compresses raw against dict, as older runs' based
// batches were.
func encodeWithDict(raw, dict []byte) ([]byte, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderDictRaw(1, dict))
	if err != nil {
		return nil, err
	}
	defer enc.Close()
	return enc.EncodeAll(raw, nil), nil
}
