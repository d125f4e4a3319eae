package bench

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/datasets/fetch"
)

func sha(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// fakeServer serves files by URL path and counts the requests per path.
func fakeServer(t *testing.T, files map[string][]byte) (*httptest.Server, func(string) int) {
	t.Helper()
	var mu sync.Mutex
	hits := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		b, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv, func(p string) int {
		mu.Lock()
		defer mu.Unlock()
		return hits[p]
	}
}

func TestFetchSpecs(t *testing.T) {
	good := []byte(`{"tasks": [1, 2, 3]}`)
	game := []byte("(define (problem p))")
	srv, hits := fakeServer(t, map[string][]byte{
		"/good.json": good,
		"/game.pddl": game,
		"/bad.json":  []byte("tampered"),
		"/free.py":   []byte("tasks = []"),
	})
	spec := func(urlPath, fileName, pin string) fetch.Spec {
		return fetch.Spec{Name: "fake", URL: srv.URL + urlPath, SHA256: pin, FileName: fileName}
	}
	tests := []struct {
		name     string
		spec     fetch.Spec
		wantErr  bool
		wantLine string // prefix of the printed line
		wantFile string // relative to the data dir; "" when nothing is written
		wantBody []byte
		wantHits int
	}{
		{"good file", spec("/good.json", "tasks.json", sha(good)), false, "ok      ", "tasks.json", good, 1},
		{"default file name", spec("/good.json", "", sha(good)), false, "ok      ", "good.json", good, 1},
		{"subdirectory file name", spec("/game.pddl", "eval/valid_unseen/t1/game.tw-pddl", sha(game)), false, "ok      ", "eval/valid_unseen/t1/game.tw-pddl", game, 1},
		{"bad checksum", spec("/bad.json", "bad.json", sha(good)), true, "FAIL    ", "", nil, 1},
		{"unpinned spec skipped", spec("/free.py", "tasks_test.py", ""), false, "skip    ", "", nil, 0},
		{"name leaving the folder", spec("/good.json", "../escape.json", sha(good)), true, "FAIL    ", "", nil, 0},
		{"missing upstream", spec("/gone.json", "gone.json", sha(good)), true, "FAIL    ", "", nil, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "env", "sub")
			u := strings.TrimPrefix(tc.spec.URL, srv.URL)
			before := hits(u)
			var out, progress bytes.Buffer
			err := fetchSpecs(context.Background(), &out, &progress, []fetch.Spec{tc.spec}, dir, fetch.Options{Client: srv.Client()})
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v\nout:\n%s", err, tc.wantErr, out.String())
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], tc.wantLine) {
				t.Errorf("output %q, want one line starting %q", out.String(), tc.wantLine)
			}
			if !tc.spec.Pinned() && !strings.Contains(out.String(), "by hand") {
				t.Errorf("unpinned line does not say to download by hand: %q", out.String())
			}
			if got := hits(u) - before; got != tc.wantHits {
				t.Errorf("%d requests for %s, want %d", got, u, tc.wantHits)
			}
			if tc.wantFile != "" {
				b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(tc.wantFile)))
				if err != nil || !bytes.Equal(b, tc.wantBody) {
					t.Errorf("file %s: %q, %v", tc.wantFile, b, err)
				}
			} else if err := filepath.Walk(filepath.Dir(filepath.Dir(dir)), func(p string, fi os.FileInfo, err error) error {
				if err == nil && !fi.IsDir() {
					t.Errorf("unexpected file %s", p)
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestFetchSpecsThenVerify(t *testing.T) {
	a, b := []byte("alpha"), []byte("beta")
	srv, hits := fakeServer(t, map[string][]byte{"/a": a, "/b": b})
	specs := []fetch.Spec{
		{Name: "fake", URL: srv.URL + "/a", SHA256: sha(a), Size: int64(len(a)), FileName: "a.json"},
		{Name: "fake", URL: srv.URL + "/b", SHA256: sha(b), FileName: "data/b.json"},
		{Name: "fake", URL: srv.URL + "/c", FileName: "c.py"},
	}
	dir := t.TempDir()
	opts := fetch.Options{Client: srv.Client()}
	var out bytes.Buffer
	if err := fetchSpecs(context.Background(), &out, &out, specs, dir, opts); err != nil {
		t.Fatalf("fetch: %v\n%s", err, out.String())
	}
	// A second fetch reuses the verified files.
	if err := fetchSpecs(context.Background(), &out, &out, specs, dir, opts); err != nil {
		t.Fatalf("refetch: %v\n%s", err, out.String())
	}
	if hits("/a") != 1 || hits("/b") != 1 || hits("/c") != 0 {
		t.Errorf("requests a=%d b=%d c=%d, want 1 1 0", hits("/a"), hits("/b"), hits("/c"))
	}

	out.Reset()
	if err := verifySpecs(&out, specs, dir); err != nil {
		t.Fatalf("verify: %v\n%s", err, out.String())
	}
	if got := strings.Count(out.String(), "ok      "); got != 2 || !strings.Contains(out.String(), "skip    ") {
		t.Errorf("verify output:\n%s", out.String())
	}

	// A corrupted file fails; a missing one is reported, not checked.
	if err := os.WriteFile(filepath.Join(dir, "data", "b.json"), []byte("betA"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "a.json"))
	out.Reset()
	err := verifySpecs(&out, specs, dir)
	if err == nil || !strings.Contains(out.String(), "missing ") || !strings.Contains(out.String(), "FAIL    ") {
		t.Errorf("verify after corruption: err %v\n%s", err, out.String())
	}

	// Nothing present at all is an error.
	out.Reset()
	if err := verifySpecs(&out, specs, t.TempDir()); err == nil {
		t.Errorf("verify of an empty folder succeeded:\n%s", out.String())
	}
}

func TestDataEnvCLI(t *testing.T) {
	run := func(args ...string) (string, int) {
		var out, errb bytes.Buffer
		code := Main(context.Background(), args, IO{Out: &out, Err: &errb, Getenv: func(string) string { return "" }})
		return out.String() + errb.String(), code
	}
	help, _ := run("data", "--help")
	for _, name := range []string{"alfworld", "taubench-retail", "taubench-airline", "hotpotqa", "fever"} {
		if !strings.Contains(help, name) {
			t.Errorf("help does not list %s:\n%s", name, help)
		}
	}
	cache := t.TempDir()
	out, code := run("data", "verify", "taubench-retail", "--dir", cache)
	if code == 0 || !strings.Contains(out, "missing ") {
		t.Errorf("verify on an empty cache: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, filepath.Join(cache, "taubench", "retail", "users.json")) {
		t.Errorf("verify does not look in CACHE/taubench/retail:\n%s", out)
	}
	if out, code := run("data", "stats", "alfworld", "--dir", cache); code == 0 || !strings.Contains(out, "not available") {
		t.Errorf("stats on an environment: exit %d\n%s", code, out)
	}
	if out, code := run("data", "fetch", "nosuchenv", "--dir", cache); code == 0 || !strings.Contains(out, "taubench-airline") {
		t.Errorf("unknown name: exit %d\n%s", code, out)
	}
}
