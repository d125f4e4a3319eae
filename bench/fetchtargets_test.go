package bench

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/datasets/fetch"
	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/envs/miniwob"
	"github.com/memharness/memharness/releasepacks/lifememrel"
	"github.com/memharness/memharness/releasepacks/pramemrel"
)

// byHand lists the files of fetch targets that carry no pin, each with why:
// fetch lists them for download by hand and never fetches them unchecked.
// Anything unpinned and not listed here fails TestEveryFetchTarget.
var byHand = map[string]string{}

// upstream stands in for every host the targets download from: a client
// whose transport sends each request to one httptest server, which answers
// by the request's original host and path, so the specs' real URLs are
// used unchanged.
type upstream struct {
	srv   *httptest.Server
	mu    sync.Mutex
	files map[string][]byte // host + request URI → body
	ua    map[string]bool
}

func newUpstream(t *testing.T) *upstream {
	u := &upstream{files: map[string][]byte{}, ua: map[string]bool{}}
	u.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.mu.Lock()
		b, ok := u.files[r.Host+r.URL.RequestURI()]
		u.ua[r.UserAgent()] = true
		u.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	t.Cleanup(u.srv.Close)
	return u
}

func (u *upstream) serve(rawURL string, body []byte) {
	p, err := url.Parse(rawURL)
	if err != nil {
		panic(err)
	}
	u.mu.Lock()
	u.files[p.Host+p.RequestURI()] = body
	u.mu.Unlock()
}

func (u *upstream) client() *http.Client {
	target, _ := url.Parse(u.srv.URL)
	return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.URL.Scheme, r.URL.Host = target.Scheme, target.Host // r.Host keeps the original host
		return http.DefaultTransport.RoundTrip(r)
	})}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// standIn is the body served for a file: our own bytes (third-party files
// are never committed), shaped where a loader checks the shape.
func standIn(fileName string) []byte {
	if strings.HasPrefix(fileName, "miniwob/html/miniwob/") && strings.HasSuffix(fileName, ".html") {
		// What miniwob.Open checks a task page for.
		return []byte(`<html><head><title>` + fileName + `</title><script src="../core/core.js"></script></head>` +
			`<body><div id="query"></div><script>var genProblem = function() {};</script></body></html>` + "\n")
	}
	return []byte("stand-in for " + fileName + "\n")
}

// Every `bench data fetch` target downloads its pinned files from their
// real URLs (here answered by a local server serving stand-ins under a pin
// table made from them), lays them out where its loader looks, verifies
// them, and refuses a changed file by name. Unpinned files are only those
// listed in byHand.
func TestEveryFetchTarget(t *testing.T) {
	ctx := context.Background()
	targets := map[string][]fetch.Spec{"movielens": {fetch.MovieLens1M()}}
	subdir := map[string]string{"movielens": ""}
	for _, e := range all.Entries() {
		if e.Fetch != nil {
			targets[e.Name], subdir[e.Name] = e.Fetch(), e.DataSubdir
		}
	}
	// The release packs: the PraMem authors' files and the LifeMem sources.
	targets[pramemrel.FetchName], subdir[pramemrel.FetchName] = pramemrel.SpecsFor("", pramemrel.Files), pramemrel.FetchName
	for _, n := range lifememrel.Names() {
		src, _ := lifememrel.Find(n)
		targets[n], subdir[n] = src.Specs(""), n
	}
	for _, b := range memqa.Benchmarks() {
		targets[string(b)], subdir[string(b)] = memqa.Specs(b), string(b)
	}
	if len(targets) < 21 {
		t.Fatalf("only %d fetch targets", len(targets))
	}
	for name, specs := range targets {
		t.Run(name, func(t *testing.T) {
			up := newUpstream(t)
			var pinned []fetch.Spec
			seen := map[string]string{}
			for _, s := range specs {
				fileName := s.FileName
				if fileName == "" {
					fileName = s.URL[strings.LastIndex(s.URL, "/")+1:]
				}
				key := strings.TrimPrefix(subdir[name]+"/"+fileName, "/")
				if !s.Pinned() {
					if byHand[key] == "" {
						t.Errorf("%s (%s) has no pin and is not listed as a by-hand download", key, s.URL)
					}
					continue
				}
				if other, dup := seen[fileName]; dup {
					t.Errorf("%s and %s both land at %s", other, s.URL, fileName)
				}
				seen[fileName] = s.URL
				body := standIn(fileName)
				up.serve(s.URL, body)
				s.SHA256, s.GitBlob, s.Size, s.MD5 = sha(body), "", int64(len(body)), "" // the pin table of the stand-ins
				pinned = append(pinned, s)
			}
			if len(pinned) == 0 {
				t.Fatal("no pinned file")
			}
			dir := filepath.Join(t.TempDir(), filepath.FromSlash(subdir[name]))
			var out, progress bytes.Buffer
			if err := fetchSpecs(ctx, &out, &progress, pinned, dir, fetch.Options{Client: up.client()}); err != nil {
				t.Fatalf("fetch: %v\n%s", err, out.String())
			}
			for _, s := range pinned {
				p, _ := specPath(dir, s)
				if b, err := os.ReadFile(p); err != nil || sha(b) != s.SHA256 {
					t.Errorf("%s: %v", p, err)
				}
			}
			if !up.ua[fetch.UserAgent] || len(up.ua) != 1 {
				t.Errorf("user agents sent: %v", up.ua)
			}
			out.Reset()
			if err := verifySpecs(&out, pinned, dir); err != nil {
				t.Errorf("verify after fetch: %v\n%s", err, out.String())
			}
			if name == miniwob.Name {
				s, err := miniwob.Open(dir)
				if err != nil {
					t.Fatalf("the fetched layout does not open: %v", err)
				}
				if n := len(s.Tasks()); n < 100 {
					t.Errorf("%d tasks from the fetched pages", n)
				}
			}

			// A changed file upstream is refused, naming it; the others
			// still arrive.
			changed := pinned[len(pinned)/2]
			up.serve(changed.URL, []byte("changed upstream\n"))
			fresh := filepath.Join(t.TempDir(), filepath.FromSlash(subdir[name]))
			out.Reset()
			err := fetchSpecs(ctx, &out, &progress, pinned, fresh, fetch.Options{Client: up.client()})
			p, _ := specPath(fresh, changed)
			if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(out.String(), "FAIL    "+p) {
				t.Errorf("changed %s: err %v\n%s", p, err, out.String())
			}
			if _, serr := os.Stat(p); serr == nil {
				t.Errorf("the changed file was kept at %s", p)
			}
			if ok := strings.Count(out.String(), "ok      "); ok != len(pinned)-1 {
				t.Errorf("%d of the %d unchanged files arrived", ok, len(pinned)-1)
			}
		})
	}
}

// The real MiniWoB++ pins cover the whole v1.0 page set and the shared
// files the pages load, each from the tag's commit.
func TestMiniWoBPins(t *testing.T) {
	specs := miniwob.FetchSpec()
	pages, shared := 0, 0
	for _, s := range specs {
		if !strings.Contains(s.URL, "/553daee55ea0b2cc32b181a474083ab4cad782a1/") || s.URL != "https://raw.githubusercontent.com/Farama-Foundation/miniwob-plusplus/553daee55ea0b2cc32b181a474083ab4cad782a1/"+s.FileName {
			t.Errorf("%s: not at the v1.0 commit: %s", s.FileName, s.URL)
		}
		if len(s.SHA256) != 64 || s.Size <= 0 {
			t.Errorf("%s: pin %q size %d", s.FileName, s.SHA256, s.Size)
		}
		switch {
		case strings.HasPrefix(s.FileName, "miniwob/html/miniwob/") && strings.HasSuffix(s.FileName, ".html"):
			pages++
		case strings.HasPrefix(s.FileName, "miniwob/html/core/"), strings.HasPrefix(s.FileName, "miniwob/html/common/"):
			shared++
		default:
			t.Errorf("unexpected file %s", s.FileName)
		}
	}
	for _, want := range []string{"miniwob/html/common/ui_utils.js", "miniwob/html/core/d3.v3.min.js", "miniwob/html/core/core.css", "miniwob/html/miniwob/click-button.html"} {
		found := false
		for _, s := range specs {
			found = found || s.FileName == want
		}
		if !found {
			t.Errorf("%s is not pinned", want)
		}
	}
	if pages != 130 || shared < 80 {
		t.Errorf("%d pages, %d shared files", pages, shared)
	}
	t.Logf("%d pages, %d shared files pinned", pages, shared)
}
