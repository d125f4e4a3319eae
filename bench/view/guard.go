package view

import (
	"maps"
	"net"
	"net/http"
	"path"
	"slices"
	"strings"
	"time"
)

// Timeouts of the viewer's HTTP server: a connection that does not finish
// its request headers, its request or its next request in time is closed,
// so stalled or half-open connections cannot pile up.
const (
	HeaderTimeout = 10 * time.Second
	ReadTimeout   = 30 * time.Second
	WriteTimeout  = 2 * time.Minute // a large sample list to a slow client
	IdleTimeout   = 60 * time.Second
)

// csp allows the viewer's own script and style files and nothing inline
// but styles (attributes of the page templates); no plugin, frame or base.
const csp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; " +
	"object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

// hostSet is the Host headers the viewer answers: its loopback names and
// the addresses it listens on, at its port. A page on another site that
// makes the browser send a request here (DNS rebinding: evil.example
// resolving to 127.0.0.1) names its own host and is refused.
type hostSet struct {
	port  string          // "" until bound: any port (handlers under test)
	names map[string]bool // lower case, IPv6 without brackets
	extra []string        // names allowed by AllowHost, kept across Serve
}

func loopbackHosts() hostSet {
	return hostSet{names: map[string]bool{"localhost": true, "127.0.0.1": true, "::1": true}}
}

// hostsFor is the host set of a listener at addr.
func hostsFor(addr net.Addr) hostSet {
	hs := loopbackHosts()
	ta, ok := addr.(*net.TCPAddr)
	if !ok {
		return hs
	}
	hs.port = itoa(ta.Port)
	if ta.IP.IsUnspecified() {
		// Every interface: each of its addresses names this server.
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, a := range addrs {
				if n, ok := a.(*net.IPNet); ok {
					hs.names[n.IP.String()] = true
				}
			}
		}
	} else {
		hs.names[ta.IP.String()] = true
	}
	return hs
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// allows reports whether a request's Host header names this server.
func (hs hostSet) allows(host string) bool {
	name, port, err := net.SplitHostPort(host)
	if err != nil {
		// No port: the scheme's default, 80.
		name, port = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"), "80"
	}
	if hs.port != "" && port != hs.port {
		return false
	}
	if ip := net.ParseIP(name); ip != nil {
		name = ip.String()
	}
	return hs.names[strings.ToLower(name)]
}

// isLoopback reports whether addr accepts connections from this machine
// only.
func isLoopback(addr net.Addr) bool {
	ta, ok := addr.(*net.TCPAddr)
	return ok && ta.IP.IsLoopback()
}

// AllowHost makes the viewer also answer requests that name host (a name
// of this machine on the network, for a viewer shared on purpose), at the
// port it listens on.
func (s *Server) AllowHost(host string) {
	hs := *s.hosts.Load()
	hs.names = maps.Clone(hs.names)
	name := strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	hs.names[name] = true
	hs.extra = append(slices.Clone(hs.extra), name)
	s.hosts.Store(&hs)
}

// exposureWarning is the warning for a listener other machines can reach
// ("" for a loopback one).
func exposureWarning(addr net.Addr, root string) string {
	if isLoopback(addr) {
		return ""
	}
	return "WARNING: bench view listens on " + addr.String() + ", which other machines can reach: anyone on the network " +
		"can read every prompt, answer and memory under " + root + ", with no password. " +
		"Use --addr 127.0.0.1:PORT to keep it on this machine."
}

// guard refuses requests for another host (421) and sets the security
// headers of every response.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hosts.Load().allows(r.Host) {
			s.log.Printf("view: refused a request for host %q (not an address of this server)", r.Host)
			http.Error(w, "this viewer answers only requests to its own address (bench view --allow-host NAME adds a name)", http.StatusMisdirectedRequest)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		next.ServeHTTP(w, r)
	})
}

// asset serves the embedded scripts and styles the pages link
// (/assets/NAME.js, /assets/NAME.css).
func (s *Server) asset(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	var ct string
	switch path.Ext(name) {
	case ".js":
		ct = "text/javascript; charset=utf-8"
	case ".css":
		ct = "text/css; charset=utf-8"
	}
	b, err := assets.ReadFile("assets/" + name)
	if ct == "" || name != path.Base(name) || err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", ct)
	w.Write(b)
}
