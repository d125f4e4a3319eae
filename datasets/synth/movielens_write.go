package synth

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// WriteMovieLens generates a dataset and writes ratings.dat, movies.dat and
// users.dat into dir (created if needed) in the official "::" format.
func WriteMovieLens(dir string, cfg MovieLensConfig) error {
	d, err := GenerateMovieLens(cfg)
	if err != nil {
		return err
	}
	return d.Write(dir)
}

// Write writes the three files into dir.
func (d *MovieLensData) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	files := []struct {
		name string
		fill func(w *bufio.Writer)
	}{
		{"movies.dat", func(w *bufio.Writer) {
			for _, m := range d.Movies {
				fmt.Fprintf(w, "%d::%s::%s\n", m.ID, m.Title, strings.Join(m.Genres, "|"))
			}
		}},
		{"users.dat", func(w *bufio.Writer) {
			for _, u := range d.Users {
				fmt.Fprintf(w, "%d::%s::%d::%d::%s\n", u.ID, u.Gender, u.Age, u.Occupation, u.Zip)
			}
		}},
		{"ratings.dat", func(w *bufio.Writer) {
			var buf []byte
			for _, r := range d.Ratings {
				buf = appendRating(buf[:0], int64(r.User), int64(r.Movie), int64(r.Value), r.Time)
				w.Write(buf)
			}
		}},
	}
	for _, f := range files {
		if err := writeFile(filepath.Join(dir, f.name), f.fill); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(path string, fill func(w *bufio.Writer)) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<16)
	fill(w)
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("synth: write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("synth: close %s: %w", path, err)
	}
	return nil
}

func appendRating(b []byte, user, movie, value, t int64) []byte {
	b = strconv.AppendInt(b, user, 10)
	b = append(b, ':', ':')
	b = strconv.AppendInt(b, movie, 10)
	b = append(b, ':', ':')
	b = strconv.AppendInt(b, value, 10)
	b = append(b, ':', ':')
	b = strconv.AppendInt(b, t, 10)
	return append(b, '\n')
}

// WriteRatingsLines writes n random ratings.dat lines with ML-1M-like ID
// ranges (6,040 users, 3,952 movies); it feeds parser benchmarks.
func WriteRatingsLines(w io.Writer, n int, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 0x72617465)) // stream tag "rate"
	bw := bufio.NewWriterSize(w, 1<<16)
	var buf []byte
	for range n {
		buf = appendRating(buf[:0], 1+rng.Int64N(6040), 1+rng.Int64N(3952), 1+rng.Int64N(5),
			mlStart+rng.Int64N(mlSpan))
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("synth: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	return nil
}
