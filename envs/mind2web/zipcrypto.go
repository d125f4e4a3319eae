package mind2web

import (
	"archive/zip"
	"compress/flate"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ExtractTestZip writes split's JSON files (e.g. test_task/test_task_0.json)
// from the official test.zip into destDir/split, decrypting the
// traditional PKWARE ("ZipCrypto") encryption the archive uses, which
// archive/zip does not handle. It returns the written paths. Only the base
// names of entries are used, so the archive cannot write outside destDir.
func ExtractTestZip(zipPath, destDir, split string) ([]string, error) {
	if split == "" {
		split = "test_task"
	}
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		return nil, fmt.Errorf("mind2web: %w", err)
	}
	defer zr.Close()
	outDir := filepath.Join(destDir, filepath.Base(split))
	var out []string
	for _, f := range zr.File {
		dir, base := path.Split(f.Name)
		if path.Base(strings.TrimSuffix(dir, "/")) != split || !strings.HasSuffix(base, ".json") || strings.HasPrefix(base, ".") {
			continue
		}
		if err := os.MkdirAll(outDir, 0o755); err != nil {
			return nil, fmt.Errorf("mind2web: %w", err)
		}
		p := filepath.Join(outDir, base)
		if err := extractEntry(f, p, TestZipPassword); err != nil {
			return nil, fmt.Errorf("mind2web: %s: %s: %w", zipPath, f.Name, err)
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("mind2web: %s: no %s/*.json entries", zipPath, split)
	}
	return out, nil
}

// extractEntry writes one entry to dst through a temporary file, checking
// its CRC-32 and size.
func extractEntry(f *zip.File, dst, password string) error {
	var r io.Reader
	if f.Flags&0x1 == 0 {
		rc, err := f.Open()
		if err != nil {
			return err
		}
		defer rc.Close()
		r = rc
	} else {
		raw, err := f.OpenRaw()
		if err != nil {
			return err
		}
		dr, err := newZipCryptoReader(raw, password, checkByte(f))
		if err != nil {
			return err
		}
		switch f.Method {
		case zip.Store:
			r = dr
		case zip.Deflate:
			fr := flate.NewReader(dr)
			defer fr.Close()
			r = fr
		default:
			return fmt.Errorf("unsupported compression method %d", f.Method)
		}
	}
	tmp := dst + ".part"
	w, err := os.Create(tmp)
	if err != nil {
		return err
	}
	h := crc32.NewIEEE()
	n, err := io.Copy(io.MultiWriter(w, h), r)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
	case uint64(n) != f.UncompressedSize64:
		err = fmt.Errorf("%d bytes, want %d", n, f.UncompressedSize64)
	case h.Sum32() != f.CRC32:
		err = errors.New("CRC-32 mismatch (wrong password or corrupt archive)")
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, dst)
}

// checkByte is what the last byte of the decrypted 12-byte header must
// be: the CRC's high byte, or the DOS time's when sizes follow the data.
func checkByte(f *zip.File) byte {
	if f.Flags&0x8 != 0 {
		return byte(f.ModifiedTime >> 8)
	}
	return byte(f.CRC32 >> 24)
}

// zipCrypto is the traditional PKWARE stream cipher state.
type zipCrypto struct{ k0, k1, k2 uint32 }

func newZipCrypto(password string) *zipCrypto {
	z := &zipCrypto{0x12345678, 0x23456789, 0x34567890}
	for i := 0; i < len(password); i++ {
		z.update(password[i])
	}
	return z
}

func crcByte(crc uint32, b byte) uint32 {
	return crc32.IEEETable[byte(crc)^b] ^ crc>>8
}

func (z *zipCrypto) update(b byte) {
	z.k0 = crcByte(z.k0, b)
	z.k1 = (z.k1+z.k0&0xff)*134775813 + 1
	z.k2 = crcByte(z.k2, byte(z.k1>>24))
}

func (z *zipCrypto) stream() byte {
	t := z.k2&0xffff | 2
	return byte(t * (t ^ 1) >> 8)
}

func (z *zipCrypto) decrypt(buf []byte) {
	for i, c := range buf {
		p := c ^ z.stream()
		z.update(p)
		buf[i] = p
	}
}

type zipCryptoReader struct {
	r io.Reader
	z *zipCrypto
}

// newZipCryptoReader consumes and checks the 12-byte encryption header.
func newZipCryptoReader(r io.Reader, password string, check byte) (io.Reader, error) {
	z := newZipCrypto(password)
	var hdr [12]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, fmt.Errorf("encryption header: %w", err)
	}
	z.decrypt(hdr[:])
	if hdr[11] != check {
		return nil, errors.New("wrong password")
	}
	return &zipCryptoReader{r: r, z: z}, nil
}

func (d *zipCryptoReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	d.z.decrypt(p[:n])
	return n, err
}
