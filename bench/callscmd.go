package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runlog"
	"github.com/memharness/memharness/runstore"
)

func cmdCalls(ctx context.Context, stdio IO, args []string) error {
	fs := newFlags(stdio.Err, "calls", "calls RUNDIR [--purpose P] [--user U] [--sample ID] [--json]",
		"Prints the model calls a run recorded: every sample's calls and every memory-construction call,\n"+
			"each draw (invalid ones included), in the order they were saved. With --json, one JSON object\n"+
			"per line holding the request as sent (messages and sampling parameters, never credentials)\n"+
			"and the reply, e.g. to replay the run's requests against another endpoint.")
	purpose := fs.String("purpose", "", "only calls of this purpose (e.g. predict, pramem.reflect, mem0.extract)")
	user := fs.String("user", "", "only calls made for this user (routing affinity, or the user's memory files)")
	sample := fs.String("sample", "", "only the calls of this sample ID")
	asJSON := fs.Bool("json", false, "print JSON lines instead of a table")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return errUsage
	}
	run := pos[0]
	if !isRunDir(run) {
		if below := runDirsBelow(run, 4); len(below) > 0 {
			return fmt.Errorf("%s is not a run directory; pass one of: %s", run, strings.Join(below, ", "))
		}
		return fmt.Errorf("%s is not a run directory (no %s)", run, runlog.ManifestFile)
	}
	cr, err := runstore.OpenCalls(run)
	if err != nil {
		return err
	}
	defer cr.Close()
	var keep func(string) bool
	if *sample != "" {
		unit := runstore.SampleUnit(*sample)
		keep = func(u string) bool { return u == unit }
	}
	n, lost := 0, 0
	purposes := map[string]int{}
	err = cr.Each(keep, func(c runstore.Call) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		purposes[c.Purpose]++
		if *purpose != "" && c.Purpose != *purpose || *user != "" && !callOfUser(c, *user) {
			return nil
		}
		n++
		if c.Lost != "" {
			lost++
		}
		if *asJSON {
			b, err := json.Marshal(newCallLine(c))
			if err != nil {
				return fmt.Errorf("encode call %d of %s: %w", c.Index, c.Unit, err)
			}
			_, err = fmt.Fprintf(stdio.Out, "%s\n", b)
			return err
		}
		return writeCallRow(stdio.Out, c)
	})
	if err != nil {
		return err
	}
	if n == 0 && *purpose != "" && purposes[*purpose] == 0 && len(purposes) > 0 {
		names := make([]string, 0, len(purposes))
		for p, k := range purposes {
			names = append(names, fmt.Sprintf("%s (%d)", p, k))
		}
		sort.Strings(names)
		return fmt.Errorf("no recorded call has purpose %q; the run's purposes: %s", *purpose, strings.Join(names, ", "))
	}
	if n == 0 && !*asJSON {
		fmt.Fprintln(stdio.Err, "no recorded calls match (runs made before the call record keep usage only)")
	}
	if lost > 0 {
		var why []string
		for _, d := range cr.Damage() {
			why = append(why, runlog.ChunksFile+" damaged at "+d.String())
		}
		if len(why) == 0 {
			why = append(why, runlog.ChunksFile+" cut short or deleted")
		}
		return fmt.Errorf("%d of the %d calls listed have lost their request and reply texts (%s); every readable call is listed",
			lost, n, strings.Join(why, "; "))
	}
	return nil
}

// callOfUser reports whether c was made for user: routed by the user's
// affinity, or building one of the user's memory files.
func callOfUser(c runstore.Call, user string) bool {
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

// callLine is one line of `bench calls --json`.
type callLine struct {
	Unit      string      `json:"unit"`
	Index     int         `json:"index"`
	Purpose   string      `json:"purpose"`
	Cached    bool        `json:"cached"`
	Failed    bool        `json:"failed,omitempty"`
	Invalid   bool        `json:"invalid,omitempty"`
	Retries   int         `json:"retries,omitempty"`
	Usage     llm.Usage   `json:"usage"`
	LatencyNS int64       `json:"latency_ns"`
	Lost      string      `json:"lost,omitempty"`
	Request   *callReq    `json:"request,omitempty"`
	Response  *callAnswer `json:"response,omitempty"`
}

type callReq struct {
	Messages []llm.Message `json:"messages"`
	Params   llm.Params    `json:"params"`
	SampleID string        `json:"sample_id,omitempty"`
	Attempt  int           `json:"attempt,omitempty"`
	Affinity string        `json:"affinity,omitempty"`
}

type callAnswer struct {
	Text      string `json:"text"`
	Reasoning string `json:"reasoning,omitempty"`
	Model     string `json:"model,omitempty"`
	Endpoint  string `json:"endpoint,omitempty"`
	Error     string `json:"error,omitempty"`
}

func newCallLine(c runstore.Call) callLine {
	l := callLine{
		Unit: c.Unit, Index: c.Index, Purpose: c.Purpose, Cached: c.Cached, Failed: c.Failed, Invalid: c.Invalid,
		Retries: c.Retries, Usage: c.Usage, LatencyNS: c.LatencyNS, Lost: c.Lost,
	}
	if ex := c.Exchange; ex != nil {
		l.Request = &callReq{Messages: ex.Messages, Params: ex.Params, SampleID: ex.SampleID, Attempt: ex.Attempt, Affinity: ex.Affinity}
		l.Response = &callAnswer{Text: ex.Text, Reasoning: ex.Reasoning, Model: ex.Model, Endpoint: ex.Endpoint, Error: ex.Error}
	}
	return l
}

// writeCallRow prints one call as a line: unit, index, purpose, flags,
// tokens, latency, and the start of the last message and of the reply.
func writeCallRow(w io.Writer, c runstore.Call) error {
	var flags []string
	for _, f := range []struct {
		on   bool
		name string
	}{{c.Cached, "cached"}, {c.Invalid, "invalid"}, {c.Failed, "failed"}} {
		if f.on {
			flags = append(flags, f.name)
		}
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
