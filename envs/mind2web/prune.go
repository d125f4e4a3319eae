package mind2web

import (
	"strings"
	"unicode/utf8"
)

// Pruning limits, as in Mind2Web's DOM utilities used by Synapse.
const (
	maxDepth    = 5  // descendants kept below a candidate
	maxChildren = 50 // at most this many of them
	maxSibling  = 3  // siblings kept on each side of a candidate
	maxValueLen = 5  // words kept per attribute value
	maxMetaLen  = 20 // words kept per element description and per text node
	maxWordLen  = 15 // longer attribute words are dropped (runes)
)

// observe renders cleaned_html pruned around the candidate ids, in the
// bracketed tree form the agent sees: `<button id=12 submit search> ...`.
// Candidates missing from the page are left out and returned.
func observe(html string, candidates []string) (string, []string, error) {
	root, err := parseDOM(html)
	if err != nil {
		return "", nil, err
	}
	byID := map[string]*node{}
	root.walk(func(n *node) {
		if id := n.id(); id != "" && n.tag != "text" {
			if _, ok := byID[id]; !ok {
				byID[id] = n
			}
		}
	})
	var present, missing []string
	for _, id := range candidates {
		if byID[id] == nil {
			missing = append(missing, id)
		} else {
			present = append(present, id)
		}
	}
	keep := keepSet(byID, present)
	cand := map[string]bool{}
	for _, id := range present {
		cand[id] = true
	}
	prune(root, keep, cand) // in place: the tree is parsed per call
	return render(root), missing, nil
}

// keepSet is the ids to keep around the candidates: each candidate, its
// ancestors, its first descendants and its nearest siblings. Elements
// without an id contribute "", which keeps every id-less element, as the
// reference does.
func keepSet(byID map[string]*node, candidates []string) map[string]bool {
	keep := map[string]bool{}
	for _, id := range candidates {
		n := byID[id]
		keep[id] = true
		for p := n.parent; p != nil; p = p.parent {
			keep[p.id()] = true
		}
		var desc []*node
		descendants(n, 0, &desc)
		if len(desc) > maxChildren {
			desc = desc[:maxChildren]
		}
		for _, d := range desc {
			keep[d.id()] = true
		}
		if n.parent == nil {
			continue
		}
		var sibs []*node
		at := 0
		for _, s := range n.parent.children {
			if s.tag == "text" {
				continue
			}
			if s == n {
				at = len(sibs)
			}
			sibs = append(sibs, s)
		}
		for _, s := range sibs[max(0, at-maxSibling):min(len(sibs), at+maxSibling+1)] {
			keep[s.id()] = true
		}
	}
	return keep
}

// descendants appends n's descendants in document order down to maxDepth
// levels below the first.
func descendants(n *node, depth int, out *[]*node) {
	if depth > maxDepth {
		return
	}
	for _, c := range n.children {
		*out = append(*out, c)
		descendants(c, depth+1, out)
	}
}

// prune removes unkept elements bottom-up, strips ids from non-candidates
// and unwraps attribute-less wrappers with at most one child and no text.
func prune(root *node, keep, cand map[string]bool) {
	var all []*node
	root.walk(func(n *node) { all = append(all, n) })
	for i := len(all) - 1; i >= 0; i-- {
		n := all[i]
		ref := n
		if n.tag == "text" && n.parent != nil {
			ref = n.parent
		}
		id := ref.id()
		if !keep[id] && n.parent != nil {
			n.parent.replace(n, nil)
			continue
		}
		if !cand[id] || n.tag == "text" {
			n.dropAttr("backend_node_id")
		}
		if len(n.attrs) == 0 && n.parent != nil && n.tag != "text" && len(n.children) <= 1 && !hasTextChild(n) {
			n.parent.replace(n, n.children)
		}
	}
}

func hasTextChild(n *node) bool {
	for _, c := range n.children {
		if c.tag == "text" {
			return true
		}
	}
	return false
}

// replace puts with in place of child among n's children.
func (n *node) replace(child *node, with []*node) {
	for i, c := range n.children {
		if c != child {
			continue
		}
		for _, w := range with {
			w.parent = n
		}
		rest := append(append([]*node(nil), with...), n.children[i+1:]...)
		n.children = append(n.children[:i], rest...)
		return
	}
}

// render writes the pruned tree: each element becomes its tag, its id when
// it is a candidate, and a short description from its attributes; text
// nodes become their first words. Whitespace is collapsed.
func render(root *node) string {
	var sb strings.Builder
	renderNode(&sb, root)
	return strings.Join(strings.Fields(sb.String()), " ")
}

func renderNode(sb *strings.Builder, n *node) {
	if n.tag == "text" {
		sb.WriteString(" ")
		sb.WriteString(strings.ReplaceAll(firstWords(n.text, maxMetaLen), `"`, " "))
		sb.WriteString(" ")
		return
	}
	sb.WriteString(" <")
	sb.WriteString(n.tag)
	id := n.id()
	meta := describe(n)
	if id != "" {
		sb.WriteString(" id=")
		sb.WriteString(strings.ReplaceAll(id, `"`, " "))
	}
	if meta != "" {
		sb.WriteString(" ")
		sb.WriteString(meta)
	}
	hasAttrs := id != "" || meta != ""
	text := strings.ReplaceAll(n.text, `"`, " ")
	// lxml closes an element in one tag only when it has no text at all:
	// one that lost its children keeps the whitespace between them
	// (the release separates tags with it) and shows as `<nav> </nav>`.
	if len(n.children) == 0 && text == "" {
		if hasAttrs {
			sb.WriteString(" />")
		} else {
			sb.WriteString("/>")
		}
		return
	}
	sb.WriteString("> ")
	sb.WriteString(text)
	for _, c := range n.children {
		renderNode(sb, c)
	}
	sb.WriteString(" </")
	sb.WriteString(n.tag)
	sb.WriteString("> ")
}

// describedAttrs are read, in this order, to describe an element.
var describedAttrs = []string{
	"role", "aria_role", "type", "alt", "aria_description", "aria_label", "label",
	"title", "name", "text_value", "value", "placeholder", "input_checked",
	"input_value", "option_selected", "class",
}

var meaningless = map[string]bool{"hidden": true, "none": true, "presentation": true, "null": true, "undefined": true}

// describe is an element's description: distinct, lower-cased attribute
// values with long words dropped, at most maxMetaLen words.
func describe(n *node) string {
	seen := map[string]bool{}
	var parts []string
	for _, name := range describedAttrs {
		v, ok := n.attr(name)
		if !ok {
			continue
		}
		v = strings.ToLower(v)
		if meaningless[v] || strings.HasPrefix(v, "http") {
			continue
		}
		var ws []string
		for _, w := range strings.Fields(v) {
			if utf8.RuneCountInString(w) < maxWordLen {
				ws = append(ws, w)
			}
		}
		if len(ws) > maxValueLen {
			ws = ws[:maxValueLen]
		}
		s := strings.Join(ws, " ")
		if s != "" && !seen[s] {
			seen[s] = true
			parts = append(parts, s)
		}
	}
	return firstWords(strings.Join(parts, " "), maxMetaLen)
}

func firstWords(s string, n int) string {
	ws := strings.Fields(s)
	if len(ws) > n {
		ws = ws[:n]
	}
	return strings.Join(ws, " ")
}
