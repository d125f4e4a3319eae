package config

import (
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/memharness/memharness/lifelong"
)

// expandOrders turns lifelong.orders (K seeded orders of the stream) and
// lifelong.named_orders (the paper's streams) into sweep grid axes over
// lifelong.order (1..K) and lifelong.stream, after the sweep block's own
// axes. Each order is then its own run directory, like any sweep variant,
// so resume, shard merge and the response cache need nothing new; the
// sweep's report compares the orders. Values the schema rejects (orders:
// -1, a misspelt stream) are left for validation, which names their line.
func (d *document) expandOrders() error {
	slot := findKey(d.root, "lifelong")
	if slot == nil {
		return nil
	}
	block := *slot
	if block.Kind == yaml.AliasNode && block.Alias != nil {
		block = block.Alias
	}
	if block.Kind != yaml.MappingNode {
		return nil
	}
	var axes []axis
	if k, v := keyAndValue(block, "named_orders"); v != nil && v.Kind == yaml.SequenceNode && len(v.Content) > 0 && namedStreams(v.Content) {
		axes = append(axes, axis{path: keyPath{{key: "lifelong"}, {key: "stream"}}, key: k, values: v.Content})
	}
	k, v := keyAndValue(block, "orders")
	if v != nil && v.Kind == yaml.ScalarNode {
		if n, err := strconv.Atoi(v.Value); err == nil && n > 1 && n <= lifelong.MaxOrders {
			vals := make([]*yaml.Node, n)
			for i := range vals {
				vals[i] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(i + 1), Line: v.Line, Column: v.Column}
			}
			axes = append(axes, axis{path: keyPath{{key: "lifelong"}, {key: "order"}}, key: k, values: vals})
			// The expansion sets each run's order; one written beside
			// orders would be overwritten without a word.
			if ok, ov := keyAndValue(block, "order"); ov != nil && ok.Line > 0 {
				return d.src.errorf(ok, "lifelong.order", "is set by lifelong.orders (%s), one run per order; leave it out", d.src.pos(k))
			}
		}
	}
	if len(axes) == 0 {
		return nil
	}
	if d.sweep == nil {
		d.sweep = &Sweep{}
	}
	for _, a := range axes {
		for _, g := range d.sweep.grid {
			if overlaps(a.path, g.path) {
				return d.src.errorf(a.key, "lifelong."+a.key.Value, "runs one variant per %s, which the sweep grid also sets (%s); use one or the other", a.path, d.src.pos(g.key))
			}
		}
		for _, vs := range d.sweep.variants {
			for i, ov := range vs.sets {
				if overlaps(a.path, ov.path) {
					return d.src.errorf(a.key, "lifelong."+a.key.Value, "runs one variant per %s, which sweep variant %q also sets (%s); use one or the other", a.path, vs.name, d.src.pos(vs.keys[i]))
				}
			}
		}
		d.sweep.grid = append(d.sweep.grid, a)
	}
	return nil
}

// keyAndValue finds key in mapping m: its key and value nodes (nil when
// absent; the last one when written twice, as findKey).
func keyAndValue(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	for i := len(m.Content) - 2; i >= 0; i -= 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			return k, m.Content[i+1]
		}
	}
	return nil, nil
}

// namedStreams reports whether vals are distinct stream kinds; otherwise
// nothing is expanded and validation names the bad entry once.
func namedStreams(vals []*yaml.Node) bool {
	seen := map[string]bool{}
	for _, v := range vals {
		switch {
		case v.Kind != yaml.ScalarNode, seen[v.Value]:
			return false
		case v.Value == lifelong.StreamSimilarity, v.Value == lifelong.StreamRandom, v.Value == lifelong.StreamBuffer:
			seen[v.Value] = true
		default:
			return false
		}
	}
	return true
}
