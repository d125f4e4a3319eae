package fetch

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Unzip extracts the entries of the archive for which keep returns true into
// destDir, flattened to their base names (the official ml-1m.zip nests its
// files under ml-1m/). Each file is written to a temporary name and renamed,
// so an interrupted extraction leaves no half file. It returns the written
// paths in archive order.
func Unzip(zipPath, destDir string, keep func(name string) bool) ([]string, error) {
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		return nil, fmt.Errorf("unzip %s: %w", zipPath, err)
	}
	defer zr.Close()
	if err := os.MkdirAll(destDir, 0o755); err != nil {
		return nil, fmt.Errorf("unzip %s: %w", zipPath, err)
	}
	var out []string
	for _, f := range zr.File {
		if f.FileInfo().IsDir() || !keep(f.Name) {
			continue
		}
		base := path.Base(f.Name)
		if base == "." || base == ".." || strings.ContainsAny(base, `/\`) {
			return nil, fmt.Errorf("unzip %s: unsafe entry name %q", zipPath, f.Name)
		}
		dst := filepath.Join(destDir, base)
		if err := extract(f, dst); err != nil {
			return nil, fmt.Errorf("unzip %s: %s: %w", zipPath, f.Name, err)
		}
		out = append(out, dst)
	}
	return out, nil
}

func extract(f *zip.File, dst string) error {
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := io.Copy(tmp, rc); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), dst)
}

// IsMovieLensData selects ml-1m/*.dat entries for Unzip.
func IsMovieLensData(name string) bool {
	return strings.HasSuffix(name, ".dat")
}

// Extract fetches s into cacheDir and unzips the entries keep selects into
// cacheDir/subdir, returning that directory.
func Extract(ctx context.Context, s Spec, cacheDir, subdir string, keep func(string) bool, progress io.Writer, opts Options) (string, error) {
	zipPath, err := FetchWith(ctx, s, cacheDir, progress, opts)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cacheDir, subdir)
	if _, err := Unzip(zipPath, dir, keep); err != nil {
		return "", err
	}
	return dir, nil
}

// MovieLens fetches the official ML-1M archive into cacheDir and extracts
// ratings.dat, movies.dat and users.dat into cacheDir/ml-1m.
func MovieLens(ctx context.Context, cacheDir string, progress io.Writer) (string, error) {
	return Extract(ctx, MovieLens1M(), cacheDir, "ml-1m", IsMovieLensData, progress, Options{})
}
