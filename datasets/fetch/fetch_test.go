package fetch

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// server serves one payload at /data.zip with Range support and records the
// Range headers it sees.
type server struct {
	*httptest.Server
	mu     sync.Mutex
	ranges []string
	hits   int
}

func newServer(t *testing.T, payload []byte) *server {
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits++
		s.ranges = append(s.ranges, r.Header.Get("Range"))
		s.mu.Unlock()
		if r.URL.Path != "/data.zip" {
			http.NotFound(w, r)
			return
		}
		http.ServeContent(w, r, "data.zip", time.Time{}, bytes.NewReader(payload))
	}))
	t.Cleanup(s.Close)
	return s
}

func specFor(url string, payload []byte) Spec {
	sh := sha256.Sum256(payload)
	mh := md5.Sum(payload)
	return Spec{
		Name: "test", URL: url, FileName: "data.zip", Size: int64(len(payload)),
		SHA256: hex.EncodeToString(sh[:]), MD5: hex.EncodeToString(mh[:]),
	}
}

func payload(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/251)
	}
	return b
}

func TestFetch(t *testing.T) {
	data := payload(100_000)
	good := specFor("", data)
	tests := []struct {
		name      string
		path      string
		mutate    func(*Spec)
		prefill   func(dir string) // files present before the fetch
		wantErr   error
		wantErrIn string
		wantRange string // Range header of the last request
		wantHits  int
	}{
		{name: "good", path: "/data.zip", wantHits: 1},
		{name: "bad sha256", path: "/data.zip", mutate: func(s *Spec) { s.SHA256 = strings.Repeat("0", 64) },
			wantErr: ErrChecksum, wantErrIn: "SHA-256", wantHits: 1},
		{name: "bad md5", path: "/data.zip", mutate: func(s *Spec) { s.MD5 = strings.Repeat("0", 32) },
			wantErr: ErrChecksum, wantErrIn: "MD5", wantHits: 1},
		{name: "wrong size", path: "/data.zip", mutate: func(s *Spec) { s.Size++ },
			wantErr: ErrChecksum, wantErrIn: "bytes", wantHits: 1},
		{name: "404", path: "/missing.zip", wantErrIn: "404", wantHits: 1},
		{name: "resume after partial file", path: "/data.zip",
			prefill: func(dir string) {
				os.WriteFile(filepath.Join(dir, "data.zip.part"), data[:40_000], 0o644)
			},
			wantRange: "bytes=40000-", wantHits: 1},
		{name: "present and verified: no request", path: "/data.zip",
			prefill:  func(dir string) { os.WriteFile(filepath.Join(dir, "data.zip"), data, 0o644) },
			wantHits: 0},
		{name: "present but corrupt: download again", path: "/data.zip",
			prefill:  func(dir string) { os.WriteFile(filepath.Join(dir, "data.zip"), data[:10], 0o644) },
			wantHits: 1},
		{name: "complete part file", path: "/data.zip",
			prefill:   func(dir string) { os.WriteFile(filepath.Join(dir, "data.zip.part"), data, 0o644) },
			wantRange: "bytes=100000-", wantHits: 1},
		{name: "corrupt part file: one fresh retry", path: "/data.zip",
			prefill: func(dir string) {
				bad := append([]byte("garbage!"), data[8:40_000]...)
				os.WriteFile(filepath.Join(dir, "data.zip.part"), bad, 0o644)
			},
			wantRange: "", wantHits: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServer(t, data)
			spec := good
			spec.URL = srv.URL + tc.path
			if tc.mutate != nil {
				tc.mutate(&spec)
			}
			dir := t.TempDir()
			if tc.prefill != nil {
				tc.prefill(dir)
			}
			var log bytes.Buffer
			got, err := Fetch(context.Background(), spec, dir, &log)
			if srv.hits != tc.wantHits {
				t.Errorf("%d requests, want %d", srv.hits, tc.wantHits)
			}
			if tc.wantRange != "" && (len(srv.ranges) == 0 || srv.ranges[len(srv.ranges)-1] != tc.wantRange) {
				t.Errorf("Range headers %q, want last %q", srv.ranges, tc.wantRange)
			}
			if tc.wantErr != nil || tc.wantErrIn != "" {
				if err == nil {
					t.Fatal("want error, got nil")
				}
				if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
					t.Errorf("err = %v, want %v", err, tc.wantErr)
				}
				if !strings.Contains(err.Error(), tc.wantErrIn) {
					t.Errorf("err = %v, want it to mention %q", err, tc.wantErrIn)
				}
				if _, serr := os.Stat(filepath.Join(dir, "data.zip")); serr == nil {
					t.Error("a failed fetch left a file under the final name")
				}
				if _, serr := os.Stat(filepath.Join(dir, "data.zip.part")); serr == nil && tc.wantErr != nil {
					t.Error("a file that failed verification was kept as .part")
				}
				return
			}
			if err != nil {
				t.Fatalf("%v\nlog:\n%s", err, log.String())
			}
			onDisk, err := os.ReadFile(got)
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantHits > 0 && tc.prefill == nil && !strings.Contains(log.String(), "100%") {
				t.Errorf("progress log lacks 100%%:\n%s", log.String())
			}
			if !bytes.Equal(onDisk, data) {
				t.Error("downloaded bytes differ from the payload")
			}
			if err := Verify(got, spec); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestFetchRequiresPin(t *testing.T) {
	_, err := Fetch(context.Background(), Spec{Name: "x", URL: "http://127.0.0.1:1/x"}, t.TempDir(), nil)
	if err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("err = %v", err)
	}
}

func TestFetchCancelled(t *testing.T) {
	data := payload(1000)
	srv := newServer(t, data)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Fetch(ctx, specFor(srv.URL+"/data.zip", data), t.TempDir(), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestMovieLensSpec(t *testing.T) {
	s := MovieLens1M()
	if len(s.SHA256) != 64 || len(s.MD5) != 32 || s.Size <= 0 || s.fileName() != "ml-1m.zip" ||
		!strings.HasPrefix(s.URL, "https://files.grouplens.org/") {
		t.Errorf("bad pin %+v", s)
	}
	if _, err := hex.DecodeString(s.SHA256); err != nil {
		t.Error(err)
	}
}

func zipBytes(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range []string{"ml-1m/", "ml-1m/README", "ml-1m/ratings.dat", "ml-1m/movies.dat", "ml-1m/users.dat"} {
		content, ok := files[name]
		if !ok && !strings.HasSuffix(name, "/") {
			continue
		}
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(content))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestExtract(t *testing.T) {
	files := map[string]string{
		"ml-1m/README":      "about\n",
		"ml-1m/ratings.dat": "1::1::5::978300760\n",
		"ml-1m/movies.dat":  "1::Toy Story (1995)::Comedy\n",
		"ml-1m/users.dat":   "1::F::1::10::48067\n",
	}
	data := zipBytes(t, files)
	srv := newServer(t, data)
	cache := t.TempDir()
	dir, err := Extract(context.Background(), specFor(srv.URL+"/data.zip", data), cache, "ml-1m", IsMovieLensData, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if dir != filepath.Join(cache, "ml-1m") {
		t.Errorf("dir = %s", dir)
	}
	for _, name := range []string{"ratings.dat", "movies.dat", "users.dat"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != files["ml-1m/"+name] {
			t.Errorf("%s = %q", name, got)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "README")); err == nil {
		t.Error("README extracted although not selected")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("%d entries in %s, want 3 (no temp files)", len(entries), dir)
	}
}

func TestUnzipRejectsBadArchive(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.zip")
	os.WriteFile(p, []byte("not a zip"), 0o644)
	if _, err := Unzip(p, t.TempDir(), IsMovieLensData); err == nil {
		t.Error("want error")
	}
}
