package runrecord

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// A batch is stored as a binary record: JSON would spend a third more on
// the compressed bytes (base64) and twice the bytes on every chunk ID
// (hex). Records written before are JSON lines; a file may hold both, and
// the first byte tells them apart ('{' or recordMagic's 0).
//
//	magic [4] · body length uint32 · body · CRC-32C of body uint32
//	body: chunk count uvarint · (ID [16] · size uvarint)… · flags byte
//	      (1: has Prev) · [Prev [16]] · BID [16] · zstd bytes
var recordMagic = [4]byte{0, 'M', 'C', '2'}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// encodeRecord returns b as a binary record.
func encodeRecord(b chunkBatch) ([]byte, error) {
	body := binary.AppendUvarint(nil, uint64(len(b.IDs)))
	for i, id := range b.IDs {
		raw, err := hex.DecodeString(id)
		if err != nil || len(raw) != 16 {
			return nil, fmt.Errorf("encode chunks: chunk ID %q is not 128-bit hex", id)
		}
		body = binary.AppendUvarint(append(body, raw...), uint64(b.Sizes[i]))
	}
	var flags byte
	if b.Prev != "" {
		flags = 1
	}
	body = append(body, flags)
	for _, id := range []string{b.Prev, b.BID} {
		if id == "" {
			continue
		}
		raw, err := hex.DecodeString(id)
		if err != nil || len(raw) != 16 {
			return nil, fmt.Errorf("encode chunks: batch ID %q is not 128-bit hex", id)
		}
		body = append(body, raw...)
	}
	body = append(body, b.Zst...)
	rec := append(recordMagic[:], binary.LittleEndian.AppendUint32(nil, uint32(len(body)))...)
	rec = append(rec, body...)
	return binary.LittleEndian.AppendUint32(rec, crc32.Checksum(body, castagnoli)), nil
}

// decodeRecord parses one stored batch, binary or JSON.
func decodeRecord(rec []byte) (chunkBatch, error) {
	var b chunkBatch
	if len(rec) > 0 && rec[0] == '{' {
		err := json.Unmarshal(rec, &b)
		if err == nil && len(b.IDs) != len(b.Sizes) {
			err = errors.New("ids and sizes differ in length")
		}
		return b, err
	}
	if len(rec) < 12 || !bytes.Equal(rec[:4], recordMagic[:]) {
		return b, errors.New("not a chunk record")
	}
	n := binary.LittleEndian.Uint32(rec[4:])
	if uint64(len(rec)) != 12+uint64(n) {
		return b, errors.New("record length does not match its header")
	}
	body := rec[8 : 8+n]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(rec[8+n:]) {
		return b, errors.New("record checksum does not match")
	}
	count, k := binary.Uvarint(body)
	if k <= 0 || count > uint64(len(body)) {
		return b, errors.New("bad chunk count")
	}
	body = body[k:]
	b.IDs, b.Sizes = make([]string, count), make([]int, count)
	for i := range b.IDs {
		if len(body) < 17 {
			return b, errors.New("record ends inside its chunk list")
		}
		b.IDs[i] = hex.EncodeToString(body[:16])
		size, k := binary.Uvarint(body[16:])
		if k <= 0 {
			return b, errors.New("bad chunk size")
		}
		b.Sizes[i], body = int(size), body[16+k:]
	}
	if len(body) < 17 {
		return b, errors.New("record ends before its batch ID")
	}
	flags := body[0]
	body = body[1:]
	if flags&1 != 0 {
		if len(body) < 32 {
			return b, errors.New("record ends before its batch ID")
		}
		b.Prev, body = hex.EncodeToString(body[:16]), body[16:]
	}
	b.BID, b.Zst = hex.EncodeToString(body[:16]), body[16:]
	return b, nil
}

// Damage is a stretch of a chunk store that holds no readable record
// while whole records follow it: a changed byte, not an interrupted write.
type Damage struct {
	Off, Len int64
	Batch    int // the record's place in the file, from 1
	Reason   string
}

func (d Damage) String() string {
	return fmt.Sprintf("batch %d at byte %d (%d bytes): %s", d.Batch, d.Off, d.Len, d.Reason)
}

// storeScan is what scanRecords found besides the records.
type storeScan struct {
	// Complete is the length up to the end of the last whole record.
	Complete int64
	// Torn is the size of an unfinished final record (bytes after
	// Complete) a killed writer left.
	Torn   int64
	Damage []Damage
}

// scanRecords calls fn with every whole record of a chunk store of size
// bytes, in order. A record that does not read (a bad header, a length
// running past the end, a checksum that does not match) is a torn tail
// only when no whole record follows it and its bytes can be the start of
// one; otherwise it is damage, skipped to the next whole record and
// listed, so that one changed byte never costs the records after it.
func scanRecords(r io.ReaderAt, size int64, fn func(off int64, rec []byte, b chunkBatch) error) (storeScan, error) {
	var sc storeScan
	br := bufio.NewReaderSize(io.NewSectionReader(r, 0, size), 1<<16)
	off := int64(0)
	for n := 1; off < size; n++ {
		rec, why, err := readRecord(br, size-off)
		if err != nil {
			return sc, err
		}
		if why == "" {
			if b, derr := decodeRecord(rec); derr != nil && rec[0] == '{' {
				// A JSON line's extent is its newline, whatever its bytes.
				sc.Damage = append(sc.Damage, Damage{Off: off, Len: int64(len(rec)), Batch: n, Reason: "damaged chunk record: " + derr.Error()})
				off += int64(len(rec))
				continue
			} else if derr != nil {
				why = "damaged chunk record: " + derr.Error()
			} else {
				if err := fn(off, rec, b); err != nil {
					return sc, err
				}
				off += int64(len(rec))
				sc.Complete = off
				continue
			}
		}
		next, found, err := nextWholeRecord(r, off+1, size)
		if err != nil {
			return sc, err
		}
		if !found {
			if why == whyTorn {
				sc.Torn = size - off
				return sc, nil
			}
			next = size
		}
		sc.Damage = append(sc.Damage, Damage{Off: off, Len: next - off, Batch: n, Reason: why})
		off = next
		br.Reset(io.NewSectionReader(r, off, size-off))
	}
	return sc, nil
}

// whyTorn is readRecord's reason for bytes that can be the start of a
// record whose end never reached the disk.
const whyTorn = "unfinished record"

// readRecord reads the next stored record of br, left bytes before the
// end of the store. A record that does not read comes back with the
// reason (whyTorn where its bytes can be an unfinished one).
func readRecord(br *bufio.Reader, left int64) (rec []byte, why string, err error) {
	first, err := br.Peek(1)
	if err != nil {
		return nil, "", fmt.Errorf("read chunk store: %w", err)
	}
	if first[0] == '{' {
		b, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return nil, whyTorn, nil
		}
		return b, "", err
	}
	if left < 8 {
		head, _ := br.Peek(int(left))
		if bytes.HasPrefix(recordMagic[:], head[:min(len(head), 4)]) {
			return nil, whyTorn, nil
		}
		return nil, "not a chunk record", nil
	}
	head, err := br.Peek(8)
	if err != nil {
		return nil, "", fmt.Errorf("read chunk store: %w", err)
	}
	if !bytes.Equal(head[:4], recordMagic[:]) {
		return nil, "not a chunk record", nil
	}
	n := int64(binary.LittleEndian.Uint32(head[4:]))
	if 12+n > left {
		return nil, whyTorn, nil
	}
	rec = make([]byte, 12+n)
	if _, err := io.ReadFull(br, rec); err != nil {
		return nil, "", fmt.Errorf("read chunk store: %w", err)
	}
	if crc32.Checksum(rec[8:8+n], castagnoli) != binary.LittleEndian.Uint32(rec[8+n:]) {
		if 12+n == left {
			return nil, whyTorn, nil // a final record whose end never reached the disk
		}
		return nil, "record checksum does not match", nil
	}
	return rec, "", nil
}

// nextWholeRecord finds the first binary record starting at or after from
// whose checksum holds.
func nextWholeRecord(r io.ReaderAt, from, size int64) (int64, bool, error) {
	if from >= size {
		return 0, false, nil
	}
	rest := make([]byte, size-from)
	if _, err := r.ReadAt(rest, from); err != nil && !errors.Is(err, io.EOF) {
		return 0, false, fmt.Errorf("read chunk store: %w", err)
	}
	for i := 0; ; {
		k := bytes.Index(rest[i:], recordMagic[:])
		if k < 0 {
			return 0, false, nil
		}
		i += k
		if len(rest)-i >= 12 {
			n := int64(binary.LittleEndian.Uint32(rest[i+4:]))
			if int64(len(rest)-i) >= 12+n {
				body := rest[i+8 : int64(i)+8+n]
				if crc32.Checksum(body, castagnoli) == binary.LittleEndian.Uint32(rest[int64(i)+8+n:]) {
					return from + int64(i), true, nil
				}
			}
		}
		i++
	}
}

// MergeChunkStores joins chunk stores (each a whole ChunksFile), leaving
// out a batch whose chunks are all in an earlier one unless a batch of
// its store is compressed against it. A torn final record is dropped, as
// the run store cuts it on open; a damaged record is an error.
func MergeChunkStores(stores [][]byte) ([]byte, error) {
	var out []byte
	seen := map[string]bool{}
	for n, data := range stores {
		var recs [][]byte
		var batches []chunkBatch
		needed := map[string]bool{}
		sc, err := scanRecords(bytes.NewReader(data), int64(len(data)), func(_ int64, rec []byte, b chunkBatch) error {
			recs, batches = append(recs, rec), append(batches, b)
			needed[b.Prev], needed[b.Base] = true, true
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("chunk store %d: %w", n+1, err)
		}
		if len(sc.Damage) > 0 {
			return nil, fmt.Errorf("chunk store %d: damaged: %s", n+1, sc.Damage[0])
		}
		for i, b := range batches {
			keep := b.BID != "" && needed[b.BID]
			for _, id := range b.IDs {
				if !seen[id] {
					keep, seen[id] = true, true
				}
			}
			if keep {
				out = append(out, recs[i]...)
			}
		}
	}
	return out, nil
}
