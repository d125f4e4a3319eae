package runlog

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

// errTorn marks a final record a killed writer left unfinished.
var errTorn = errors.New("torn final record")

// readRecord reads the next stored batch of br: nil at the end, errTorn
// for an unfinished final record.
func readRecord(br *bufio.Reader) ([]byte, error) {
	first, err := br.Peek(1)
	if errors.Is(err, io.EOF) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if first[0] == '{' {
		b, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return nil, errTorn
		}
		return b, err
	}
	head := make([]byte, 8)
	if _, err := io.ReadFull(br, head); err != nil {
		return nil, tornAtEOF(err)
	}
	if !bytes.Equal(head[:4], recordMagic[:len(recordMagic)]) {
		return nil, errors.New("not a chunk record")
	}
	n := binary.LittleEndian.Uint32(head[4:])
	rec := make([]byte, 12+int(n))
	copy(rec, head)
	if _, err := io.ReadFull(br, rec[8:]); err != nil {
		return nil, tornAtEOF(err)
	}
	if crc32.Checksum(rec[8:8+n], castagnoli) != binary.LittleEndian.Uint32(rec[8+n:]) {
		if _, err := br.Peek(1); errors.Is(err, io.EOF) {
			return nil, errTorn // a final record whose end never reached the disk
		}
		return nil, errors.New("record checksum does not match")
	}
	return rec, nil
}

func tornAtEOF(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errTorn
	}
	return err
}

// MergeChunkStores joins chunk stores (each a whole ChunksFile), leaving
// out a batch whose chunks are all in an earlier one unless a batch of
// its store is compressed against it. A torn final record is dropped, as
// the run store cuts it on open.
func MergeChunkStores(stores [][]byte) ([]byte, error) {
	var out []byte
	seen := map[string]bool{}
	for n, data := range stores {
		var recs [][]byte
		var batches []chunkBatch
		needed := map[string]bool{}
		br := bufio.NewReader(bytes.NewReader(data))
		for {
			rec, err := readRecord(br)
			if errors.Is(err, errTorn) || rec == nil && err == nil {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("chunk store %d: batch %d: %w", n+1, len(recs)+1, err)
			}
			b, err := decodeRecord(rec)
			if err != nil {
				return nil, fmt.Errorf("chunk store %d: batch %d: damaged: %w", n+1, len(recs)+1, err)
			}
			recs, batches = append(recs, rec), append(batches, b)
			needed[b.Prev], needed[b.Base] = true, true
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
