package miniwob

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// runtimeFS holds our own page runtime (core.js, core.css).
//
//go:embed runtime/core.js runtime/core.css
var runtimeFS embed.FS

// libFiles maps the paths MiniWoB++ pages load (relative to the html root)
// to files of the npm packages in envs/miniwob/js/node_modules.
var libFiles = map[string]string{
	"core/d3.v3.min.js":                        "d3/d3.min.js",
	"core/jquery-ui/external/jquery/jquery.js": "jquery/dist/jquery.min.js",
	"core/jquery-ui/jquery-ui.min.js":          "jquery-ui/dist/jquery-ui.min.js",
	"core/jquery-ui/jquery-ui.min.css":         "jquery-ui/dist/themes/base/jquery-ui.min.css",
	"core/seedrandom.min.js":                   "seedrandom/seedrandom.min.js",
}

// server serves one html root over loopback HTTP: the task pages (embedded
// or from a MiniWoB++ checkout), our runtime at core/core.js, and the npm
// libraries. Loopback HTTP rather than file:// keeps every page in one
// origin and lets us substitute the runtime without touching the checkout.
type server struct {
	srv  *http.Server
	base string // http://127.0.0.1:port/
	core []byte // seedrandom + our runtime, served as core/core.js
}

func startServer(pages fs.FS, nodeModules string) (*server, error) {
	seed, err := os.ReadFile(filepath.Join(nodeModules, "seedrandom", "seedrandom.min.js"))
	if err != nil {
		return nil, fmt.Errorf("miniwob: read npm seedrandom (run scripts/ci-chromium.sh): %w", err)
	}
	rt, err := runtimeFS.ReadFile("runtime/core.js")
	if err != nil {
		return nil, fmt.Errorf("miniwob: runtime: %w", err)
	}
	s := &server{core: bytes.Join([][]byte{seed, rt}, []byte("\n;\n"))}
	libs := os.DirFS(nodeModules)
	own, _ := fs.Sub(runtimeFS, "runtime")
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		switch {
		case name == "core/core.js":
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			_, _ = w.Write(s.core)
			return
		case libFiles[name] != "":
			http.ServeFileFS(w, r, libs, libFiles[name])
			return
		case strings.HasPrefix(name, "core/jquery-ui/images/"):
			http.ServeFileFS(w, r, libs, "jquery-ui/dist/themes/base/images/"+path.Base(name))
			return
		}
		if fileExists(pages, name) {
			http.ServeFileFS(w, r, pages, name)
			return
		}
		if own2 := strings.TrimPrefix(name, "core/"); own2 != name && fileExists(own, own2) {
			http.ServeFileFS(w, r, own, own2)
			return
		}
		http.NotFound(w, r)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("miniwob: listen on loopback: %w", err)
	}
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	s.base = "http://" + ln.Addr().String() + "/"
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// pageURL is the address of a task page (miniwob/<page>.html).
func (s *server) pageURL(page string) string {
	return s.base + "miniwob/" + page + ".html"
}

func (s *server) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return s.srv.Close()
	}
	return nil
}

func fileExists(fsys fs.FS, name string) bool {
	if !fs.ValidPath(name) || name == "." {
		return false
	}
	st, err := fs.Stat(fsys, name)
	return err == nil && !st.IsDir()
}
