package config

import (
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// Error is one problem in a config, placed at its source. Load and Expand
// return one Error, or several joined with errors.Join (one per line).
type Error struct {
	// Pos is "file.yaml:12", "--set key=value", or the file name alone when
	// the value was not written anywhere (a default).
	Pos string
	// Path is the field at fault ("methods[0].kind"); "" when Msg says it.
	Path string
	Msg  string
}

func (e *Error) Error() string {
	s := e.Msg
	if e.Path != "" {
		s = e.Path + ": " + s
	}
	if e.Pos != "" {
		s = e.Pos + ": " + s
	}
	return s
}

// source knows where nodes came from. Nodes created by a --set flag get a
// negative Line that indexes origins, so the mark survives deep copies.
type source struct {
	file    string
	origins []string
}

func (s *source) pos(n *yaml.Node) string {
	switch {
	case n == nil || n.Line == 0:
		return s.file
	case n.Line < 0 && -n.Line <= len(s.origins):
		return s.origins[-n.Line-1]
	default:
		return fmt.Sprintf("%s:%d", s.file, n.Line)
	}
}

// origin registers where command-line nodes come from and returns the
// (negative) line number that stands for it.
func (s *source) origin(what string) int {
	s.origins = append(s.origins, what)
	return -len(s.origins)
}

// stamp gives a whole subtree the line number line.
func stamp(n *yaml.Node, line int) {
	n.Line, n.Column = line, 0
	for _, c := range n.Content {
		stamp(c, line)
	}
}

func (s *source) errorf(n *yaml.Node, path, format string, args ...any) *Error {
	return &Error{Pos: s.pos(n), Path: path, Msg: fmt.Sprintf(format, args...)}
}

// place fills in the position of validation errors from the index of value
// nodes by path. A value copied from another field (from: path → source)
// points at the source, and is dropped when the source has its own error.
// Otherwise the nearest written ancestor is used, or the file alone.
func (s *source) place(err error, index map[string]*yaml.Node, from map[string]string) error {
	if err == nil {
		return nil
	}
	errs := unjoin(err)
	failed := map[string]bool{}
	for _, e := range errs {
		var ce *Error
		if errors.As(e, &ce) {
			failed[ce.Path] = true
		}
	}
	var out []error
	for _, e := range errs {
		var ce *Error
		if !errors.As(e, &ce) || ce.Pos != "" {
			out = append(out, e)
			continue
		}
		placed := *ce
		placed.Pos = s.file
		p := ce.Path
		if _, written := index[p]; !written && from[p] != "" {
			if failed[from[p]] {
				continue
			}
			placed.Msg += fmt.Sprintf(" (defaulted from %s)", from[p])
			p = from[p]
		}
		for ; p != ""; p = parentPath(p) {
			if n, ok := index[p]; ok && n.Line != 0 {
				placed.Pos = s.pos(n)
				break
			}
		}
		out = append(out, &placed)
	}
	return errors.Join(out...)
}

// unjoin flattens errors.Join trees.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, unjoin(e)...)
		}
		return out
	}
	return []error{err}
}

// parentPath drops the last key or index of a path string.
func parentPath(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		switch p[i] {
		case '.':
			return p[:i]
		case '[':
			return p[:i]
		}
	}
	return ""
}
