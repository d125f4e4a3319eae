package movielens

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/memharness/memharness/internal/safefile"
)

// source reads the three .dat files from a directory or a zip archive.
type source interface {
	read(name string) ([]byte, error)
	close() error
	String() string
}

type dirSource string

func (d dirSource) read(name string) ([]byte, error) {
	return safefile.ReadFile(filepath.Join(string(d), name), 0)
}
func (d dirSource) close() error   { return nil }
func (d dirSource) String() string { return string(d) }

type zipSource struct {
	path string
	rc   *zip.ReadCloser
}

func (z *zipSource) read(name string) ([]byte, error) {
	// The official archive nests the files under ml-1m/; accept any folder.
	for _, f := range z.rc.File {
		if path.Base(f.Name) != name || f.FileInfo().IsDir() {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: open %s: %w", z.path, f.Name, err)
		}
		defer rc.Close()
		if f.UncompressedSize64 > uint64(safefile.MaxBytes) {
			return nil, fmt.Errorf("%s: %s: %d bytes uncompressed, over the %d-byte limit for a data file", z.path, f.Name, f.UncompressedSize64, safefile.MaxBytes)
		}
		// Sized from the header (checked above, and capped: a header may
		// lie), so the entry is read in place rather than through doubling
		// buffers; ReadFrom wants MinRead bytes free to see the end.
		var buf bytes.Buffer
		buf.Grow(int(min(f.UncompressedSize64, 256<<20)) + bytes.MinRead)
		_, err = buf.ReadFrom(io.LimitReader(rc, safefile.MaxBytes+1))
		if int64(buf.Len()) > safefile.MaxBytes {
			return nil, fmt.Errorf("%s: %s: over the %d-byte limit for a data file", z.path, f.Name, safefile.MaxBytes)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: read %s: %w", z.path, f.Name, err)
		}
		return buf.Bytes(), nil
	}
	return nil, fmt.Errorf("%s: no %s in archive: %w", z.path, name, fs.ErrNotExist)
}
func (z *zipSource) close() error   { return z.rc.Close() }
func (z *zipSource) String() string { return z.path }

// open finds the dataset at p: a directory holding ratings.dat, a directory
// holding ml-1m/ or ml-1m.zip, or the zip itself.
func open(p string) (source, error) {
	notFound := fmt.Errorf("movielens: no %s, ml-1m/ or ml-1m.zip at %q: %w; %s", RatingsFile, p, ErrNotFound, FetchHint)
	st, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, notFound
	}
	if err != nil {
		return nil, fmt.Errorf("movielens: %w", err)
	}
	if !st.IsDir() {
		if !strings.HasSuffix(strings.ToLower(p), ".zip") {
			return nil, fmt.Errorf("movielens: %q is a file but not a .zip archive; %s", p, FetchHint)
		}
		f, err := safefile.Open(p, 0)
		if err != nil {
			return nil, fmt.Errorf("movielens: %w", err)
		}
		f.Close()
		rc, err := zip.OpenReader(p)
		if err != nil {
			return nil, fmt.Errorf("movielens: open %s: %w", p, err)
		}
		return &zipSource{path: p, rc: rc}, nil
	}
	for _, dir := range []string{p, filepath.Join(p, "ml-1m")} {
		if exists(filepath.Join(dir, RatingsFile)) {
			return dirSource(dir), nil
		}
	}
	if z := filepath.Join(p, "ml-1m.zip"); exists(z) {
		return open(z)
	}
	return nil, notFound
}

func exists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// Load reads ratings.dat, movies.dat and users.dat from path (see open for
// the accepted layouts). A missing dataset is an error wrapping ErrNotFound
// that names the fetch command.
func Load(path string) (*Dataset, error) {
	d := &Dataset{}
	err := load(path, d, func(data []byte) (err error) {
		d.Ratings, err = ParseRatings(data, RatingsFile)
		return err
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// LoadStats is Load(path) followed by Stats, without keeping the ratings:
// they are tallied as they are parsed. movies.dat and users.dat are still
// read and checked, so it fails exactly where Load would.
func LoadStats(path string) (Stats, error) {
	var st Stats
	err := load(path, &Dataset{}, func(data []byte) (err error) {
		st, err = RatingsStats(data, RatingsFile)
		return err
	})
	return st, err
}

// load reads the three files at path in Load's order: ratings.dat goes to
// ratings, movies.dat and users.dat are parsed into d.
func load(path string, d *Dataset, ratings func([]byte) error) error {
	src, err := open(path)
	if err != nil {
		return err
	}
	defer src.close()
	read := func(name string) ([]byte, error) {
		data, err := src.read(name)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("movielens: %s missing from %s: %w; %s", name, src, ErrNotFound, FetchHint)
		}
		if err != nil {
			return nil, fmt.Errorf("movielens: %w", err)
		}
		return data, nil
	}
	data, err := read(RatingsFile)
	if err != nil {
		return err
	}
	if err := ratings(data); err != nil {
		return fmt.Errorf("movielens: %w", err)
	}
	if data, err = read(MoviesFile); err != nil {
		return err
	}
	if d.Movies, err = ParseMovies(data, MoviesFile); err != nil {
		return fmt.Errorf("movielens: %w", err)
	}
	if data, err = read(UsersFile); err != nil {
		return err
	}
	if d.Users, err = ParseUsers(data, UsersFile); err != nil {
		return fmt.Errorf("movielens: %w", err)
	}
	return nil
}

// SHA256s returns the hex SHA-256 of each of the three files at path, keyed
// by file name, for run manifests. Inside a zip the entries' contents are
// hashed, so an extracted copy and its archive give the same digests.
func SHA256s(path string) (map[string]string, error) {
	src, err := open(path)
	if err != nil {
		return nil, err
	}
	defer src.close()
	out := make(map[string]string, 3)
	for _, name := range []string{RatingsFile, MoviesFile, UsersFile} {
		data, err := src.read(name)
		if err != nil {
			return nil, fmt.Errorf("movielens: hash %s: %w", name, err)
		}
		sum := sha256.Sum256(data)
		out[name] = hex.EncodeToString(sum[:])
	}
	return out, nil
}
