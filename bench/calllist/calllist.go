// Package calllist turns the model calls a run recorded into the lines
// 'bench calls' prints: one JSON document or one text row a call, and
// the test of whether a call was made for a given user.
package calllist

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runstore"
)

// OfUser reports whether c was made for user: routed by the user's
// affinity, or building one of the user's memory files.
func OfUser(c runstore.Call, user string) bool {
	if c.Exchange != nil && c.Exchange.Affinity == user {
		return true
	}
	f, ok := c.File()
	if !ok {
		return false
	}
	for _, part := range strings.Split(f, "/") {
		if part == user || strings.TrimSuffix(part, ".json") == user {
			return true
		}
	}
	return false
}

// Line is one line of `bench calls --json`.
type Line struct {
	Unit      string    `json:"unit"`
	Index     int       `json:"index"`
	Purpose   string    `json:"purpose"`
	Cached    bool      `json:"cached"`
	Failed    bool      `json:"failed,omitempty"`
	Invalid   bool      `json:"invalid,omitempty"`
	Retries   int       `json:"retries,omitempty"`
	Usage     llm.Usage `json:"usage"`
	LatencyNS int64     `json:"latency_ns"`
	Lost      string    `json:"lost,omitempty"`
	Request   *request  `json:"request,omitempty"`
	Response  *answer   `json:"response,omitempty"`
	// Tool is set for a tool call of a method's memory server (no model
	// call: no request, response or usage).
	Tool *llm.ToolCall `json:"tool,omitempty"`
}

type request struct {
	Messages []llm.Message `json:"messages"`
	Params   llm.Params    `json:"params"`
	SampleID string        `json:"sample_id,omitempty"`
	Attempt  int           `json:"attempt,omitempty"`
	Repeat   int           `json:"repeat,omitempty"`
	Affinity string        `json:"affinity,omitempty"`
}

type answer struct {
	Text      string `json:"text"`
	Reasoning string `json:"reasoning,omitempty"`
	Model     string `json:"model,omitempty"`
	Endpoint  string `json:"endpoint,omitempty"`
	Error     string `json:"error,omitempty"`
}

// NewLine is the JSON line of c: its accounting, and its request and
// answer when the run kept the texts.
func NewLine(c runstore.Call) Line {
	l := Line{
		Unit: c.Unit, Index: c.Index, Purpose: c.Purpose, Cached: c.Cached, Failed: c.Failed, Invalid: c.Invalid,
		Retries: c.Retries, Usage: c.Usage, LatencyNS: c.LatencyNS, Lost: c.Lost,
	}
	l.Tool = c.Tool
	if ex := c.Exchange; ex != nil {
		l.Request = &request{Messages: ex.Messages, Params: ex.Params, SampleID: ex.SampleID, Attempt: ex.Attempt, Repeat: ex.Repeat, Affinity: ex.Affinity}
		l.Response = &answer{Text: ex.Text, Reasoning: ex.Reasoning, Model: ex.Model, Endpoint: ex.Endpoint, Error: ex.Error}
	}
	return l
}

// WriteRow prints one call as a line: unit, index, purpose, flags,
// tokens, latency, and the start of the last message and of the reply.
func WriteRow(w io.Writer, c runstore.Call) error {
	var flags []string
	for _, f := range []struct {
		on   bool
		name string
	}{{c.Cached, "cached"}, {c.Invalid, "invalid"}, {c.Failed, "failed"}} {
		if f.on {
			flags = append(flags, f.name)
		}
	}
	if t := c.Tool; t != nil {
		got := fmt.Sprintf("%d bytes sha256 %.12s", t.ResultBytes, t.ResultSHA256)
		if t.Error != "" {
			got = "error: " + t.Error
		}
		_, err := fmt.Fprintf(w, "%s #%d\ttool %s\t%s\t%s\targuments %d bytes sha256 %.12s\tgot %q\n", c.Unit, c.Index, t.Name,
			t.Method+"/"+t.User, time.Duration(t.LatencyNS).Round(time.Millisecond), t.ArgumentsBytes, t.ArgumentsSHA256, llm.Shorten(got, 60))
		return err
	}
	asked, answered := "", ""
	if ex := c.Exchange; ex != nil {
		if len(ex.Messages) > 0 {
			asked = ex.Messages[len(ex.Messages)-1].Content
		}
		answered = ex.Text
		if ex.Error != "" {
			answered = "error: " + ex.Error
		}
	}
	if c.Lost != "" {
		flags = append(flags, "texts-lost")
	}
	_, err := fmt.Fprintf(w, "%s #%d\t%s\t%s\t%d+%d tok\t%s\tasked %q\tgot %q\n", c.Unit, c.Index, c.Purpose,
		strings.Join(flags, ","), c.Usage.PromptTokens, c.Usage.CompletionTokens,
		time.Duration(c.LatencyNS).Round(time.Millisecond), tail(asked, 60), llm.Shorten(answered, 60))
	return err
}

// tail is the last n bytes of s (a prompt's question sits at its end),
// cut at a rune boundary.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && s[i]&0xC0 == 0x80 {
		i++
	}
	return "…" + s[i:]
}
