package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Sweep is a parsed `sweep:` block: a grid of key → values crossed with
// named variants, each a set of overrides.
type Sweep struct {
	grid     []axis
	variants []variantSpec
}

type axis struct {
	path   keyPath
	key    *yaml.Node
	values []*yaml.Node
}

type variantSpec struct {
	name string
	node *yaml.Node
	sets []override
	keys []*yaml.Node // key node of each set, for conflict messages
}

// Len is the number of configs the sweep expands to (1 for a nil Sweep,
// like Expand on a config without one).
func (s *Sweep) Len() int {
	if s == nil {
		return 1
	}
	n := max(len(s.variants), 1)
	for _, a := range s.grid {
		if k := len(a.values); k > 0 && n > math.MaxInt/k {
			return math.MaxInt // saturate: a grid that large is refused anyway
		}
		n *= len(a.values)
	}
	return n
}

// MaxVariants bounds a sweep: every variant is a config held in memory and
// a run directory on disk, so a grid that multiplies out past this is
// refused before anything is built.
const MaxVariants = 10_000

func variantCount(n int) string {
	if n == math.MaxInt {
		return "more than " + fmt.Sprint(math.MaxInt)
	}
	return fmt.Sprint(n)
}

// Variant is one expanded config of a sweep.
type Variant struct {
	// Name is filesystem-safe and unique within the sweep, e.g.
	// "qwen__history_tokens=4000__temperature=0.7"; "" without a sweep.
	Name   string
	Config *Config
}

// Expand loads a config and returns one validated config per sweep
// variant: every named variant (in file order) crossed with the cartesian
// product of the grid (keys in file order, the last varying fastest). The
// variant's set block applies first, then the grid values; --set flags
// apply before both and may not touch a key the sweep sets. A config
// without a sweep expands to one variant named "".
func Expand(path string, sets []string) ([]Variant, error) { return Options{}.Expand(path, sets) }

// Expand is the package-level Expand with these options.
func (o Options) Expand(path string, sets []string) ([]Variant, error) {
	doc, err := o.prepare(path, sets)
	if err != nil {
		return nil, err
	}
	if doc.sweep == nil {
		cfg, err := o.build(doc.src, doc.root)
		if err != nil {
			return nil, err
		}
		doc.stampProfile(cfg)
		return []Variant{{Config: cfg}}, nil
	}
	sw := doc.sweep
	if err := sw.conflicts(doc.src, doc.sets); err != nil {
		return nil, err
	}
	if n := sw.Len(); n > MaxVariants {
		return nil, &Error{Pos: doc.src.file, Path: "sweep", Msg: fmt.Sprintf("expands to %s variants, more than the %d a sweep may hold; split it into several configs or narrow the grid", variantCount(n), MaxVariants)}
	}
	specs := sw.variants
	if len(specs) == 0 {
		specs = []variantSpec{{}}
	}
	short := shortNames(sw.grid)
	var out []Variant
	var errs []error
	names := map[string]bool{}
	for _, vs := range specs {
		for _, combo := range cartesian(sw.grid) {
			parts := []string{}
			if vs.name != "" {
				parts = append(parts, vs.name)
			}
			root := copyNode(doc.root)
			var err error
			for _, ov := range vs.sets {
				if err == nil {
					err = ov.applyAt(doc.src, root, doc.src.pos(ov.value))
				}
			}
			for i, a := range sw.grid {
				v := a.values[combo[i]]
				parts = append(parts, short[i]+"="+valueName(v))
				if err == nil {
					err = override{path: a.path, value: v, line: a.key.Line}.applyAt(doc.src, root, doc.src.pos(v))
				}
			}
			name := joinName(parts)
			if names[name] {
				errs = append(errs, &Error{Pos: doc.src.file, Msg: fmt.Sprintf("two sweep variants are both named %q; make values or variant names distinct", name)})
				continue
			}
			names[name] = true
			var cfg *Config
			if err == nil {
				cfg, err = o.build(doc.src, root)
			}
			if err != nil {
				for _, e := range unjoin(err) {
					errs = append(errs, fmt.Errorf("sweep variant %q: %w", name, e))
				}
				continue
			}
			doc.stampProfile(cfg)
			out = append(out, Variant{Name: name, Config: cfg})
		}
	}
	if len(errs) > 0 {
		if len(errs) > maxErrors {
			errs = append(errs[:maxErrors], fmt.Errorf("... and %d more", len(errs)-maxErrors))
		}
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// conflicts rejects overlapping writes: a --set flag and a sweep key, or a
// variant key and a grid key, on the same part of the config.
func (s *Sweep) conflicts(src *source, sets []override) error {
	var errs []error
	for _, a := range s.grid {
		for _, ov := range sets {
			if overlaps(a.path, ov.path) {
				errs = append(errs, &Error{Pos: src.pos(a.key), Msg: fmt.Sprintf("grid key %s is also set by %s", a.path, src.pos(ov.value))})
			}
		}
	}
	for _, v := range s.variants {
		for i, vo := range v.sets {
			for _, ov := range sets {
				if overlaps(vo.path, ov.path) {
					errs = append(errs, &Error{Pos: src.pos(v.keys[i]), Msg: fmt.Sprintf("variant %q key %s is also set by %s", v.name, vo.path, src.pos(ov.value))})
				}
			}
			for _, a := range s.grid {
				if overlaps(vo.path, a.path) {
					errs = append(errs, &Error{Pos: src.pos(v.keys[i]), Msg: fmt.Sprintf("variant %q key %s overlaps grid key %s (%s)", v.name, vo.path, a.path, src.pos(a.key))})
				}
			}
		}
	}
	return errors.Join(errs...)
}

// cartesian lists index tuples over the axes, the last axis fastest.
func cartesian(grid []axis) [][]int {
	out := [][]int{{}}
	for _, a := range grid {
		var next [][]int
		for _, prefix := range out {
			for j := range a.values {
				next = append(next, append(append([]int(nil), prefix...), j))
			}
		}
		out = next
	}
	return out
}

// shortNames names each grid axis by the shortest tail of its key that no
// other axis shares: history_tokens, or methods1.history_tokens when two
// methods are swept. Tails of different lengths never collide (keys hold no
// dots), so the names are unique.
func shortNames(grid []axis) []string {
	words := make([][]string, len(grid))
	for i, a := range grid {
		for _, s := range a.path {
			if s.isIdx {
				words[i][len(words[i])-1] += fmt.Sprint(s.index)
				continue
			}
			words[i] = append(words[i], s.key)
		}
	}
	tail := func(w []string, k int) string { return strings.Join(w[max(0, len(w)-k):], ".") }
	names := make([]string, len(grid))
	for i, w := range words {
		for k := 1; k <= len(w); k++ {
			names[i] = tail(w, k)
			shared := false
			for j, o := range words {
				shared = shared || j != i && tail(o, k) == names[i]
			}
			if !shared {
				break
			}
		}
	}
	return names
}

// valueName renders a grid value for a variant name.
func valueName(n *yaml.Node) string {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	s := n.Value
	if n.Kind != yaml.ScalarNode {
		c := copyNode(n)
		setFlow(c)
		b, err := yaml.Marshal(c)
		if err != nil {
			s = "value"
		} else {
			s = string(b)
		}
	}
	return sanitize(s)
}

func setFlow(n *yaml.Node) {
	n.Style = yaml.FlowStyle
	n.HeadComment, n.LineComment, n.FootComment = "", "", ""
	for _, c := range n.Content {
		setFlow(c)
	}
}

// sanitize keeps letters, digits and . _ - + =, squeezing anything else
// into single underscores.
func sanitize(s string) string {
	var b strings.Builder
	under := false
	for i := range len(s) {
		c := s[i]
		if isKeyChar(c) && c != '_' || c == '.' || c == '+' {
			b.WriteByte(c)
			under = false
			continue
		}
		if !under && b.Len() > 0 {
			b.WriteByte('_')
		}
		under = true
	}
	out := strings.TrimRight(b.String(), "_")
	if out == "" {
		return "empty"
	}
	return out
}

// joinName joins name parts with "__", shortening very long names with a
// digest so they stay valid file names.
func joinName(parts []string) string {
	name := strings.Join(parts, "__")
	if len(name) <= 150 {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	return name[:120] + "~" + hex.EncodeToString(sum[:6])
}

// parseSweep reads the sweep block strictly.
func parseSweep(src *source, n *yaml.Node) (*Sweep, error) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		return nil, src.errorf(n, "sweep", "want a mapping with grid and/or variants, not %s", describe(n))
	}
	sw := &Sweep{}
	var errs []error
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			errs = append(errs, src.errorf(k, "", "duplicate key %q in sweep", k.Value))
			continue
		}
		seen[k.Value] = true
		switch k.Value {
		case "grid":
			errs = append(errs, sw.parseGrid(src, v)...)
		case "variants":
			errs = append(errs, sw.parseVariants(src, v)...)
		default:
			msg := fmt.Sprintf("unknown field %q in sweep", k.Value)
			if s := closest(k.Value, []string{"grid", "variants"}); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			errs = append(errs, src.errorf(k, "", "%s", msg))
		}
	}
	if len(errs) == 0 && len(sw.grid) == 0 && len(sw.variants) == 0 {
		errs = append(errs, src.errorf(n, "sweep", "is empty; give a grid or variants"))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return sw, nil
}

// sweepKey parses and schema-checks one key written in the sweep block.
func sweepKey(src *source, k *yaml.Node) (keyPath, error) {
	if k.Kind != yaml.ScalarNode {
		return nil, src.errorf(k, "", "sweep keys must be plain keys such as methods[0].top_k, not %s", describe(k))
	}
	p, err := parsePath(k.Value)
	if err == nil {
		// A key a method spec lacks may be its kind's own option (keep:
		// 20); which kind is known once the document is complete
		// (checkOptionKeys), and each variant's value is checked against
		// the kind's options when it is in place.
		_, err = checkPath(reflect.TypeFor[Config](), p, deferOptions)
	}
	if err != nil {
		return nil, src.errorf(k, "", "sweep key %q: %v", k.Value, err)
	}
	return p, nil
}

func (sw *Sweep) parseGrid(src *source, n *yaml.Node) []error {
	if n.Kind != yaml.MappingNode {
		return []error{src.errorf(n, "sweep.grid", "want a mapping of key: [values], not %s", describe(n))}
	}
	var errs []error
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		p, err := sweepKey(src, k)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if v.Kind == yaml.AliasNode && v.Alias != nil {
			v = v.Alias
		}
		if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
			errs = append(errs, src.errorf(v, "sweep.grid."+k.Value, "want a non-empty list of values, not %s", describe(v)))
			continue
		}
		dup := false
		for _, a := range sw.grid {
			if overlaps(a.path, p) {
				errs = append(errs, src.errorf(k, "", "grid key %s overlaps grid key %s (%s)", p, a.path, src.pos(a.key)))
				dup = true
			}
		}
		if !dup {
			sw.grid = append(sw.grid, axis{path: p, key: k, values: v.Content})
		}
	}
	return errs
}

func (sw *Sweep) parseVariants(src *source, n *yaml.Node) []error {
	if n.Kind != yaml.SequenceNode {
		return []error{src.errorf(n, "sweep.variants", "want a list of {name, set}, not %s", describe(n))}
	}
	var errs []error
	names := map[string]string{}
	for i, item := range n.Content {
		path := fmt.Sprintf("sweep.variants[%d]", i)
		if item.Kind != yaml.MappingNode {
			errs = append(errs, src.errorf(item, path, "want a mapping {name, set}, not %s", describe(item)))
			continue
		}
		vs := variantSpec{node: item}
		for j := 0; j+1 < len(item.Content); j += 2 {
			k, v := item.Content[j], item.Content[j+1]
			switch k.Value {
			case "name":
				if v.Kind != yaml.ScalarNode || !safeName(v.Value) || strings.Contains(v.Value, "__") {
					errs = append(errs, src.errorf(v, path+".name", "%s is not a safe variant name (use letters, digits, '.', '_' and '-', no \"__\")", describe(v)))
					continue
				}
				vs.name = v.Value
			case "set":
				errs = append(errs, vs.parseSet(src, v, path)...)
			default:
				msg := fmt.Sprintf("unknown field %q in %s", k.Value, path)
				if s := closest(k.Value, []string{"name", "set"}); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", s)
				}
				errs = append(errs, src.errorf(k, "", "%s", msg))
			}
		}
		if vs.name == "" {
			errs = append(errs, src.errorf(item, path, "a variant needs a name"))
			continue
		}
		if at, dup := names[vs.name]; dup {
			errs = append(errs, src.errorf(item, path, "duplicate variant name %q (first at %s)", vs.name, at))
			continue
		}
		names[vs.name] = src.pos(item)
		sw.variants = append(sw.variants, vs)
	}
	return errs
}

func (vs *variantSpec) parseSet(src *source, n *yaml.Node, path string) []error {
	if n.Kind != yaml.MappingNode {
		return []error{src.errorf(n, path+".set", "want a mapping of key: value, not %s", describe(n))}
	}
	var errs []error
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		p, err := sweepKey(src, k)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for j, prev := range vs.sets {
			if overlaps(prev.path, p) {
				errs = append(errs, src.errorf(k, "", "key %s overlaps %s (%s) in the same variant", p, prev.path, src.pos(vs.keys[j])))
			}
		}
		vs.sets = append(vs.sets, override{path: p, value: v, line: k.Line})
		vs.keys = append(vs.keys, k)
	}
	return errs
}

// checkOptionKeys checks every sweep key that names a kind's own option
// against the options of the kind its method has in root (the document
// with the profile and --set flags applied): a misspelt option is reported
// once, at the sweep's line, with the kind's keys as suggestions. A method
// whose kind the sweep itself sets, or that the document does not hold
// yet, is left to each variant's check.
func (s *Sweep) checkOptionKeys(src *source, root *yaml.Node, known Known) error {
	var keys []*yaml.Node
	var paths []keyPath
	for _, a := range s.grid {
		keys, paths = append(keys, a.key), append(paths, a.path)
	}
	for _, v := range s.variants {
		for i, ov := range v.sets {
			keys, paths = append(keys, v.keys[i]), append(paths, ov.path)
		}
	}
	c := newChecker(src, known)
	options := func(spec keyPath, t reflect.Type) reflect.Type {
		kind := append(slices.Clone(spec), seg{key: "kind"})
		for _, p := range paths {
			if overlaps(p, kind) {
				return anyOption
			}
		}
		n := nodeAt(root, spec)
		if n == nil {
			return anyOption
		}
		return c.kindOptions(n, t)
	}
	var errs []error
	for i, p := range paths {
		if _, err := checkPath(reflect.TypeFor[Config](), p, options); err != nil {
			errs = append(errs, src.errorf(keys[i], "", "sweep key %q: %v", keys[i].Value, err))
		}
	}
	return errors.Join(errs...)
}

// nodeAt is the mapping at p in the tree rooted at root, or nil.
func nodeAt(root *yaml.Node, p keyPath) *yaml.Node {
	n := root
	for _, s := range p {
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		switch {
		case s.isIdx && n.Kind == yaml.SequenceNode && s.index < len(n.Content):
			n = n.Content[s.index]
		case !s.isIdx && n.Kind == yaml.MappingNode:
			slot := findKey(n, s.key)
			if slot == nil {
				return nil
			}
			n = *slot
		default:
			return nil
		}
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	return n
}
