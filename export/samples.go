package export

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// item is one evaluated sample as every format needs it: a prediction
// (one question of one user) or an agent episode (one task of one
// lifelong cell).
type item struct {
	ID     string // unique within its method's log
	Method string
	// Group is what the sample is scored under: the question's field, or
	// the environment.
	Group string
	Agent bool
	// Input is the exact messages of the call that produced the answer
	// (an agent's first step); Messages the whole exchange ending with
	// the model's reply (an agent's transcript).
	Input    []llm.Message
	Messages []llm.Message
	Target   string
	Output   string // the model's final text
	Answer   string // the parsed answer, or the agent's last action
	Score    float64
	Correct  bool
	Valid    bool
	// Explanation says how the score came about (parsed answer, invalid
	// draws, how the episode ended).
	Explanation  string
	InvalidDraws []string
	Metadata     map[string]any
	Calls        []callUsage
	Usage        llm.Usage
	LatencyMS    float64
	Error        string
	Turns        int
}

// callUsage is one model call an item paid for.
type callUsage struct {
	Purpose          string  `json:"purpose"`
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	CachedTokens     int     `json:"cached_tokens,omitempty"`
	Cost             float64 `json:"cost,omitempty"`
	Cached           bool    `json:"cached,omitempty"`
	Invalid          bool    `json:"invalid,omitempty"`
	LatencyMS        float64 `json:"latency_ms"`
}

func usageOf(c runstore.Call) callUsage {
	return callUsage{Purpose: c.Purpose, PromptTokens: c.Usage.PromptTokens, CompletionTokens: c.Usage.CompletionTokens,
		CachedTokens: c.Usage.CachedTokens, Cost: c.Usage.Cost, Cached: c.Cached, Invalid: c.Invalid,
		LatencyMS: float64(c.LatencyNS) / 1e6}
}

// calls is the run's call record, read one item's calls at a time. A
// compacted run's journal holds its samples' lines in samples.jsonl's
// order, so a pass over the samples walks the journal beside them (a
// cursor) and holds nothing; only when a unit is not where the order says
// (a run that was never compacted, a lifelong run's cells, a sample without
// calls) is the journal indexed, once: a unit name and an offset per line.
type calls struct {
	rec   *runstore.CallRecord
	index map[string][]runrecord.Span
	// The cursor: the journal's units in order, and one read ahead.
	next    func() (string, runrecord.Span, bool)
	stop    func()
	ahead   *unitLine
	walkErr error
}

type unitLine struct {
	unit string
	sp   runrecord.Span
}

var errStopWalk = errors.New("stop")

func openCalls(dir string) (*calls, error) {
	rec, err := runstore.OpenCalls(dir)
	if err != nil {
		return nil, err
	}
	return &calls{rec: rec}, nil
}

func (c *calls) Close() error {
	if c.stop != nil {
		c.stop()
	}
	return c.rec.Close()
}

// rewind starts the cursor again at the journal's first line (each pass
// over the samples walks it once).
func (c *calls) rewind() {
	if c == nil || c.index != nil {
		return
	}
	if c.stop != nil {
		c.stop()
	}
	c.ahead, c.walkErr = nil, nil
	c.next, c.stop = iter.Pull2(func(yield func(string, runrecord.Span) bool) {
		err := c.rec.EachUnit(func(u string, sp runrecord.Span) error {
			if !yield(u, sp) {
				return errStopWalk
			}
			return nil
		})
		if err != nil && !errors.Is(err, errStopWalk) {
			c.walkErr = err
		}
	})
}

func (c *calls) indexed() error {
	if c.index != nil {
		return nil
	}
	if c.stop != nil {
		c.stop()
		c.next, c.stop = nil, nil
	}
	idx, err := c.rec.IndexUnits()
	if err != nil {
		return err
	}
	c.index = idx
	return nil
}

func (c *calls) of(unit string) ([]runstore.Call, error) {
	if c == nil {
		return nil, nil // a pass that needs no call record
	}
	if c.index == nil && c.next != nil {
		spans, found, err := c.walkTo(unit)
		if err != nil {
			return nil, err
		}
		if found {
			return c.rec.OfLines(spans)
		}
	}
	if err := c.indexed(); err != nil {
		return nil, err
	}
	sp := c.index[unit]
	if len(sp) == 0 {
		return nil, nil
	}
	return c.rec.OfLines(sp)
}

// walkTo moves the cursor to unit's lines and past them; found is false
// when the journal ended first (the unit is elsewhere or absent).
func (c *calls) walkTo(unit string) ([]runrecord.Span, bool, error) {
	pull := func() (unitLine, bool) {
		if c.ahead != nil {
			l := *c.ahead
			c.ahead = nil
			return l, true
		}
		u, sp, ok := c.next()
		return unitLine{u, sp}, ok
	}
	var spans []runrecord.Span
	for {
		l, ok := pull()
		if !ok {
			if c.walkErr != nil {
				return nil, false, c.walkErr
			}
			c.stop()
			c.next, c.stop = nil, nil
			return spans, len(spans) > 0, nil
		}
		if l.unit == unit {
			spans = append(spans, l.sp)
			continue
		}
		if len(spans) > 0 {
			c.ahead = &l
			return spans, true, nil
		}
	}
}

// eachItem calls fn with every sample of method, in the run's order.
func (r *run) eachItem(cs *calls, method string, fn func(item) error) error {
	cs.rewind()
	if r.lifelong {
		return r.eachEpisode(cs, method, fn)
	}
	return r.eachPrediction(cs, method, fn)
}

func (r *run) eachPrediction(cs *calls, method string, fn func(item) error) error {
	path := filepath.Join(r.dir, runrecord.SamplesFile)
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("samples: %w", err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	for line := 1; ; line++ {
		b, rerr := br.ReadBytes('\n')
		if len(b) > 0 && b[len(b)-1] == '\n' {
			var s runrecord.Sample
			if err := json.Unmarshal(b, &s); err != nil {
				return fmt.Errorf("%s:%d: %w", path, line, err)
			}
			if s.Method == method {
				cl, err := cs.of(runstore.SampleUnit(s.ID))
				if err != nil {
					return fmt.Errorf("%s:%d: sample %s: %w", path, line, s.ID, err)
				}
				if err := fn(predictionItem(s, cl)); err != nil {
					return err
				}
			}
		}
		if rerr != nil {
			if errors.Is(rerr, io.EOF) {
				return nil // a torn last line is the store's to repair, not ours
			}
			return fmt.Errorf("%s:%d: %w", path, line, rerr)
		}
	}
}

func predictionItem(s runrecord.Sample, cl []runstore.Call) item {
	it := item{
		ID: strings.TrimPrefix(s.ID, s.Method+"/"), Method: s.Method, Group: s.Field,
		Target: s.Label, Output: s.Raw, Answer: s.Pred, Valid: s.Valid, Correct: s.Valid && s.Pred == s.Label,
		Error: s.Error, LatencyMS: s.LatencyMS, Turns: 1,
		Usage: llm.Usage{PromptTokens: s.PromptTokens, CompletionTokens: s.CompletionTokens, Cost: s.Cost},
		Metadata: map[string]any{
			"method": s.Method, "dataset": s.Dataset, "user": s.User, "index": s.Index,
			"question_type": s.Field, "kind": s.Kind, "valid": s.Valid, "attempts": s.Attempts,
			"history_records": s.HistoryRecords, "history_tokens": s.HistoryTokens, "memory_tokens": s.MemoryTokens,
		},
	}
	if s.Scene != "" {
		it.Metadata["scene"] = s.Scene
	}
	if it.Correct {
		it.Score = 1
	}
	// The answer's request is the last judged call's (the final draw), as
	// the run store's SamplePrompt picks it.
	pick := -1
	for i, c := range cl {
		if c.Tool != nil {
			continue // a memory server's tool call, not a model call
		}
		it.Calls = append(it.Calls, usageOf(c))
		if c.Invalid && c.InvalidText != "" {
			it.InvalidDraws = append(it.InvalidDraws, c.InvalidText)
		}
		if c.Exchange != nil && (c.Judged || pick < 0 || !cl[pick].Judged) {
			pick = i
		}
	}
	if pick >= 0 {
		ex := cl[pick].Exchange
		it.Input = slices.Clone(ex.Messages)
		it.Messages = append(slices.Clone(ex.Messages), llm.Message{Role: "assistant", Content: ex.Text})
	} else if s.Raw != "" {
		it.Messages = []llm.Message{{Role: "assistant", Content: s.Raw}}
	}
	invalid := s.Attempts - 1
	if !s.Valid {
		invalid = s.Attempts
	}
	switch {
	case s.Error != "":
		it.Explanation = "the sample failed: " + s.Error
	case s.Valid:
		it.Explanation = fmt.Sprintf("parsed answer %q from draw %d of %d (%d invalid draws); label %q", s.Pred, s.Attempts, s.Attempts, invalid, s.Label)
	default:
		it.Explanation = fmt.Sprintf("no valid answer in %d draws; label %q", s.Attempts, s.Label)
	}
	it.Metadata["invalid_draws"] = invalid
	return it
}

// eachEpisode walks a lifelong method's cells in stage order (the stream's
// stages, then "ood" and "self"), one cell's transcripts at a time.
func (r *run) eachEpisode(cs *calls, method string, fn func(item) error) error {
	mdir := filepath.Join(r.dir, "lifelong", method)
	stages, err := os.ReadDir(filepath.Join(mdir, "cells"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	store := lifelong.FileStore{Dir: mdir}
	for _, st := range stages {
		if !st.IsDir() {
			continue
		}
		files, err := os.ReadDir(filepath.Join(mdir, "cells", st.Name()))
		if err != nil {
			return err
		}
		for _, f := range files {
			env, ok := strings.CutSuffix(f.Name(), ".json")
			if !ok || f.IsDir() {
				continue
			}
			cell, found, err := store.Load(lifelong.CellKey{Stage: st.Name(), Env: env})
			if err != nil {
				return err
			}
			if !found {
				continue
			}
			unit := "file:" + filepath.ToSlash(filepath.Join("lifelong", method, "cells", st.Name(), f.Name()))
			cl, err := cs.of(unit)
			if err != nil {
				return fmt.Errorf("cell %s/%s of %s: %w", st.Name(), env, method, err)
			}
			for i, t := range cell.Tasks {
				var tr *envs.Transcript
				if i < len(cell.Transcripts) && cell.Transcripts[i].Task == t.Task {
					tr = &cell.Transcripts[i]
				}
				if err := fn(episodeItem(method, cell, t, tr, cl)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func episodeItem(method string, cell lifelong.CellResult, t lifelong.TaskResult, tr *envs.Transcript, cl []runstore.Call) item {
	it := item{
		ID: cell.Stage + "/" + cell.Env + "/" + t.Task, Method: method, Group: cell.Env, Agent: true,
		Score: t.Score, Correct: t.Score >= 1, Valid: !t.Error,
		Metadata: map[string]any{
			"method": method, "stage": cell.Stage, "row": cell.Row, "environment": cell.Env, "task": t.Task,
			"steps": t.Steps, "invalid_actions": t.Invalid, "end": t.End,
		},
	}
	if t.Error {
		it.Error = t.End
	}
	// A step's call names its task: "<method>/<env>/<task>/<step>".
	mark := "/" + cell.Env + "/" + t.Task + "/"
	var first, last *llm.Exchange
	for _, c := range cl {
		if c.Exchange == nil || !strings.Contains("/"+c.Exchange.SampleID, mark) {
			continue
		}
		it.Calls = append(it.Calls, usageOf(c))
		it.Usage = it.Usage.Add(c.Usage)
		it.LatencyMS += float64(c.LatencyNS) / 1e6
		if c.Invalid && c.InvalidText != "" {
			it.InvalidDraws = append(it.InvalidDraws, c.InvalidText)
		}
		if first == nil {
			first = c.Exchange
		}
		last = c.Exchange
	}
	if first != nil {
		it.Input = slices.Clone(first.Messages)
	}
	// The transcript as messages: the system prompt the agent saw, then
	// the environment's turns as the user's and the agent's as its own.
	if first != nil && len(first.Messages) > 0 && first.Messages[0].Role == "system" {
		it.Messages = append(it.Messages, first.Messages[0])
	}
	if tr != nil {
		for _, turn := range tr.Turns {
			role := "user"
			if turn.Role == "agent" {
				role = "assistant"
				it.Answer, it.Output = turn.Text, turn.Text
			}
			it.Messages = append(it.Messages, llm.Message{Role: role, Content: turn.Text})
		}
		it.Turns = len(tr.Turns)
	} else if last != nil {
		it.Messages = append(slices.Clone(last.Messages), llm.Message{Role: "assistant", Content: last.Text})
		it.Answer, it.Output = last.Text, last.Text
		it.Turns = len(it.Messages)
	}
	if it.Input == nil && len(it.Messages) > 0 {
		it.Input = it.Messages[:1]
		if it.Input[0].Role == "system" && len(it.Messages) > 1 {
			it.Input = it.Messages[:2]
		}
	}
	it.Explanation = "episode ended: " + t.End + " after " + strconv.Itoa(t.Steps) + " steps, " +
		strconv.Itoa(t.Invalid) + " invalid actions; score " + strconv.FormatFloat(t.Score, 'f', -1, 64)
	return it
}
