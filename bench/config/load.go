package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/memharness/memharness/internal/lazyre"
)

// Options carry what loading needs from outside the file.
type Options struct {
	// Getenv reads OPENAI_BASE_URL and OPENAI_MODEL for backbone defaults;
	// nil means os.Getenv.
	Getenv func(string) string
	// Profile names an entry of the file's profiles block whose settings
	// are applied before the --set overrides ("" = none).
	Profile string
	// Known are the kinds the run's registries can build (zero: the
	// built-in kinds), so a registered kind validates.
	Known Known
}

// Load reads a config file, applies --set overrides (key=value), decodes it
// strictly, fills defaults and validates it. A sweep block is kept aside:
// the result is the base config, with Sweep set.
func Load(path string, sets []string) (*Config, error) { return Options{}.Load(path, sets) }

// Load is the package-level Load with these options.
func (o Options) Load(path string, sets []string) (*Config, error) {
	doc, err := o.prepare(path, sets)
	if err != nil {
		return nil, err
	}
	cfg, err := o.build(doc.src, doc.root)
	if err != nil {
		return nil, err
	}
	cfg.Sweep = doc.sweep
	doc.stampProfile(cfg)
	return cfg, nil
}

// document is a parsed config file with its command-line overrides applied.
type document struct {
	src   *source
	root  *yaml.Node // the top-level mapping, without the sweep block
	sweep *Sweep
	sets  []override
	// profile is the applied profile (name and settings), if any.
	profile     string
	profileSets map[string]string
}

// stampProfile records the applied profile on a built config.
func (d *document) stampProfile(c *Config) {
	if d.profile != "" {
		c.Profile, c.ProfileSet = d.profile, d.profileSets
	}
}

func (o Options) prepare(path string, sets []string) (*document, error) {
	src := &source{file: path}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	root, err := parseFile(src, data)
	if err != nil {
		return nil, err
	}
	doc := &document{src: src, root: root}
	if slot := findKey(root, "sweep"); slot != nil {
		if doc.sweep, err = parseSweep(src, *slot); err != nil {
			return nil, err
		}
		if keys := removeKey(root, "sweep"); len(keys) > 1 {
			return nil, src.errorf(keys[1], "", "duplicate key \"sweep\" in the config (first at %s)", src.pos(keys[0]))
		}
	}
	if err := o.applyProfile(doc); err != nil {
		return nil, err
	}
	var errs []error
	for _, s := range sets {
		ov, err := parseSet(src, s)
		if err == nil {
			err = ov.applyAt(src, root, "--set "+s)
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		doc.sets = append(doc.sets, ov)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if err := doc.expandOrders(); err != nil {
		return nil, err
	}
	if doc.sweep != nil {
		if err := doc.sweep.checkOptionKeys(src, root, o.Known); err != nil {
			return nil, err
		}
	}
	return doc, nil
}

// applyAt applies an override, turning a failure into an Error at pos.
func (o override) applyAt(src *source, root *yaml.Node, pos string) error {
	if err := o.apply(root); err != nil {
		return &Error{Pos: pos, Msg: err.Error()}
	}
	return nil
}

var yamlLine = lazyre.New(`^yaml: line (\d+): (.*)$`)

// parseFile returns the top-level mapping of a one-document YAML file.
func parseFile(src *source, data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}, nil // empty file
		}
		return nil, syntaxError(src, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, syntaxError(src, err)
		}
		return nil, &Error{Pos: src.pos(&extra), Msg: "a config file holds one YAML document; found a second"}
	}
	if len(doc.Content) == 0 {
		return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}, nil
	}
	root := doc.Content[0]
	if isNull(root) {
		return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, src.errorf(root, "", "a config must be a mapping of keys, not %s", describe(root))
	}
	return root, nil
}

func syntaxError(src *source, err error) error {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &Error{Pos: fmt.Sprintf("%s:%d", src.file, line), Msg: m[2]}
	}
	return &Error{Pos: src.file, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
}

// removeKey deletes every occurrence of key from a mapping and returns the
// removed key nodes.
func removeKey(m *yaml.Node, key string) []*yaml.Node {
	var removed []*yaml.Node
	out := m.Content[:0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			removed = append(removed, k)
			continue
		}
		out = append(out, m.Content[i], m.Content[i+1])
	}
	m.Content = out
	return removed
}

// build decodes a finished tree into a defaulted, validated Config.
func (o Options) build(src *source, root *yaml.Node) (*Config, error) {
	c := newChecker(src, o.Known)
	c.walk(root, reflect.TypeFor[Config](), "")
	if len(c.errs) > 0 {
		return nil, errors.Join(c.errs...)
	}
	cfg := defaults()
	if err := root.Decode(cfg); err != nil {
		// The checker saw every value, so this is a bug here, not in the file.
		return nil, fmt.Errorf("%s: decode config: %w", src.file, err)
	}
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	from := cfg.fill(getenv)
	if err := cfg.resolveTemplates(src, c.index); err != nil {
		return nil, err
	}
	if err := cfg.ValidateKnown(o.Known); err != nil {
		return nil, src.place(err, c.index, from)
	}
	return cfg, nil
}

// resolveTemplates makes template paths absolute: relative to the config
// file when written there, to the working directory when given by --set.
func (c *Config) resolveTemplates(src *source, index map[string]*yaml.Node) error {
	base := filepath.Dir(src.file)
	resolve := func(path, p string) (string, error) {
		if p == "" || filepath.IsAbs(p) {
			return p, nil
		}
		if n, ok := index[path]; !ok || n.Line >= 0 {
			p = filepath.Join(base, p)
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", fmt.Errorf("%s: %w", path, err)
		}
		return abs, nil
	}
	var err error
	for name, p := range c.Prompt.Templates {
		if c.Prompt.Templates[name], err = resolve("prompt.templates."+name, p); err != nil {
			return err
		}
	}
	for i := range c.Methods {
		for j, p := range c.Methods[i].Templates {
			if c.Methods[i].Templates[j], err = resolve(fmt.Sprintf("methods[%d].templates[%d]", i, j), p); err != nil {
				return err
			}
		}
	}
	return nil
}
