package runrecord

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

// SampleIndexFile lists a run's samples for a viewer: the fields a sample
// list shows, filters and sorts by, and where each sample's line lies in
// SamplesFile, so that a page of a large run decodes only its own lines.
// It is written when a run's samples are compacted and rebuilt by a reader
// when SamplesFile changed since (its size and modification time are in
// the index).
const SampleIndexFile = "samples.idx"

// SampleIndex is a run's samples in columns, in SamplesFile's order (the
// last record of an ID, in first-seen order).
type SampleIndex struct {
	// Size and ModNS are SamplesFile's when the index was made, and Sum
	// the SHA-256 of its bytes: a log rewritten at the same size and
	// modification time (a copy that kept them) is still told apart.
	Size, ModNS int64
	Sum         [32]byte
	// Strs interns the columns' repeated strings.
	Strs                                   []string
	ID                                     []string
	Off, Len                               []int64
	Method, User, Field, Kind, Label, Pred []int32
	// Flags: 1 valid, 2 errored.
	Flags                                           []uint8
	Calls, CachedCalls, PromptTokens, CompletionTok []int32
	LatencyMS                                       []float64
}

// sampleIndexVersion 2 adds Sum and a CRC-32C of the encoded index after
// it (a changed byte in the index makes it rebuilt, never trusted).
const sampleIndexVersion = 2

// Count is the number of samples.
func (x *SampleIndex) Count() int { return len(x.ID) }

// Lite is sample i with the indexed fields filled in (Error is "error" for
// an errored sample; Raw and the rest are left empty): enough to list,
// filter and sort it.
func (x *SampleIndex) Lite(i int) Sample {
	s := Sample{ID: x.ID[i], Method: x.Strs[x.Method[i]], User: x.Strs[x.User[i]], Field: x.Strs[x.Field[i]],
		Kind: x.Strs[x.Kind[i]], Label: x.Strs[x.Label[i]], Pred: x.Strs[x.Pred[i]], Valid: x.Flags[i]&1 != 0,
		Calls: int(x.Calls[i]), CachedCalls: int(x.CachedCalls[i]), PromptTokens: int(x.PromptTokens[i]),
		CompletionTokens: int(x.CompletionTok[i]), LatencyMS: x.LatencyMS[i]}
	if x.Flags[i]&2 != 0 {
		s.Error = "error"
	}
	return s
}

// Span is where sample i's line lies in SamplesFile.
func (x *SampleIndex) Span(i int) Span { return Span{Off: x.Off[i], Len: x.Len[i]} }

// NewSampleIndex indexes recs, whose lines lie at spans.
func NewSampleIndex(recs []Sample, spans []Span) *SampleIndex {
	x := &SampleIndex{}
	intern := map[string]int32{}
	str := func(s string) int32 {
		if i, ok := intern[s]; ok {
			return i
		}
		intern[s] = int32(len(x.Strs))
		x.Strs = append(x.Strs, s)
		return intern[s]
	}
	for i := range recs {
		s := &recs[i]
		var fl uint8
		if s.Valid {
			fl |= 1
		}
		if s.Error != "" {
			fl |= 2
		}
		x.ID = append(x.ID, s.ID)
		x.Off, x.Len = append(x.Off, spans[i].Off), append(x.Len, spans[i].Len)
		x.Method, x.User, x.Field = append(x.Method, str(s.Method)), append(x.User, str(s.User)), append(x.Field, str(s.Field))
		x.Kind, x.Label, x.Pred = append(x.Kind, str(s.Kind)), append(x.Label, str(s.Label)), append(x.Pred, str(s.Pred))
		x.Flags = append(x.Flags, fl)
		x.Calls, x.CachedCalls = append(x.Calls, int32(s.Calls)), append(x.CachedCalls, int32(s.CachedCalls))
		x.PromptTokens, x.CompletionTok = append(x.PromptTokens, int32(s.PromptTokens)), append(x.CompletionTok, int32(s.CompletionTokens))
		x.LatencyMS = append(x.LatencyMS, s.LatencyMS)
	}
	return x
}

// WriteSampleIndex writes x as dir's SampleIndexFile, atomically. An x
// without a stamp (NewSampleIndex's) is stamped with SamplesFile's size and
// modification time now; BuildSampleIndex's keeps the stamp of what it read.
func WriteSampleIndex(dir string, x *SampleIndex) error {
	if x.ModNS == 0 {
		// Stamped now: the caller just wrote SamplesFile and holds it.
		fi, err := os.Stat(filepath.Join(dir, SamplesFile))
		if err != nil {
			return fmt.Errorf("sample index: %w", err)
		}
		x.Size, x.ModNS = fi.Size(), fi.ModTime().UnixNano()
		if x.Sum, err = SamplesSum(dir); err != nil {
			return fmt.Errorf("sample index: %w", err)
		}
	}
	var buf bytes.Buffer
	buf.WriteByte(sampleIndexVersion)
	if err := gob.NewEncoder(&buf).Encode(x); err != nil {
		return fmt.Errorf("sample index: %w", err)
	}
	buf.Write(binary.LittleEndian.AppendUint32(nil, crc32.Checksum(buf.Bytes()[1:], castagnoli)))
	tmp, err := os.CreateTemp(dir, "."+SampleIndexFile+".tmp*")
	if err != nil {
		return fmt.Errorf("sample index: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err = tmp.Write(buf.Bytes()); err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, SampleIndexFile))
	}
	if err != nil {
		return fmt.Errorf("sample index: %w", err)
	}
	return nil
}

// ErrStaleIndex is LoadSampleIndex's answer for an index that is absent,
// unreadable or older than SamplesFile.
var ErrStaleIndex = errors.New("sample index absent or stale")

// LoadSampleIndex reads dir's SampleIndexFile, or returns ErrStaleIndex
// when SamplesFile's size or modification time differ from its stamp.
func LoadSampleIndex(dir string) (*SampleIndex, error) {
	fi, err := os.Stat(filepath.Join(dir, SamplesFile))
	if err != nil {
		return nil, ErrStaleIndex
	}
	b, err := os.ReadFile(filepath.Join(dir, SampleIndexFile))
	if err != nil || len(b) < 5 || b[0] != sampleIndexVersion {
		return nil, ErrStaleIndex
	}
	body := b[1 : len(b)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, ErrStaleIndex
	}
	var x SampleIndex
	if err := gob.NewDecoder(bytes.NewReader(body)).Decode(&x); err != nil {
		return nil, ErrStaleIndex
	}
	if x.Size != fi.Size() || x.ModNS != fi.ModTime().UnixNano() || !x.consistent() {
		return nil, ErrStaleIndex
	}
	// Reading the log's bytes costs far less than decoding its lines,
	// which is what the index saves.
	if sum, err := SamplesSum(dir); err != nil || sum != x.Sum {
		return nil, ErrStaleIndex
	}
	return &x, nil
}

// SamplesSum is the SHA-256 of dir's SamplesFile, the sum the sample index
// records: what tells a log rewritten at the same size and modification
// time from the one it replaced (a run's up-to-date check uses it too).
func SamplesSum(dir string) ([32]byte, error) {
	var sum [32]byte
	f, err := os.Open(filepath.Join(dir, SamplesFile))
	if err != nil {
		return sum, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// consistent reports whether every column has a row per sample and every
// string reference is in range (a damaged index is rebuilt, not trusted).
func (x *SampleIndex) consistent() bool {
	n := len(x.ID)
	for _, l := range []int{len(x.Off), len(x.Len), len(x.Method), len(x.User), len(x.Field), len(x.Kind), len(x.Label),
		len(x.Pred), len(x.Flags), len(x.Calls), len(x.CachedCalls), len(x.PromptTokens), len(x.CompletionTok), len(x.LatencyMS)} {
		if l != n {
			return false
		}
	}
	for _, col := range [][]int32{x.Method, x.User, x.Field, x.Kind, x.Label, x.Pred} {
		for _, v := range col {
			if v < 0 || int(v) >= len(x.Strs) {
				return false
			}
		}
	}
	return true
}

// BuildSampleIndex indexes dir's SamplesFile by reading it (on every core),
// stamped with the size and modification time it was read at. The last
// record of an ID wins, in first-seen order; a torn final line is left
// out, as readers of the log do.
func BuildSampleIndex(dir string) (*SampleIndex, error) {
	path := filepath.Join(dir, SamplesFile)
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return &SampleIndex{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sample index: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("sample index: %w", err)
	}
	var data []byte
	if data, err = readAllSized(f, fi.Size()); err != nil {
		return nil, fmt.Errorf("sample index: %w", err)
	}
	var spans []Span
	torn := false
	for off := 0; off < len(data); {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			// A final line without its newline: kept if it decodes.
			spans, torn = append(spans, Span{Off: int64(off), Len: int64(len(data) - off)}), true
			break
		}
		spans = append(spans, Span{Off: int64(off), Len: int64(i + 1)})
		off += i + 1
	}
	recs := make([]Sample, len(spans))
	errs := make([]error, len(spans))
	workers := max(1, runtime.GOMAXPROCS(0))
	per := (len(spans) + workers - 1) / workers
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*per, min((w+1)*per, len(spans))
		if lo >= hi {
			break
		}
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				line := data[spans[i].Off : spans[i].Off+spans[i].Len]
				if len(bytes.TrimSpace(line)) == 0 {
					continue
				}
				errs[i] = json.Unmarshal(line, &recs[i])
			}
		})
	}
	wg.Wait()
	at := map[string]int{}
	var outRecs []Sample
	var outSpans []Span
	for i := range recs {
		if errs[i] != nil {
			if torn && i == len(recs)-1 {
				break // a process killed mid-write
			}
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, errs[i])
		}
		if recs[i].ID == "" {
			continue
		}
		if j, dup := at[recs[i].ID]; dup {
			outRecs[j], outSpans[j] = recs[i], spans[i]
			continue
		}
		at[recs[i].ID] = len(outRecs)
		outRecs, outSpans = append(outRecs, recs[i]), append(outSpans, spans[i])
	}
	x := NewSampleIndex(outRecs, outSpans)
	x.Size, x.ModNS, x.Sum = fi.Size(), fi.ModTime().UnixNano(), sha256.Sum256(data)
	return x, nil
}

func readAllSized(f *os.File, size int64) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(int(size) + 1)
	if _, err := b.ReadFrom(bufio.NewReaderSize(f, 1<<20)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ReadSampleAt decodes the sample whose line lies at sp of SamplesFile f.
func ReadSampleAt(f *os.File, sp Span) (Sample, error) {
	var s Sample
	b := make([]byte, sp.Len)
	if _, err := f.ReadAt(b, sp.Off); err != nil {
		return s, fmt.Errorf("read sample at %d: %w", sp.Off, err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("read sample at %d: %w", sp.Off, err)
	}
	return s, nil
}
