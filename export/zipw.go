package export

import (
	"bufio"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"time"
)

// zipWriter writes a zip archive entry by entry, with its central
// directory spooled to a temporary file: archive/zip keeps one header per
// entry in memory until Close, and an Inspect .eval holds one entry per
// sample, so a large run's directory would grow with the run. Entries are
// deflated and followed by a data descriptor; ZIP64 records are written
// when the entry count or offsets need them.
type zipWriter struct {
	out     *countingWriter
	dir     *os.File
	dirw    *bufio.Writer
	dirSize int64
	entries int64
	dosTime uint16
	dosDate uint16
	fw      *flate.Writer
	cur     *zipEntry
	closed  bool
}

type zipEntry struct {
	name   string
	offset int64
	start  int64 // where the compressed data begins
	crc    hash.Hash32
	size   int64
}

type countingWriter struct {
	w *bufio.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// newZipWriter writes to w, spooling the directory in tmpDir; modified is
// every entry's time.
func newZipWriter(w io.Writer, tmpDir string, modified time.Time) (*zipWriter, error) {
	dir, err := os.CreateTemp(tmpDir, ".zipdir-*")
	if err != nil {
		return nil, err
	}
	fw, err := flate.NewWriter(io.Discard, flate.DefaultCompression)
	if err != nil {
		dir.Close()
		return nil, err
	}
	t := modified.UTC()
	z := &zipWriter{out: &countingWriter{w: bufio.NewWriterSize(w, 1<<16)}, dir: dir, dirw: bufio.NewWriter(dir), fw: fw,
		dosTime: uint16(t.Hour()<<11 | t.Minute()<<5 | t.Second()>>1),
		dosDate: uint16((t.Year()-1980)<<9 | int(t.Month())<<5 | t.Day())}
	return z, nil
}

const (
	zipFlags   = 0x8 | 0x800 // data descriptor follows; names are UTF-8
	zipDeflate = 8
	max32      = 0xffffffff
	max16      = 0xffff
)

type le []byte

func (b *le) u16(v uint16) { *b = binary.LittleEndian.AppendUint16(*b, v) }
func (b *le) u32(v uint32) { *b = binary.LittleEndian.AppendUint32(*b, v) }
func (b *le) u64(v uint64) { *b = binary.LittleEndian.AppendUint64(*b, v) }

// create starts an entry; write its content with Write.
func (z *zipWriter) create(name string) error {
	if err := z.finishEntry(); err != nil {
		return err
	}
	if len(name) > max16 {
		return fmt.Errorf("zip entry name too long (%d bytes)", len(name))
	}
	e := &zipEntry{name: name, offset: z.out.n, crc: crc32.NewIEEE()}
	var h le
	h.u32(0x04034b50)
	h.u16(45) // version needed: ZIP64-capable readers
	h.u16(zipFlags)
	h.u16(zipDeflate)
	h.u16(z.dosTime)
	h.u16(z.dosDate)
	h.u32(0) // crc and sizes are in the data descriptor
	h.u32(0)
	h.u32(0)
	h.u16(uint16(len(name)))
	h.u16(0)
	h = append(h, name...)
	if _, err := z.out.Write(h); err != nil {
		return err
	}
	e.start = z.out.n
	z.fw.Reset(z.out)
	z.cur = e
	return nil
}

func (z *zipWriter) Write(p []byte) (int, error) {
	if z.cur == nil {
		return 0, errors.New("zip: write outside an entry")
	}
	z.cur.crc.Write(p)
	z.cur.size += int64(len(p))
	return z.fw.Write(p)
}

// finishEntry ends the current entry: its data descriptor, and its
// directory record into the spool.
func (z *zipWriter) finishEntry() error {
	e := z.cur
	if e == nil {
		return nil
	}
	z.cur = nil
	if err := z.fw.Close(); err != nil {
		return err
	}
	csize := z.out.n - e.start
	if csize >= max32 || e.size >= max32 {
		return fmt.Errorf("zip entry %s is over 4 GiB", e.name)
	}
	var d le
	d.u32(0x08074b50)
	d.u32(e.crc.Sum32())
	d.u32(uint32(csize))
	d.u32(uint32(e.size))
	if _, err := z.out.Write(d); err != nil {
		return err
	}
	var extra le
	off := uint32(e.offset)
	if e.offset >= max32 {
		off = max32
		extra.u16(0x0001)
		extra.u16(8)
		extra.u64(uint64(e.offset))
	}
	var c le
	c.u32(0x02014b50)
	c.u16(45)
	c.u16(45)
	c.u16(zipFlags)
	c.u16(zipDeflate)
	c.u16(z.dosTime)
	c.u16(z.dosDate)
	c.u32(e.crc.Sum32())
	c.u32(uint32(csize))
	c.u32(uint32(e.size))
	c.u16(uint16(len(e.name)))
	c.u16(uint16(len(extra)))
	c.u16(0) // comment
	c.u16(0) // disk
	c.u16(0) // internal attributes
	c.u32(0) // external attributes
	c.u32(off)
	c = append(c, e.name...)
	c = append(c, extra...)
	if _, err := z.dirw.Write(c); err != nil {
		return err
	}
	z.dirSize += int64(len(c))
	z.entries++
	return nil
}

// add writes one whole entry.
func (z *zipWriter) add(name string, b []byte) error {
	if err := z.create(name); err != nil {
		return err
	}
	_, err := z.Write(b)
	return err
}

// Close appends the spooled directory and the end records.
func (z *zipWriter) Close() error {
	if z.closed {
		return nil
	}
	z.closed = true
	defer os.Remove(z.dir.Name())
	defer z.dir.Close()
	if err := z.finishEntry(); err != nil {
		return err
	}
	if err := z.dirw.Flush(); err != nil {
		return err
	}
	dirOffset := z.out.n
	if _, err := z.dir.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if _, err := io.Copy(z.out, z.dir); err != nil {
		return err
	}
	var end le
	count16, size32, off32 := uint16(z.entries), uint32(z.dirSize), uint32(dirOffset)
	if z.entries >= max16 || z.dirSize >= max32 || dirOffset >= max32 {
		at := z.out.n
		end.u32(0x06064b50)
		end.u64(44)
		end.u16(45)
		end.u16(45)
		end.u32(0)
		end.u32(0)
		end.u64(uint64(z.entries))
		end.u64(uint64(z.entries))
		end.u64(uint64(z.dirSize))
		end.u64(uint64(dirOffset))
		end.u32(0x07064b50)
		end.u32(0)
		end.u64(uint64(at))
		end.u32(1)
		count16, size32, off32 = max16, max32, max32
	}
	end.u32(0x06054b50)
	end.u16(0)
	end.u16(0)
	end.u16(count16)
	end.u16(count16)
	end.u32(size32)
	end.u32(off32)
	end.u16(0)
	if _, err := z.out.Write(end); err != nil {
		return err
	}
	return z.out.w.Flush()
}
