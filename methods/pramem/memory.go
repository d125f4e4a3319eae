package pramem

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
)

// ExpMemory is one user's experiential memory in the released layout
// (exp_memory/<name>/<user>_0.json): pattern entries, calibration (bias
// alert) entries and the pool of pending proposals, all plain strings.
type ExpMemory struct {
	UserExp  []string `json:"user_exp"`
	ModelExp []string `json:"model_exp"`
	Proposal []string `json:"proposal"`
}

// normalize replaces nil lists by empty ones, so the JSON always has three
// lists as the released files do.
func (m ExpMemory) normalize() ExpMemory {
	if m.UserExp == nil {
		m.UserExp = []string{}
	}
	if m.ModelExp == nil {
		m.ModelExp = []string{}
	}
	if m.Proposal == nil {
		m.Proposal = []string{}
	}
	return m
}

// Clone returns a deep copy.
func (m ExpMemory) Clone() ExpMemory {
	return ExpMemory{UserExp: slices.Clone(m.UserExp), ModelExp: slices.Clone(m.ModelExp), Proposal: slices.Clone(m.Proposal)}.normalize()
}

// Equal reports whether two memories hold the same entries.
func (m ExpMemory) Equal(o ExpMemory) bool {
	return slices.Equal(m.UserExp, o.UserExp) && slices.Equal(m.ModelExp, o.ModelExp) && slices.Equal(m.Proposal, o.Proposal)
}

// Sections of the memory shown at evaluation (the Figure 5 ablation).
const (
	SectionsBoth    = "both"
	SectionsPattern = "pattern"
	SectionsBias    = "bias"
)

// memoryData is what the "memory" template sees.
type memoryData struct {
	Pattern, Calibration, Proposal []string
	WithProposal                   bool
}

// render formats the memory as format_exp_memory does: both sections, a
// section left out by the sections ablation showing as empty, and the pool
// only when withProposal.
func (p *stagePrompts) render(m ExpMemory, sections string, withProposal bool) (string, error) {
	d := memoryData{Pattern: m.UserExp, Calibration: m.ModelExp, Proposal: m.Proposal, WithProposal: withProposal}
	switch sections {
	case SectionsPattern:
		d.Calibration = nil
	case SectionsBias:
		d.Pattern = nil
	}
	return p.exec("memory", d)
}

// evalBlock is the block appended after the question prompt at evaluation.
func (p *stagePrompts) evalBlock(m ExpMemory, sections string) (string, error) {
	mem, err := p.render(m, sections, false)
	if err != nil {
		return "", err
	}
	return p.exec("eval", struct{ Memory string }{mem})
}

// listNumber is the "N. " prefix the memory template puts before an entry.
var listNumber = lazyre.New(`(?m)^\d+\. `)

// plainEntries is a rendered memory with the list numbering removed, so
// that each entry is a line of its own as written (the sim backbone parses
// fact lines, which may not start with a number).
func plainEntries(rendered string) string {
	return listNumber.ReplaceAllString(rendered, "")
}

// initMemory is the memory before practice: empty (released code) or the
// paper's seed — the profile as a pattern entry and generic bias alerts.
func (p *stagePrompts) initMemory(mode, profile string) (ExpMemory, error) {
	m := ExpMemory{}.normalize()
	if mode != InitPaper {
		return m, nil
	}
	if profile = strings.TrimSpace(profile); profile != "" {
		s, err := p.exec("init_pattern", struct{ Profile string }{profile})
		if err != nil {
			return m, err
		}
		m.UserExp = append(m.UserExp, s)
	}
	s, err := p.exec("init_calibration", nil)
	if err != nil {
		return m, err
	}
	for line := range strings.Lines(s) {
		if line = strings.TrimSpace(line); line != "" {
			m.ModelExp = append(m.ModelExp, line)
		}
	}
	return m, nil
}

// errNoMemory marks a user without a memory file.
var errNoMemory = errors.New("no memory file")

// loadMemoryFile reads <dir>/<user>_0.json as written by the authors' code
// (or by this package). Entries that are not strings are kept as their JSON
// text: the released review step does not type-check them.
func loadMemoryFile(dir, user string) (ExpMemory, error) {
	// The authors' layout names files by the raw ID; an ID that is not one
	// path element would name a file outside dir, so it has none.
	if user == "" || user == "." || user == ".." || strings.ContainsAny(user, "/\\\x00") {
		return ExpMemory{}, fmt.Errorf("pramem: user ID %q cannot name a file in %s: %w", user, dir, errNoMemory)
	}
	path := filepath.Join(dir, user+"_0.json")
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return ExpMemory{}, fmt.Errorf("pramem: %s: %w", path, errNoMemory)
	}
	if err != nil {
		return ExpMemory{}, fmt.Errorf("pramem: %w", err)
	}
	m, ok, err := decodeMemory(b)
	if err != nil {
		return ExpMemory{}, fmt.Errorf("pramem: %s: %w", path, err)
	}
	if !ok {
		return ExpMemory{}, fmt.Errorf("pramem: %s: want the keys user_exp, model_exp and proposal", path)
	}
	return m, nil
}

// decodeMemory decodes a memory object; ok is false unless all three keys
// are present (the review's acceptance rule).
func decodeMemory(b []byte) (ExpMemory, bool, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return ExpMemory{}, false, err
	}
	var m ExpMemory
	for _, k := range []struct {
		key string
		dst *[]string
	}{{"user_exp", &m.UserExp}, {"model_exp", &m.ModelExp}, {"proposal", &m.Proposal}} {
		v, ok := raw[k.key]
		if !ok {
			return ExpMemory{}, false, nil
		}
		*k.dst = stringList(v)
	}
	return m.normalize(), true, nil
}

// stringList coerces a JSON value to a list of strings: a list keeps its
// strings and renders other elements as compact JSON; a single string is a
// one-entry list; null is empty; any other value is one entry of its JSON.
func stringList(v json.RawMessage) []string {
	var list []json.RawMessage
	if err := json.Unmarshal(v, &list); err != nil {
		var s string
		if json.Unmarshal(v, &s) == nil {
			return []string{s}
		}
		if t := strings.TrimSpace(string(v)); t != "" && t != "null" {
			return []string{t}
		}
		return []string{}
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		var s string
		if json.Unmarshal(e, &s) == nil {
			out = append(out, s)
			continue
		}
		var c bytes.Buffer
		if err := json.Compact(&c, e); err == nil {
			out = append(out, c.String())
		} else {
			out = append(out, string(e))
		}
	}
	return out
}
