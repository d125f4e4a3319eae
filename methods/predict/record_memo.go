package predict

import (
	"reflect"
	"strconv"
	"strings"
	"sync"
	"text/template/parse"

	"github.com/memharness/memharness/llm/tokens"
)

// recordMemo makes history records cheap. Every sample of a user walks
// back over the same history (SelectWindow costs each record, then
// HistoryBlock renders the visible ones), so without it a run renders and
// token-counts each record once per sample that shows it, through
// text/template. With it:
//   - a record's cost is computed once per distinct record and counter (a
//     counter is a pure function of the text; one whose type cannot be a
//     map key, such as a CounterFunc, is not memoised);
//   - the "record" template, when it is plain text, fields and ifs on
//     fields (the embedded ones are), runs as a compiled list of pieces
//     instead of through text/template's reflection. Any other template
//     keeps going through text/template.
//
// Both give byte-identical text to text/template: the cost key is the
// record's full template data, and the compiled form prints and tests
// fields exactly as text/template does.
type recordMemo struct {
	once  sync.Once
	fast  []recordPiece // nil: render through text/template
	costs sync.Map      // costKey → int
}

// costKey identifies a record's cost: the counter and everything the
// template sees of an unnumbered record.
type costKey struct {
	counter tokens.Counter
	data    recordData
}

// recordPiece is one step of a compiled record template: a literal, a
// field, or an if on a field.
type recordPiece struct {
	text        string
	field       int // 0: literal; else one of the field* constants
	then, els   []recordPiece
	conditional bool
}

const (
	fieldNone = iota
	fieldIndex
	fieldTime
	fieldScene
	fieldContext
	fieldResult
)

// compiled returns the compiled "record" template, or nil.
func (p *Prompts) compiled() []recordPiece {
	m := &p.records
	m.once.Do(func() {
		t := p.t.Lookup("record")
		if t == nil || t.Tree == nil || t.Tree.Root == nil {
			return
		}
		if pieces, ok := compileRecord(t.Tree.Root.Nodes); ok && pieces != nil {
			m.fast = pieces
		}
	})
	return m.fast
}

// compileRecord compiles nodes, reporting false for anything beyond text,
// {{.Field}} and {{if .Field}}…{{else}}…{{end}}.
func compileRecord(nodes []parse.Node) ([]recordPiece, bool) {
	out := []recordPiece{}
	for _, n := range nodes {
		switch n := n.(type) {
		case *parse.TextNode:
			out = append(out, recordPiece{text: string(n.Text)})
		case *parse.CommentNode:
		case *parse.ActionNode:
			f, ok := fieldOf(n.Pipe)
			if !ok {
				return nil, false
			}
			out = append(out, recordPiece{field: f})
		case *parse.IfNode:
			f, ok := fieldOf(n.Pipe)
			if !ok {
				return nil, false
			}
			piece := recordPiece{field: f, conditional: true}
			if n.List != nil {
				if piece.then, ok = compileRecord(n.List.Nodes); !ok {
					return nil, false
				}
			}
			if n.ElseList != nil {
				if piece.els, ok = compileRecord(n.ElseList.Nodes); !ok {
					return nil, false
				}
			}
			out = append(out, piece)
		default:
			return nil, false
		}
	}
	return out, true
}

// fieldOf recognises a pipeline that is one field of recordData.
func fieldOf(pipe *parse.PipeNode) (int, bool) {
	if pipe == nil || len(pipe.Decl) > 0 || len(pipe.Cmds) != 1 || len(pipe.Cmds[0].Args) != 1 {
		return 0, false
	}
	fn, ok := pipe.Cmds[0].Args[0].(*parse.FieldNode)
	if !ok || len(fn.Ident) != 1 {
		return 0, false
	}
	switch fn.Ident[0] {
	case "Index":
		return fieldIndex, true
	case "Time":
		return fieldTime, true
	case "Scene":
		return fieldScene, true
	case "Context":
		return fieldContext, true
	case "Result":
		return fieldResult, true
	}
	return 0, false
}

// render writes pieces for r, as text/template would.
func renderPieces(b *strings.Builder, pieces []recordPiece, r *recordData) {
	for i := range pieces {
		pc := &pieces[i]
		if pc.field == fieldNone {
			b.WriteString(pc.text)
			continue
		}
		var s string
		switch pc.field {
		case fieldIndex:
			if pc.conditional {
				if r.Index != 0 {
					renderPieces(b, pc.then, r)
				} else {
					renderPieces(b, pc.els, r)
				}
				continue
			}
			b.WriteString(strconv.Itoa(r.Index))
			continue
		case fieldTime:
			s = r.Time
		case fieldScene:
			s = r.Scene
		case fieldContext:
			s = r.Context
		case fieldResult:
			s = r.Result
		}
		switch {
		case !pc.conditional:
			b.WriteString(s)
		case s != "":
			renderPieces(b, pc.then, r)
		default:
			renderPieces(b, pc.els, r)
		}
	}
}

// renderRecord renders the "record" template for r.
func (p *Prompts) renderRecord(r recordData) (string, error) {
	if fast := p.compiled(); fast != nil {
		var b strings.Builder
		b.Grow(len(r.Context) + len(r.Result) + len(r.Time) + len(r.Scene) + 64)
		renderPieces(&b, fast, &r)
		return b.String(), nil
	}
	return p.exec("record", r)
}

// memoCounter reports whether costs counted by c may be memoised: its
// dynamic type must be usable as a map key (a CounterFunc is not).
func memoCounter(c tokens.Counter) bool {
	return c != nil && reflect.TypeOf(c).Comparable()
}
