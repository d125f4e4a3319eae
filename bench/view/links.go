package view

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
)

// links builds the URLs between pages: query URLs for the server, file
// names for the static report. The pages are the same either way.
type links interface {
	home() string // "" when there is no list of runs (static report)
	run() string
	table(name string) string
	file(name string) string // a file of the run's report/ folder
	samples(f Filter, page int) string
	sample(id string, idx int) string
	transcripts(method, stage string) string
	memory(method, user string) string
	lifelong(method string) string
	// instance is the page comparing every method's answer to one
	// instance; "" where there is none (static reports).
	instance(inst string) string
	static() bool
}

// serverLinks addresses the pages of the run at rel under the served root.
type serverLinks struct{ rel string }

func (l serverLinks) q(path string, kv ...string) string {
	v := url.Values{}
	v.Set("r", l.rel)
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			v.Set(kv[i], kv[i+1])
		}
	}
	return path + "?" + v.Encode()
}

func (l serverLinks) home() string             { return "/" }
func (l serverLinks) run() string              { return l.q("/run") }
func (l serverLinks) table(name string) string { return l.q("/table", "f", name) }
func (l serverLinks) file(name string) string  { return l.q("/file", "f", "report/"+name) }
func (l serverLinks) samples(f Filter, page int) string {
	p := ""
	if page > 1 {
		p = fmt.Sprint(page)
	}
	desc := ""
	if f.Desc {
		desc = "1"
	}
	return l.q("/samples", "method", f.Method, "user", f.User, "field", f.Field, "outcome", f.Outcome, "q", f.Q,
		"sort", f.Sort, "desc", desc, "page", p)
}
func (l serverLinks) instance(inst string) string    { return l.q("/instance", "i", inst) }
func (l serverLinks) sample(id string, _ int) string { return l.q("/sample", "id", id) }
func (l serverLinks) transcripts(method, stage string) string {
	return l.q("/transcripts", "method", method, "stage", stage)
}
func (l serverLinks) memory(method, user string) string {
	return l.q("/memory", "method", method, "user", user)
}
func (l serverLinks) lifelong(method string) string { return l.q("/lifelong", "method", method) }
func (l serverLinks) static() bool                  { return false }

// staticLinks addresses the files of a static report: index.html in
// report/, every other page in report/html/. sub is true on the latter.
// Static sample lists exist per method (all users, fields and outcomes;
// the page's filter script narrows rows in place), and a sample's detail
// sits inline in its list page.
type staticLinks struct{ sub bool }

func (l staticLinks) page(name string) string {
	if l.sub {
		return name
	}
	return "html/" + name
}

func (l staticLinks) home() string { return "" }
func (l staticLinks) run() string {
	if l.sub {
		return "../index.html"
	}
	return "index.html"
}
func (l staticLinks) table(name string) string { return l.page("table-" + fileKey(name) + ".html") }
func (l staticLinks) file(name string) string {
	if l.sub {
		return "../" + name
	}
	return name
}
func (l staticLinks) samples(f Filter, page int) string {
	return l.page(samplesFile(f.Method, max(page, 1)))
}

// sample points into the all-methods list, which carries every sample's
// details inline (in log order, so sample idx sits on page idx/PageSize+1).
func (l staticLinks) sample(_ string, idx int) string {
	return l.page(samplesFile("", idx/PageSize+1)) + fmt.Sprintf("#s%d", idx)
}
func (l staticLinks) transcripts(method, stage string) string {
	return l.page("transcripts-" + fileKey(method) + "-" + fileKey(stage) + ".html")
}
func (l staticLinks) memory(method, user string) string {
	return l.page("memory-" + fileKey(method) + "-" + fileKey(user) + ".html")
}
func (l staticLinks) lifelong(method string) string {
	return l.page("lifelong-" + fileKey(method) + ".html")
}
func (l staticLinks) static() bool { return true }

func (l staticLinks) instance(string) string { return "" }

func samplesFile(method string, page int) string {
	m := "all"
	if method != "" {
		m = "m-" + fileKey(method)
	}
	return fmt.Sprintf("samples-%s-%d.html", m, page)
}

// fileKey makes a name safe as part of a file name; names it had to change
// get a hash so two names never share a file. Upper case counts as a change
// (a case-insensitive filesystem would fold "A" and "a" into one file), and
// long names are cut (a path element holds 255 bytes).
func fileKey(s string) string {
	safe := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '_'
	}, s)
	if safe == s && !strings.HasPrefix(s, ".") && len(s) <= maxKey {
		return s
	}
	h := sha256.Sum256([]byte(s))
	safe = strings.TrimLeft(safe, ".")
	if len(safe) > maxKey {
		safe = safe[:maxKey]
	}
	return safe + "~" + hex.EncodeToString(h[:4])
}

// maxKey bounds the readable part of a fileKey: a page name holds up to two
// keys besides its prefix and suffix.
const maxKey = 80
