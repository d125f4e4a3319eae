package view

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/memharness/memharness/methods/registry"
	"github.com/memharness/memharness/runrecord"
)

// Server serves the runs and sweeps under one root directory.
type Server struct {
	root string
	log  *log.Logger

	mu   sync.Mutex
	runs map[string]*runEntry // by path relative to root

	// hosts are the Host headers answered (see guard); Serve narrows them
	// to the port it listens on.
	hosts atomic.Pointer[hostSet]
	// Kinds are the prediction method kinds whose entries say how to show
	// their memories (nil: the built-ins); set it before serving.
	Kinds *registry.Registry
	// timeouts of the HTTP server (tests shorten them).
	headerTimeout, readTimeout, writeTimeout, idleTimeout time.Duration
	// searchTime bounds a sample-list search (SearchTime).
	searchTime time.Duration
}

// runEntry loads a run once; concurrent first requests wait for it.
type runEntry struct {
	once  sync.Once
	ri    *runIndex
	err   error
	stamp runStamp
}

// runStamp is what tells a run changed on disk since it was loaded: a
// viewer opened while the run is written, or kept open over a resume,
// must not serve its first snapshot (whose line offsets no longer match
// the compacted sample log) for ever.
type runStamp struct {
	samplesSize, manifestSize int64
	samplesMod, manifestMod   time.Time
}

func stampOf(dir string) runStamp {
	var st runStamp
	if fi, err := statFile(dir, filepath.Join(dir, runrecord.SamplesFile)); err == nil {
		st.samplesSize, st.samplesMod = fi.Size(), fi.ModTime()
	}
	if fi, err := statFile(dir, filepath.Join(dir, runrecord.ManifestFile)); err == nil {
		st.manifestSize, st.manifestMod = fi.Size(), fi.ModTime()
	}
	return st
}

// NewServer serves root, a folder of runs (bench's runs/) or one run.
// Errors of a request are logged to logger (nil: discarded).
func NewServer(root string, logger *log.Logger) (*Server, error) {
	if _, err := os.Stat(root); err != nil {
		return nil, fmt.Errorf("view: %w", err)
	}
	if logger == nil {
		logger = log.New(discard{}, "", 0)
	}
	s := &Server{root: root, log: logger, runs: map[string]*runEntry{},
		headerTimeout: HeaderTimeout, readTimeout: ReadTimeout, writeTimeout: WriteTimeout, idleTimeout: IdleTimeout,
		searchTime: SearchTime}
	hs := loopbackHosts()
	s.hosts.Store(&hs)
	return s, nil
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// run returns the loaded run at rel, which must name a run folder inside
// the root.
func (s *Server) run(rel string) (*runIndex, error) {
	clean := path.Clean("/" + rel)[1:]
	if clean == "" {
		clean = "."
	}
	if clean != rel && !(rel == "" && clean == ".") {
		return nil, fmt.Errorf("no run %q", rel)
	}
	dir := filepath.Join(s.root, filepath.FromSlash(clean))
	// Through the root: a run folder linked from outside it is no run.
	if _, err := statFile(s.root, filepath.Join(dir, "manifest.json")); err != nil {
		return nil, fmt.Errorf("no run %q", rel)
	}
	stamp := stampOf(dir)
	s.mu.Lock()
	e := s.runs[clean]
	if e == nil || e.stamp != stamp {
		// New, or changed since it was loaded: load it afresh. Requests
		// already holding the old one finish with it.
		e = &runEntry{stamp: stamp}
		s.runs[clean] = e
	}
	s.mu.Unlock()
	e.once.Do(func() { e.ri, e.err = loadRun(dir, s.Kinds) })
	return e.ri, e.err
}

// warm indexes every run under the root, one after another, so that the
// first click on a large run finds it loaded.
func (s *Server) warm(ctx context.Context) {
	ents, err := discover(s.root)
	if err != nil {
		return
	}
	for _, e := range ents {
		if ctx.Err() != nil {
			return
		}
		if !e.Sweep {
			s.run(e.Rel)
		}
	}
}

// Handler returns the HTTP handler of the viewer. Until Serve binds it to
// a port it answers requests to localhost, 127.0.0.1 and [::1] at any port.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.home)
	mux.HandleFunc("GET /sweep", s.sweep)
	mux.HandleFunc("GET /run", s.page("run"))
	mux.HandleFunc("GET /table", s.page("table"))
	mux.HandleFunc("GET /samples", s.page("samples"))
	mux.HandleFunc("GET /sample", s.page("sample"))
	mux.HandleFunc("GET /instance", s.page("instance"))
	mux.HandleFunc("GET /static/"+ScriptName, serveScript)
	mux.HandleFunc("GET /transcripts", s.page("transcripts"))
	mux.HandleFunc("GET /stepinput", s.stepInput)
	mux.HandleFunc("GET /memory", s.page("memory"))
	mux.HandleFunc("GET /lifelong", s.page("lifelong"))
	mux.HandleFunc("GET /file", s.file)
	mux.HandleFunc("GET /calls", s.calls)
	mux.HandleFunc("GET /assets/{name}", s.asset)
	return s.guard(mux)
}

// RunLink is one run on the home page.
type RunLink struct {
	Name, URL, Backbone, Model, Data, Methods string
	Planned                                   string
	Status                                    RunStatus
}

// HomeData lists the runs and sweeps under the root.
type HomeData struct {
	Root   string
	Runs   []RunLink
	Sweeps []Link
}

func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	ents, err := discover(s.root)
	if err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	d := HomeData{Root: s.root}
	for _, e := range ents {
		if e.Sweep {
			d.Sweeps = append(d.Sweeps, Link{Label: e.Rel, URL: "/sweep?s=" + urlQuery(e.Rel)})
			continue
		}
		rl := RunLink{Name: e.Rel, URL: serverLinks{e.Rel}.run()}
		// The manifest alone: listing runs must not wait for their samples.
		dir := filepath.Join(s.root, filepath.FromSlash(e.Rel))
		mpath := filepath.Join(dir, runrecord.ManifestFile)
		if _, err := statFile(s.root, mpath); err != nil {
			continue // a manifest linked from outside the root
		}
		if m, err := runrecord.ReadManifest(mpath); err == nil {
			rl.Backbone, rl.Model, rl.Data = m.Backbone, m.Model, m.DataSource
			rl.Planned, rl.Status = plannedText(dir, m), runStatus(dir, m)
			rl.Methods = strings.Join(m.Methods, ", ")
		} else {
			rl.Data = "unreadable: " + err.Error()
		}
		d.Runs = append(d.Runs, rl)
	}
	s.write(w, "home", Page{Title: "memharness runs", Nav: Nav{Home: "/"}, Data: d})
}

// SweepData is a sweep's comparison with links to its variants.
type SweepData struct {
	HTML any
	Runs []Link
}

func (s *Server) sweep(w http.ResponseWriter, r *http.Request) {
	rel := r.URL.Query().Get("s")
	clean := path.Clean("/" + rel)[1:]
	if clean == "" {
		clean = "."
	}
	dir := filepath.Join(s.root, filepath.FromSlash(clean))
	src, err := readFile(s.root, filepath.Join(dir, "sweep.md"))
	if err != nil || clean != rel && rel != "" {
		s.fail(w, http.StatusNotFound, fmt.Errorf("no sweep %q", rel))
		return
	}
	ents, _ := discover(dir)
	var d SweepData
	for _, e := range ents {
		if !e.Sweep {
			rr := path.Join(clean, e.Rel)
			d.Runs = append(d.Runs, Link{Label: e.Rel, URL: serverLinks{rr}.run()})
		}
	}
	d.HTML = markdown(string(src), func(target string, image bool) string {
		if image && !strings.ContainsAny(target, `/\:`) {
			return "/file?" + "s=" + urlQuery(clean) + "&f=" + urlQuery(target)
		}
		return ""
	})
	s.write(w, "sweep", Page{Title: "Sweep " + clean, Nav: Nav{Home: "/"}, Data: d})
}

func (s *Server) page(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		rel := q.Get("r")
		ri, err := s.run(rel)
		if err != nil {
			s.fail(w, http.StatusNotFound, err)
			return
		}
		l := serverLinks{rel}
		p := Page{Nav: navOf(ri, displayName(rel, ri), l)}
		var data any
		switch name {
		case "run":
			p.Title = "Run " + displayName(rel, ri)
			data, err = runData(ri, l)
		case "table":
			p.Title = q.Get("f")
			data, err = tableData(ri, q.Get("f"), l)
		case "samples":
			f := Filter{Method: q.Get("method"), User: q.Get("user"), Field: q.Get("field"), Outcome: q.Get("outcome"),
				Q: q.Get("q"), Sort: q.Get("sort"), Desc: q.Get("desc") == "1"}
			page, _ := strconv.Atoi(q.Get("page"))
			p.Title = "Samples"
			var sd SamplesData
			// The search stops at the time budget or when the client
			// leaves, whichever comes first.
			ctx, cancel := context.WithTimeout(r.Context(), s.searchTime)
			sd, err = samplesDataCtx(ctx, ri, f, page, l, false)
			cancel()
			sd.Run = rel
			data = sd
		case "sample":
			p.Title = "Sample"
			var sd SampleData
			sd, err = sampleData(ri, q.Get("id"), 0)
			sd.SamplesURL = l.samples(Filter{Method: sd.Method}, 1)
			sd.InstanceURL = l.instance(instanceOf(&sd.Sample))
			sd.CallsURL = l.q("/calls", "sample", sd.ID)
			data = sd
		case "instance":
			p.Title = "Instance " + q.Get("i")
			data, err = instanceData(ri, q.Get("i"), l)
		case "transcripts":
			p.Title = "Transcripts of " + q.Get("method") + ", stage " + q.Get("stage")
			data, err = transcriptsData(ri, q.Get("method"), q.Get("stage"), l)
		case "memory":
			p.Title = "Memory of " + q.Get("method") + " for " + q.Get("user")
			var md MemoryData
			md, err = memoryData(ri, q.Get("method"), q.Get("user"), l)
			if q.Get("user") != "" {
				md.CallsURL = l.q("/calls", "method", q.Get("method"), "user", q.Get("user"))
			}
			data = md
		case "lifelong":
			p.Title = "Lifelong memory of " + q.Get("method")
			data, err = lifelongData(r.Context(), ri, q.Get("method"), l)
		}
		if err != nil {
			s.fail(w, http.StatusNotFound, err)
			return
		}
		p.Data = data
		s.write(w, name, p)
	}
}

// displayName names a run: its manifest name and variant, or its folder.
func displayName(rel string, ri *runIndex) string {
	n := ri.manifest.Name
	if ri.manifest.Variant != "" {
		n += " / " + ri.manifest.Variant
	}
	if n == "" {
		n = rel
	}
	return n
}

// file serves a report figure or table file of a run (r=) or a sweep (s=).
// Only files inside the run's report/ folder or the sweep folder, of the
// report's own types, are served.
func (s *Server) file(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var base, dir, name string
	if rel := q.Get("s"); rel != "" || q.Has("s") {
		clean := path.Clean("/" + rel)[1:]
		if clean == "" {
			clean = "."
		}
		base, dir, name = s.root, filepath.Join(s.root, filepath.FromSlash(clean)), q.Get("f")
	} else {
		ri, err := s.run(q.Get("r"))
		if err != nil {
			s.fail(w, http.StatusNotFound, err)
			return
		}
		rest, ok := strings.CutPrefix(q.Get("f"), "report/")
		if !ok {
			s.fail(w, http.StatusNotFound, errors.New("only report files are served"))
			return
		}
		base, dir, name = ri.dir, filepath.Join(ri.dir, "report"), rest
	}
	ext := path.Ext(name)
	if name != filepath.Base(name) || strings.HasPrefix(name, ".") {
		s.fail(w, http.StatusNotFound, fmt.Errorf("no file %q", name))
		return
	}
	switch ext {
	case ".png", ".csv", ".md", ".tex", ".json", ".yaml":
	default:
		s.fail(w, http.StatusNotFound, fmt.Errorf("no file %q", name))
		return
	}
	b, err := readFile(base, filepath.Join(dir, name))
	if err != nil {
		s.fail(w, http.StatusNotFound, fmt.Errorf("no file %q", name))
		return
	}
	ct := mime.TypeByExtension(ext)
	if ext != ".png" {
		ct = "text/plain; charset=utf-8" // never rendered as HTML
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Write(b)
}

func (s *Server) write(w http.ResponseWriter, name string, p Page) {
	var buf bytes.Buffer
	if err := render(&buf, name, p); err != nil {
		s.fail(w, http.StatusInternalServerError, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(buf.Bytes())
}

func (s *Server) fail(w http.ResponseWriter, code int, err error) {
	s.log.Printf("view: %v", err)
	var buf bytes.Buffer
	if rerr := render(&buf, "error", Page{Title: http.StatusText(code), Nav: Nav{Home: "/"}, Data: err.Error()}); rerr != nil {
		http.Error(w, err.Error(), code)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	w.Write(buf.Bytes())
}

// Serve runs the viewer on addr until ctx ends. It answers only requests
// that name the address it listens on, closes connections that stall, and
// warns on the logger when addr is reachable from other machines.
func Serve(ctx context.Context, addr string, s *Server, ready func(url string)) error {
	ln, err := listen(addr)
	if err != nil {
		return err
	}
	hs := hostsFor(ln.Addr())
	for _, n := range s.hosts.Load().extra {
		hs.names[n] = true
	}
	hs.extra = s.hosts.Load().extra
	s.hosts.Store(&hs)
	srv := &http.Server{Addr: addr, Handler: s.Handler(), ReadHeaderTimeout: s.headerTimeout, ReadTimeout: s.readTimeout,
		WriteTimeout: s.writeTimeout, IdleTimeout: s.idleTimeout, MaxHeaderBytes: 64 << 10,
		ErrorLog: log.New(discard{}, "", 0)}
	if w := exposureWarning(ln.Addr(), s.root); w != "" {
		s.log.Print(w)
	}
	if ready != nil {
		ready("http://" + ln.Addr().String() + "/")
	}
	go s.warm(ctx)
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
