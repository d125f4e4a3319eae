package view

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runstore"
)

// CallsData is the page of a run's recorded model calls for one sample or
// for one user's memory construction.
type CallsData struct {
	What  string // what the calls are of, in words
	Back  string // the page that linked here
	Calls []CallView
	// Note says why a list is empty (a run from before the call record).
	Note string
}

// CallView is one call as the page shows it.
type CallView struct {
	N int
	// Step is the saved state the call built (a checkpoint, a memory
	// file) or the sample it answered.
	Step, Purpose, Flags string
	PromptTokens         int
	CompletionTokens     int
	Latency              string
	Params               string
	Messages             []llm.Message
	Text, Reasoning      string
	Error                string
}

// callsOfSample is the calls page's data for sample id.
func callsOfSample(dir, id string) (CallsData, error) {
	unit := runstore.SampleUnit(id)
	d, err := readCalls(dir, func(u string) bool { return u == unit })
	d.What = "sample " + id
	return d, err
}

// callsOfMemory is the calls page's data for user's memory of method: the
// calls journalled with the memory file and with the user's checkpoints
// (the construction steps; methods sharing a construction share them).
func callsOfMemory(dir, method, user string) (CallsData, error) {
	mem := "file:" + path.Join("memory", method, user+".json")
	ckpt := "file:" + path.Join("checkpoints", user) + "/"
	d, err := readCalls(dir, func(u string) bool { return u == mem || strings.HasPrefix(u, ckpt) })
	d.What = fmt.Sprintf("the memory of %s for user %s", method, user)
	return d, err
}

func readCalls(dir string, keep func(string) bool) (CallsData, error) {
	var d CallsData
	cr, err := runstore.OpenCallsWithin(dir)
	if err != nil {
		return d, err
	}
	defer cr.Close()
	err = cr.Each(keep, func(c runstore.Call) error {
		d.Calls = append(d.Calls, callView(len(d.Calls)+1, c))
		return nil
	})
	if err == nil && len(d.Calls) == 0 {
		d.Note = "No calls recorded for this (the run predates the call record, or none were made)."
	}
	return d, err
}

func callView(n int, c runstore.Call) CallView {
	v := CallView{N: n, Purpose: c.Purpose, PromptTokens: c.Usage.PromptTokens, CompletionTokens: c.Usage.CompletionTokens,
		Latency: time.Duration(c.LatencyNS).Round(time.Millisecond).String()}
	v.Step = strings.TrimPrefix(strings.TrimPrefix(c.Unit, "file:"), "sample:")
	var flags []string
	for _, f := range []struct {
		on   bool
		name string
	}{{c.Cached, "cached"}, {c.Invalid, "invalid"}, {c.Failed, "failed"}} {
		if f.on {
			flags = append(flags, f.name)
		}
	}
	v.Flags = strings.Join(flags, ", ")
	if t := c.Tool; t != nil {
		// A tool call of the method's memory server: no prompt, no reply.
		v.Purpose = "tool " + t.Name
		v.Latency = time.Duration(t.LatencyNS).Round(time.Millisecond).String()
		v.Text = fmt.Sprintf("arguments %d bytes (sha256 %s), result %d bytes (sha256 %s)", t.ArgumentsBytes, t.ArgumentsSHA256, t.ResultBytes, t.ResultSHA256)
		v.Error = t.Error
	}
	if ex := c.Exchange; ex != nil {
		b, _ := json.Marshal(ex.Params) // plain struct: cannot fail
		v.Params = fmt.Sprintf("%s attempt %d", b, ex.Attempt)
		v.Messages, v.Text, v.Reasoning, v.Error = ex.Messages, ex.Text, ex.Reasoning, ex.Error
	}
	return v
}

// calls serves /calls?r=RUN&sample=ID or &method=M&user=U.
func (s *Server) calls(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	rel := q.Get("r")
	ri, err := s.run(rel)
	if err != nil {
		s.fail(w, http.StatusNotFound, err)
		return
	}
	l := serverLinks{rel}
	p := Page{Nav: navOf(ri, displayName(rel, ri), l)}
	var d CallsData
	switch {
	case q.Get("sample") != "":
		d, err = callsOfSample(ri.dir, q.Get("sample"))
		d.Back = l.q("/sample", "id", q.Get("sample"))
	case q.Get("method") != "" && q.Get("user") != "":
		d, err = callsOfMemory(ri.dir, q.Get("method"), q.Get("user"))
		d.Back = l.q("/memory", "method", q.Get("method"), "user", q.Get("user"))
	default:
		err = fmt.Errorf("calls: give sample=ID, or method=M and user=U")
	}
	if err != nil {
		s.fail(w, http.StatusNotFound, err)
		return
	}
	p.Title = "Model calls of " + d.What
	p.Data = d
	s.write(w, "calls", p)
}
