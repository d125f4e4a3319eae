// Package fetch downloads official dataset archives into a cache directory
// and checks them against pinned digests. The project never vendors
// third-party data; this is how a user obtains it.
package fetch

import (
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Spec pins one downloadable file. At least one of SHA256 and GitBlob is
// required (Pinned); every digest given is checked.
type Spec struct {
	Name   string // short dataset name, e.g. "movielens"
	URL    string
	SHA256 string // hex
	// GitBlob is the file's git blob id (hex SHA-1 of "blob <size>\x00"
	// followed by the content), as a repository's tree lists it: it pins
	// a file committed in a public repository without its bytes at hand.
	GitBlob  string
	MD5      string // hex; optional second check (some publishers list only MD5)
	Size     int64  // bytes; 0 when unknown
	FileName string // name in the cache dir; defaults to the URL's last element
}

// Pinned reports whether the spec carries a digest that identifies the
// file (SHA-256 or git blob id); fetching refuses a spec without one.
func (s Spec) Pinned() bool { return s.SHA256 != "" || s.GitBlob != "" }

// MovieLens1M is the official GroupLens MovieLens-1M archive. The SHA-256
// and size are the ones pinned by tensorflow/datasets
// (url_checksums/movielens.txt); the MD5 is the one GroupLens publishes.
func MovieLens1M() Spec {
	return Spec{
		Name:     "movielens",
		URL:      "https://files.grouplens.org/datasets/movielens/ml-1m.zip",
		SHA256:   "a6898adb50b9ca05aa231689da44c217cb524e7ebd39d264c56e2832f2c54e20",
		MD5:      "c4d9eecfca2ab87c1945afe126590906",
		Size:     5917549,
		FileName: "ml-1m.zip",
	}
}

// UserAgent names the harness in every download request.
const UserAgent = "memharness-fetch/1 (+https://github.com/memharness/memharness)"

// ErrChecksum is wrapped by every digest or size mismatch.
var ErrChecksum = errors.New("checksum mismatch")

func (s Spec) fileName() string {
	if s.FileName != "" {
		return s.FileName
	}
	return s.URL[strings.LastIndex(s.URL, "/")+1:]
}

// Verify checks the file at path against the spec's size and digests.
func Verify(path string, s Spec) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("verify %s: %w", s.Name, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("verify %s: %w", s.Name, err)
	}
	return verifyReader(f, st.Size(), path, s)
}

// verifyReader checks size bytes read from r. The size goes first into a
// git blob id, so it must be known before the content is hashed.
func verifyReader(r io.Reader, size int64, path string, s Spec) error {
	if !s.Pinned() {
		return fmt.Errorf("verify %s: spec has no SHA-256 or git blob pin", s.Name)
	}
	if s.Size > 0 && size != s.Size {
		return fmt.Errorf("verify %s: %s has %d bytes, want %d: %w", s.Name, path, size, s.Size, ErrChecksum)
	}
	sh, mh, gh := sha256.New(), md5.New(), sha1.New()
	io.WriteString(gh, "blob "+strconv.FormatInt(size, 10)+"\x00")
	n, err := io.Copy(io.MultiWriter(sh, mh, gh), r)
	if err != nil {
		return fmt.Errorf("verify %s: read %s: %w", s.Name, path, err)
	}
	if n != size {
		return fmt.Errorf("verify %s: %s changed while read (%d bytes, then %d)", s.Name, path, size, n)
	}
	for _, c := range []struct {
		h         hash.Hash
		want, alg string
	}{{sh, s.SHA256, "SHA-256"}, {gh, s.GitBlob, "git blob id"}, {mh, s.MD5, "MD5"}} {
		if c.want == "" {
			continue
		}
		if err := compare(c.h, c.want, c.alg, path, s); err != nil {
			return err
		}
	}
	return nil
}

func compare(h hash.Hash, want, algo, path string, s Spec) error {
	got := hex.EncodeToString(h.Sum(nil))
	if !strings.EqualFold(got, want) {
		return fmt.Errorf("verify %s: %s of %s is %s, want %s: %w", s.Name, algo, path, got, want, ErrChecksum)
	}
	return nil
}

// Options tune Fetch; the zero value uses http.DefaultClient.
type Options struct {
	Client *http.Client
}

// Fetch makes sure cacheDir holds the verified file and returns its path.
// A verified file already there is reused without network access. Otherwise
// the file is downloaded to "<name>.part" (resuming a partial download with
// an HTTP Range request when the server supports it), verified, and renamed
// into place, so a crash never leaves a bad file under the final name.
// progress, when non-nil, receives human-readable progress lines.
func Fetch(ctx context.Context, s Spec, cacheDir string, progress io.Writer) (string, error) {
	return FetchWith(ctx, s, cacheDir, progress, Options{})
}

// FetchWith is Fetch with options.
func FetchWith(ctx context.Context, s Spec, cacheDir string, progress io.Writer, opts Options) (string, error) {
	if progress == nil {
		progress = io.Discard
	}
	if !s.Pinned() {
		return "", fmt.Errorf("fetch %s: refusing to download without a SHA-256 or git blob pin", s.Name)
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", fmt.Errorf("fetch %s: %w", s.Name, err)
	}
	final := filepath.Join(cacheDir, s.fileName())
	if _, err := os.Stat(final); err == nil {
		if err := Verify(final, s); err == nil {
			fmt.Fprintf(progress, "%s: %s already present and verified\n", s.Name, final)
			return final, nil
		}
		fmt.Fprintf(progress, "%s: %s fails verification; downloading again\n", s.Name, final)
		if err := os.Remove(final); err != nil {
			return "", fmt.Errorf("fetch %s: %w", s.Name, err)
		}
	}
	part := final + ".part"
	resumed, err := download(ctx, s, part, progress, opts.client())
	if err != nil {
		return "", err
	}
	if err := Verify(part, s); err != nil {
		// A corrupt partial file would poison every later resume: drop it,
		// and when the bad bytes may predate this run, start over once.
		os.Remove(part)
		if !resumed {
			return "", fmt.Errorf("fetch %s from %s: %w", s.Name, s.URL, err)
		}
		fmt.Fprintf(progress, "%s: resumed file fails verification; downloading from scratch\n", s.Name)
		if _, err := download(ctx, s, part, progress, opts.client()); err != nil {
			return "", err
		}
		if err := Verify(part, s); err != nil {
			os.Remove(part)
			return "", fmt.Errorf("fetch %s from %s: %w", s.Name, s.URL, err)
		}
	}
	if err := os.Rename(part, final); err != nil {
		return "", fmt.Errorf("fetch %s: %w", s.Name, err)
	}
	fmt.Fprintf(progress, "%s: saved %s\n", s.Name, final)
	return final, nil
}

func (o Options) client() *http.Client {
	if o.Client != nil {
		return o.Client
	}
	return http.DefaultClient
}

// download appends to part from its current size when the server honours a
// Range request, and starts over otherwise. resumed reports that bytes from
// an earlier run were kept.
func download(ctx context.Context, s Spec, part string, progress io.Writer, client *http.Client) (resumed bool, err error) {
	var have int64
	if st, serr := os.Stat(part); serr == nil {
		have = st.Size()
	}
	if s.Size > 0 && have > s.Size {
		have = 0 // larger than the pinned size: cannot be a prefix
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL, nil)
	if err != nil {
		return false, fmt.Errorf("fetch %s: %w", s.Name, err)
	}
	// Some dataset hosts turn away Go's default client name; a named
	// client with a contact URL is what their terms ask for.
	req.Header.Set("User-Agent", UserAgent)
	if have > 0 {
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", have))
	}
	resp, err := client.Do(req)
	if err != nil {
		return false, fmt.Errorf("fetch %s: %w", s.Name, err)
	}
	defer resp.Body.Close()

	flags := os.O_CREATE | os.O_WRONLY
	switch {
	case have > 0 && resp.StatusCode == http.StatusPartialContent:
		if cr := resp.Header.Get("Content-Range"); !strings.HasPrefix(cr, fmt.Sprintf("bytes %d-", have)) {
			return false, fmt.Errorf("fetch %s: server answered range %d- with %q", s.Name, have, cr)
		}
		flags |= os.O_APPEND
		fmt.Fprintf(progress, "%s: resuming at %d bytes\n", s.Name, have)
	case have > 0 && resp.StatusCode == http.StatusRequestedRangeNotSatisfiable:
		// The partial file may already be complete; let Verify decide.
		return true, nil
	case resp.StatusCode == http.StatusOK:
		flags |= os.O_TRUNC
		have = 0
	default:
		return false, fmt.Errorf("fetch %s: GET %s: %s", s.Name, s.URL, resp.Status)
	}
	f, err := os.OpenFile(part, flags, 0o644)
	if err != nil {
		return false, fmt.Errorf("fetch %s: %w", s.Name, err)
	}
	total := s.Size
	if total == 0 && resp.ContentLength > 0 {
		total = have + resp.ContentLength
	}
	pw := &progressWriter{w: progress, name: s.Name, done: have, total: total}
	_, err = io.Copy(io.MultiWriter(f, pw), resp.Body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return false, fmt.Errorf("fetch %s: download interrupted at %d bytes (rerun to resume): %w", s.Name, pw.done, err)
	}
	return have > 0, nil
}

// progressWriter prints a line at every 10% step (or every 8 MiB when the
// total is unknown), which suits both terminals and CI logs.
type progressWriter struct {
	w           io.Writer
	name        string
	done, total int64
	last        int64
}

func (p *progressWriter) Write(b []byte) (int, error) {
	p.done += int64(len(b))
	if p.total > 0 {
		if step := p.done * 10 / p.total; step > p.last {
			p.last = step
			fmt.Fprintf(p.w, "%s: %d%% (%d/%d bytes)\n", p.name, step*10, p.done, p.total)
		}
	} else if step := p.done >> 23; step > p.last {
		p.last = step
		fmt.Fprintf(p.w, "%s: %d bytes\n", p.name, p.done)
	}
	return len(b), nil
}
