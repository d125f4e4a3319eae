package mind2web

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// node is one element of cleaned_html. Mind2Web keeps page text in <text>
// elements, so element children and the text of <text> nodes are all the
// pruner needs.
type node struct {
	tag      string
	attrs    []xml.Attr // document order
	children []*node
	parent   *node
	text     string // character data directly inside the element
}

func (n *node) attr(name string) (string, bool) {
	for _, a := range n.attrs {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

func (n *node) id() string {
	v, _ := n.attr("backend_node_id")
	return v
}

func (n *node) dropAttr(name string) {
	out := n.attrs[:0]
	for _, a := range n.attrs {
		if a.Name.Local != name {
			out = append(out, a)
		}
	}
	n.attrs = out
}

// parseDOM reads cleaned_html (XML written by lxml). It is lenient about
// entities and unclosed tags but fails on an empty or rootless document.
func parseDOM(s string) (*node, error) {
	d := xml.NewDecoder(strings.NewReader(s))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	var root, cur *node
	for {
		tok, err := d.RawToken() // no namespace work: cleaned_html has none
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("cleaned_html: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &node{tag: t.Name.Local, attrs: t.Attr, parent: cur}
			if cur == nil {
				if root != nil {
					return nil, errors.New("cleaned_html: more than one root element")
				}
				root = n
			} else {
				cur.children = append(cur.children, n)
			}
			cur = n
		case xml.EndElement:
			if cur != nil {
				cur = cur.parent
			}
		case xml.CharData:
			if cur != nil {
				cur.text += string(t)
			}
		}
	}
	if root == nil {
		return nil, errors.New("cleaned_html: no root element")
	}
	return root, nil
}

// walk visits n and its descendants in document order.
func (n *node) walk(f func(*node)) {
	f(n)
	for _, c := range n.children {
		c.walk(f)
	}
}

func xmlAttr(name, value string) xml.Attr {
	return xml.Attr{Name: xml.Name{Local: name}, Value: value}
}
