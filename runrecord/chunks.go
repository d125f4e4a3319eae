package runrecord

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/memharness/memharness/llm"
)

// ChunksFile is the call record's chunk store. Every text of a recorded
// model call (each message, each reply) is cut into content-defined chunks
// (SplitChunks); a chunk is stored once, however many calls hold it, and the
// calls (in the usage journal) list chunk IDs. One record per batch of
// chunks first written together, compressed as one zstd frame (see
// chunkrec.go for the binary layout; runs recorded before it hold JSON
// lines, which are still read, hence the file's name).
//
// A user's prompts differ in small ways everywhere (a history window that
// slid renumbers every record), which chunks alone cannot share, so each
// batch is compressed against the window of the same user's previous batch
// (its "prev", see windowSize): the new prompt costs little more than what
// changed.
const ChunksFile = "chunks.jsonl"

// Chunk sizes: a cut is made where the rolling hash of the last 64 bytes
// has its top bits zero (the top bits mix all 64 bytes), so cuts depend on local content only and two
// texts sharing a run of bytes (a prompt prefix, a history window that
// slid) share the chunks inside it wherever the run starts.
const (
	minChunk  = 512
	maxChunk  = 8 << 10
	chunkBits = 11 // about 1 KiB past minChunk between cuts on average
)

// gear is the rolling hash's byte table, from a fixed SplitMix64 stream so
// that chunk boundaries never change between builds.
var gear = func() (t [256]uint64) {
	x := uint64(0x6a09e667f3bcc908)
	for i := range t {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		t[i] = z ^ (z >> 31)
	}
	return t
}()

// SplitChunks cuts s into content-defined chunks; joining them gives s.
func SplitChunks(s string) []string {
	var out []string
	for len(s) > 0 {
		n := cut(s)
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// cut returns the length of the first chunk of s.
func cut(s string) int {
	if len(s) <= minChunk {
		return len(s)
	}
	var h uint64
	end := min(len(s), maxChunk)
	for i := 0; i < end; i++ {
		h = h<<1 + gear[s[i]]
		if i+1 >= minChunk && h>>(64-chunkBits) == 0 {
			return i + 1
		}
	}
	return end
}

// A text of more than maxInlineRefs chunks is referenced through a list
// chunk (its chunk IDs, one a line), named with listPrefix.
const (
	maxInlineRefs = 4
	listPrefix    = ChunkListPrefix
)

// ChunkListPrefix marks a reference to a list chunk (see maxInlineRefs).
const ChunkListPrefix = "@"

// ChunkID names a chunk: the first 128 bits of its SHA-256, in hex.
func ChunkID(c string) string {
	sum := sha256.Sum256([]byte(c))
	return hex.EncodeToString(sum[:16])
}

// chunkBatch is one line of ChunksFile.
type chunkBatch struct {
	IDs   []string `json:"ids"`
	Sizes []int    `json:"sizes"`
	// BID names the batch. Base (older runs) is the BID of a
	// self-contained batch whose bytes are this one's zstd dictionary;
	// Prev (newer runs) is the BID of the same user's previous batch,
	// whose window (see window) is this one's dictionary.
	BID  string `json:"bid,omitempty"`
	Base string `json:"base,omitempty"`
	Prev string `json:"prev,omitempty"`
	Zst  []byte `json:"zst"`
}

// A user's batches form a chain: each is compressed against the window of
// the one before, the last windowSize bytes of everything the chain held so
// far, so a prompt costs little more than what it adds to the user's
// earlier ones (a slid history window, a grown memory block). Every
// chainDepth batches a self-contained one starts a new chain, which bounds
// what reading a chunk decompresses.
const (
	windowSize = 256 << 10
	chainDepth = 64
)

// ChunkEncoder writes ChunksFile lines. It is safe for concurrent use.
type ChunkEncoder struct {
	enc  *zstd.Encoder
	opts []zstd.EOption
}

// Base is the end of a user's chain: the batch the user's next batch is
// compressed against.
type Base struct {
	bid    string
	window []byte
	depth  int
}

// NewChunkEncoder returns an encoder; one per writer, since zstd's tables
// are costly to build.
func NewChunkEncoder() (*ChunkEncoder, error) {
	opts := []zstd.EOption{zstd.WithEncoderLevel(zstd.SpeedBetterCompression), zstd.WithEncoderConcurrency(1)}
	enc, err := zstd.NewWriter(nil, opts...)
	if err != nil {
		return nil, fmt.Errorf("chunk encoder: %w", err)
	}
	return &ChunkEncoder{enc: enc, opts: opts}, nil
}

// EncodeAgainst is Encode continuing the chain that ends at base (nil: a
// new chain). It returns the line and the base the same user's next batch
// should use.
func (e *ChunkEncoder) EncodeAgainst(chunks []string, base *Base) ([]byte, *Base, error) {
	b := chunkBatch{IDs: make([]string, len(chunks)), Sizes: make([]int, len(chunks))}
	var raw []byte
	for i, c := range chunks {
		b.IDs[i], b.Sizes[i] = ChunkID(c), len(c)
		raw = append(raw, c...)
	}
	if base != nil && base.depth >= chainDepth {
		base = nil
	}
	h := sha256.New()
	if base == nil {
		b.Zst = e.enc.EncodeAll(raw, nil)
	} else {
		// A small window and lower memory make the per-batch encoder
		// cheap to build (its default tables cost more than the
		// compression); the window still covers dictionary and batch.
		enc, err := zstd.NewWriter(nil, append(e.opts, zstd.WithWindowSize(1<<20), zstd.WithLowerEncoderMem(true),
			zstd.WithEncoderDictRaw(1, base.window))...)
		if err != nil {
			return nil, nil, fmt.Errorf("chunk encoder: %w", err)
		}
		b.Zst = enc.EncodeAll(raw, nil)
		enc.Close()
		b.Prev = base.bid
		h.Write([]byte(base.bid))
	}
	// The BID covers the chain before the batch too: two batches of the
	// same bytes on different chains have different windows.
	h.Write(raw)
	b.BID = hex.EncodeToString(h.Sum(nil)[:16])
	next := &Base{bid: b.BID, window: slideWindow(base, raw), depth: 1}
	if base != nil {
		next.depth = base.depth + 1
	}
	rec, err := encodeRecord(b)
	if err != nil {
		return nil, nil, err
	}
	return rec, next, nil
}

// slideWindow is the window after raw joins the chain ending at base.
func slideWindow(base *Base, raw []byte) []byte {
	var prev []byte
	if base != nil {
		prev = base.window
	}
	if len(raw) >= windowSize {
		return append([]byte(nil), raw[len(raw)-windowSize:]...)
	}
	keep := min(len(prev), windowSize-len(raw))
	w := make([]byte, 0, keep+len(raw))
	return append(append(w, prev[len(prev)-keep:]...), raw...)
}

// Encode returns the ChunksFile line (newline included) holding chunks.
func (e *ChunkEncoder) Encode(chunks []string) ([]byte, error) {
	b := chunkBatch{IDs: make([]string, len(chunks)), Sizes: make([]int, len(chunks))}
	var raw []byte
	for i, c := range chunks {
		b.IDs[i], b.Sizes[i] = ChunkID(c), len(c)
		raw = append(raw, c...)
	}
	b.Zst = e.enc.EncodeAll(raw, nil)
	sum := sha256.Sum256(raw)
	b.BID = hex.EncodeToString(sum[:16])
	return encodeRecord(b)
}

// chunkLoc is where one chunk lies: its batch line and its place in it.
type chunkLoc struct {
	span     Span
	off, len int
}

// ChunkIndex locates every chunk of a ChunksFile.
type ChunkIndex struct {
	locs  map[string]chunkLoc
	bases map[string]Span // batch BID → its line
	// Complete is the length of the file up to its last whole record (a
	// torn tail after it is left by a killed writer).
	Complete int64
	// Torn is the size of that torn tail.
	Torn int64
	// Damage lists stretches before the last whole record that hold no
	// readable record (a changed byte, not an interrupted write): their
	// chunks are missing from the index, the records around them are in.
	Damage []Damage
}

// Has reports whether chunk id is stored.
func (x *ChunkIndex) Has(id string) bool { _, ok := x.locs[id]; return ok }

// Len is the number of distinct chunks.
func (x *ChunkIndex) Len() int { return len(x.locs) }

// IndexChunks scans a ChunksFile. A missing file gives an empty index; a
// torn final record is left out of it (and of Complete, see Torn); a
// damaged record elsewhere is left out and listed in Damage. The first
// copy of a chunk wins (merged shards may hold several).
func IndexChunks(path string) (*ChunkIndex, error) {
	x := &ChunkIndex{locs: map[string]chunkLoc{}, bases: map[string]Span{}}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return x, nil
	}
	if err != nil {
		return nil, fmt.Errorf("index chunks: %w", err)
	}
	defer f.Close()
	return IndexChunksOf(f)
}

// IndexChunksOf is IndexChunks of an open ChunksFile (e.g. one opened
// through an os.Root); nil, for a missing file, gives an empty index.
func IndexChunksOf(f *os.File) (*ChunkIndex, error) {
	x := &ChunkIndex{locs: map[string]chunkLoc{}, bases: map[string]Span{}}
	if f == nil {
		return x, nil
	}
	path := f.Name()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("index chunks: %w", err)
	}
	sc, err := scanRecords(f, fi.Size(), func(off int64, rec []byte, hd chunkBatch) error {
		sp := Span{Off: off, Len: int64(len(rec))}
		if _, dup := x.bases[hd.BID]; hd.BID != "" && !dup {
			x.bases[hd.BID] = sp
		}
		pos := 0
		for i, id := range hd.IDs {
			if _, dup := x.locs[id]; !dup {
				x.locs[id] = chunkLoc{span: sp, off: pos, len: hd.Sizes[i]}
			}
			pos += hd.Sizes[i]
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	x.Complete, x.Torn, x.Damage = sc.Complete, sc.Torn, sc.Damage
	return x, nil
}

// ChunkReader gives chunks back from an indexed ChunksFile. It keeps the
// last batch it decompressed, since one call's chunks mostly sit together,
// and the recent windows of users' chains, since a batch's window is its
// predecessor's. It is safe for concurrent use.
type ChunkReader struct {
	f   io.ReaderAt
	idx *ChunkIndex
	dec *zstd.Decoder

	mu      sync.Mutex
	lastOff int64
	last    []byte
	windows sizedCache[string]
	// batches keeps recently decompressed batches: one call's chunks
	// come from its user's earlier batches (a shared prefix) and its own,
	// so reading calls in turn goes back and forth between a few.
	batches sizedCache[int64]
}

// sizedCache holds byte slices by key, the oldest dropped once they pass
// max bytes (the newest is always kept).
type sizedCache[K comparable] struct {
	max   int
	byKey map[K][]byte
	order []K
	bytes int
}

func (c *sizedCache[K]) get(k K) ([]byte, bool) { b, ok := c.byKey[k]; return b, ok }

func (c *sizedCache[K]) put(k K, b []byte) {
	if c.byKey == nil {
		c.byKey = map[K][]byte{}
	}
	if _, ok := c.byKey[k]; ok {
		return
	}
	c.byKey[k], c.order, c.bytes = b, append(c.order, k), c.bytes+len(b)
	for c.bytes > c.max && len(c.order) > 1 {
		c.bytes -= len(c.byKey[c.order[0]])
		delete(c.byKey, c.order[0])
		c.order = c.order[1:]
	}
}

// Caps of a reader's caches: chain windows by BID, decompressed batches by
// offset.
const (
	maxCachedWindows = 64 << 20
	maxCachedBatches = 32 << 20
)

// NewChunkReader reads chunks of f located by idx.
func NewChunkReader(f io.ReaderAt, idx *ChunkIndex) (*ChunkReader, error) {
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		return nil, fmt.Errorf("chunk reader: %w", err)
	}
	return &ChunkReader{f: f, idx: idx, dec: dec, lastOff: -1,
		windows: sizedCache[string]{max: maxCachedWindows}, batches: sizedCache[int64]{max: maxCachedBatches}}, nil
}

// Text joins the chunks ids.
func (r *ChunkReader) Text(ids []string) (string, error) {
	var sb strings.Builder
	for _, id := range ids {
		list, isList := strings.CutPrefix(id, listPrefix)
		if isList {
			id = list
		}
		c, err := r.chunk(id)
		if err != nil {
			return "", err
		}
		if isList {
			// Lists never nest: their entries are plain chunk IDs.
			if c, err = r.Text(strings.Split(c, "\n")); err != nil {
				return "", err
			}
		}
		sb.WriteString(c)
	}
	return sb.String(), nil
}

func (r *ChunkReader) chunk(id string) (string, error) {
	loc, ok := r.idx.locs[id]
	if !ok {
		return "", fmt.Errorf("chunk %s is not in the chunk store", id)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lastOff != loc.span.Off {
		raw, ok := r.batches.get(loc.span.Off)
		if !ok {
			var err error
			if _, raw, err = r.batch(loc.span, 0); err != nil {
				return "", fmt.Errorf("chunk %s: %w", id, err)
			}
			r.batches.put(loc.span.Off, raw)
		}
		r.lastOff, r.last = loc.span.Off, raw
	}
	if loc.off+loc.len > len(r.last) {
		return "", fmt.Errorf("chunk %s at %d: batch shorter than its sizes say", id, loc.span.Off)
	}
	c := r.last[loc.off : loc.off+loc.len]
	if ChunkID(string(c)) != id {
		return "", fmt.Errorf("chunk %s at %d: content does not match its ID", id, loc.span.Off)
	}
	return string(c), nil
}

// batch decompresses the batch at sp (and what its dictionary needs
// first); depth counts the batches behind it, against a cyclic file.
func (r *ChunkReader) batch(sp Span, depth int) (chunkBatch, []byte, error) {
	b, raw, _, err := r.batchDict(sp, depth)
	return b, raw, err
}

// batchDict is batch also returning the dictionary the batch used.
func (r *ChunkReader) batchDict(sp Span, depth int) (chunkBatch, []byte, []byte, error) {
	var b chunkBatch
	if depth > 4*chainDepth {
		return b, nil, nil, fmt.Errorf("batch at %d: chain too long (a cycle?)", sp.Off)
	}
	line := make([]byte, sp.Len)
	if _, err := r.f.ReadAt(line, sp.Off); err != nil {
		return b, nil, nil, fmt.Errorf("batch at %d: %w", sp.Off, err)
	}
	b, err := decodeRecord(line)
	if err != nil {
		return b, nil, nil, fmt.Errorf("batch at %d: %w", sp.Off, err)
	}
	var dict []byte
	switch {
	case b.Prev != "":
		w, err := r.window(b.Prev, sp, depth)
		if err != nil {
			return b, nil, nil, err
		}
		dict = w
	case b.Base != "":
		bsp, err := r.baseSpan(b.Base, sp)
		if err != nil {
			return b, nil, nil, err
		}
		if _, dict, err = r.batch(bsp, depth+1); err != nil {
			return b, nil, nil, err
		}
	default:
		raw, err := r.dec.DecodeAll(b.Zst, nil)
		if err != nil {
			return b, nil, nil, fmt.Errorf("batch at %d: %w", sp.Off, err)
		}
		return b, raw, nil, nil
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderDictRaw(1, dict))
	if err != nil {
		return b, nil, nil, fmt.Errorf("batch at %d: %w", sp.Off, err)
	}
	defer dec.Close()
	raw, err := dec.DecodeAll(b.Zst, nil)
	if err != nil {
		return b, nil, nil, fmt.Errorf("batch at %d: %w", sp.Off, err)
	}
	return b, raw, dict, nil
}

func (r *ChunkReader) baseSpan(bid string, of Span) (Span, error) {
	bsp, ok := r.idx.bases[bid]
	if !ok {
		return Span{}, fmt.Errorf("batch at %d: base batch %s is not in the chunk store", of.Off, bid)
	}
	if bsp == of {
		return Span{}, fmt.Errorf("batch at %d is its own base", of.Off)
	}
	return bsp, nil
}

// window is the chain window after batch bid: what the batch after it is
// compressed against.
func (r *ChunkReader) window(bid string, of Span, depth int) ([]byte, error) {
	if w, ok := r.windows.get(bid); ok {
		return w, nil
	}
	bsp, err := r.baseSpan(bid, of)
	if err != nil {
		return nil, err
	}
	var b chunkBatch
	var raw, dict []byte
	if bsp.Off == r.lastOff {
		// Reading a run in order, the batch before is the one just read:
		// its bytes are at hand, and its own window is cached.
		line := make([]byte, bsp.Len)
		if _, err := r.f.ReadAt(line, bsp.Off); err != nil {
			return nil, fmt.Errorf("batch at %d: %w", bsp.Off, err)
		}
		if b, err = decodeRecord(line); err != nil {
			return nil, fmt.Errorf("batch at %d: %w", bsp.Off, err)
		}
		raw = r.last
		if b.Prev != "" {
			if dict, err = r.window(b.Prev, bsp, depth+1); err != nil {
				return nil, err
			}
		}
	} else if b, raw, dict, err = r.batchDict(bsp, depth+1); err != nil {
		return nil, err
	}
	var prev *Base
	if b.Prev != "" {
		prev = &Base{window: dict}
	}
	w := slideWindow(prev, raw)
	r.windows.put(bid, w)
	return w, nil
}

// ChunkExchange turns ex into its stored form, adding every chunk it holds
// to chunks (ID → text) and their IDs, first seen first, to order.
func ChunkExchange(ex *llm.Exchange, chunks map[string]string, order *[]string) *llm.CallContent {
	add := func(id, text string) {
		if _, ok := chunks[id]; !ok {
			chunks[id] = text
			*order = append(*order, id)
		}
	}
	refs := func(s string) []string {
		parts := SplitChunks(s)
		ids := make([]string, len(parts))
		for i, p := range parts {
			ids[i] = ChunkID(p)
			add(ids[i], p)
		}
		if len(ids) <= maxInlineRefs {
			return ids
		}
		// A long list is itself a chunk: an agent's growing transcript
		// re-sends nearly the same list each step, which the chunk
		// store compresses against the previous one, while the journal
		// carries one reference.
		list := strings.Join(ids, "\n")
		id := ChunkID(list)
		add(id, list)
		return []string{listPrefix + id}
	}
	c := &llm.CallContent{
		Messages: make([]llm.ChunkedMessage, len(ex.Messages)),
		Params:   ex.Params, SampleID: ex.SampleID, Attempt: ex.Attempt, Repeat: ex.Repeat, Affinity: ex.Affinity,
		Model: ex.Model, Endpoint: ex.Endpoint, Error: ex.Error,
	}
	for i, m := range ex.Messages {
		c.Messages[i] = llm.ChunkedMessage{Role: m.Role, Content: refs(m.Content)}
	}
	c.Text, c.Reasoning = refs(ex.Text), refs(ex.Reasoning)
	return c
}

// Exchange gives back the exchange c was made from, byte for byte.
func (r *ChunkReader) Exchange(c *llm.CallContent) (llm.Exchange, error) {
	ex := llm.Exchange{
		Messages: make([]llm.Message, len(c.Messages)),
		Params:   c.Params, SampleID: c.SampleID, Attempt: c.Attempt, Repeat: c.Repeat, Affinity: c.Affinity,
		Model: c.Model, Endpoint: c.Endpoint, Error: c.Error,
	}
	var err error
	for i, m := range c.Messages {
		ex.Messages[i].Role = m.Role
		if ex.Messages[i].Content, err = r.Text(m.Content); err != nil {
			return ex, err
		}
	}
	if ex.Text, err = r.Text(c.Text); err != nil {
		return ex, err
	}
	if ex.Reasoning, err = r.Text(c.Reasoning); err != nil {
		return ex, err
	}
	return ex, nil
}

// IDs returns the set of stored chunk IDs.
func (x *ChunkIndex) IDs() map[string]bool {
	m := make(map[string]bool, len(x.locs))
	for id := range x.locs {
		m[id] = true
	}
	return m
}
