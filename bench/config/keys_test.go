package config

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/registry"
)

// keysDocPath is the generated reference of every config key, relative to
// this package.
const keysDocPath = "../../docs/CONFIG_KEYS.md"

const modulePath = "github.com/memharness/memharness"

// TestConfigKeysDoc keeps docs/CONFIG_KEYS.md equal to what the schema
// says: every key the strict decoder accepts, its type and the doc comment
// of its Go field, and which method kinds read which method keys. Run
// `go test ./bench/config -run TestConfigKeysDoc -update` after changing
// the schema.
func TestConfigKeysDoc(t *testing.T) {
	got := keysDoc(t)
	if *update {
		if err := os.WriteFile(keysDocPath, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(keysDocPath)
	if err != nil {
		t.Fatalf("%v (run go test ./bench/config -run TestConfigKeysDoc -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s is out of date with the config schema; run go test ./bench/config -run TestConfigKeysDoc -update", keysDocPath)
	}
}

// keysDoc renders the reference.
func keysDoc(t *testing.T) string {
	d := &docWriter{t: t, comments: map[string]map[string]string{}}
	var b strings.Builder
	b.WriteString("# Config keys\n\n")
	b.WriteString("Generated from the config schema (`bench/config`, `methods/predict.Spec`, `lifelong.Config`) by\n")
	b.WriteString("`go test ./bench/config -run TestConfigKeysDoc -update`; do not edit by hand. A key not listed here is\n")
	b.WriteString("an error (the decoder is strict). `[]` marks a list, `<name>` a mapping key of your choice.\n\n")

	b.WriteString("## Every key\n\n| key | value | meaning |\n| :--- | :--- | :--- |\n")
	d.walk(&b, reflect.TypeFor[Config](), "")

	writeSweepDoc(&b)

	b.WriteString("\n## Keys each prediction method kind reads\n\n")
	b.WriteString("Read from each kind's entry (`predict.Entry`, beside its code). Every method takes `name`, `kind`,\n")
	b.WriteString("`language`, `templates`, `params`, `sampling` and `parser`. Setting a knob that its kind does not read is a\n")
	b.WriteString("validation error (not a silent no-op); a kind of one's own may take its own keys (`Entry.Options`).\n\n")
	b.WriteString("| kind | keys | what it does |\n| :--- | :--- | :--- |\n")
	for _, e := range registry.Default().Entries() {
		keys := "`" + strings.Join(e.Keys, "`, `") + "`"
		if len(e.Keys) == 0 {
			keys = "—"
		}
		if own := ownKeys(e.Options); len(own) > 0 {
			ownText := "its own: `" + strings.Join(own, "`, `") + "`"
			if len(e.Keys) == 0 {
				keys = ownText
			} else {
				keys += "; " + ownText
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", e.Kind, keys, e.About)
	}
	// The own keys of the kinds that take some, written in the method's
	// block beside the common ones.
	for _, e := range registry.Default().Entries() {
		if e.Options == nil {
			continue
		}
		fmt.Fprintf(&b, "\n### Own keys of kind %s\n\n| key | value | meaning |\n| :--- | :--- | :--- |\n", e.Kind)
		d.walk(&b, reflect.TypeOf(e.Options), "methods[]")
	}

	writeSamplingDoc(&b)

	b.WriteString("\n## Keys each agent method kind reads (`lifelong.methods[]`)\n\n")
	b.WriteString("Read from each kind's entry (`agent.Entry`). Every agent method takes `name` and `kind`.\n\n")
	b.WriteString("| kind | keys | what it does |\n| :--- | :--- | :--- |\n")
	for _, e := range lifelong.DefaultMethods().Entries() {
		keys := "—"
		if len(e.Keys) > 0 {
			keys = "`" + strings.Join(e.Keys, "`, `") + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", e.Kind, keys, e.About)
	}
	writeAgentSampling(&b)
	return b.String()
}

// ownKeys are the yaml keys of a kind's own options struct (nil for none).
func ownKeys(opts any) []string {
	if opts == nil {
		return nil
	}
	t := deref(reflect.TypeOf(opts))
	var keys []string
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	return keys
}

type docWriter struct {
	t *testing.T
	// comments maps a package path to "Type.Field" doc comments.
	comments map[string]map[string]string
}

func (d *docWriter) walk(b *strings.Builder, t reflect.Type, prefix string) {
	t = deref(t)
	for i := range t.NumField() {
		f := t.Field(i)
		name := yamlName(f)
		if name == "" {
			continue
		}
		key := name
		if prefix != "" {
			key = prefix + "." + name
		}
		ft := deref(f.Type)
		doc := d.comment(t, f.Name)
		if doc == "" && ft.Kind() == reflect.Struct && ft.Name() != "" {
			// A block without a field comment: its type's comment.
			doc = d.comment(ft, "")
		}
		switch {
		case isLeaf(ft) || ft.Kind() != reflect.Struct && ft.Kind() != reflect.Slice && ft.Kind() != reflect.Map:
			fmt.Fprintf(b, "| `%s` | %s | %s |\n", key, want(ft), doc)
		case ft.Kind() == reflect.Struct:
			fmt.Fprintf(b, "| `%s` | a mapping | %s |\n", key, doc)
			d.walk(b, ft, key)
		case ft.Kind() == reflect.Slice:
			et := deref(ft.Elem())
			if et.Kind() == reflect.Struct && !isLeaf(et) {
				fmt.Fprintf(b, "| `%s` | a list of mappings | %s |\n", key, doc)
				d.walk(b, et, key+"[]")
			} else {
				fmt.Fprintf(b, "| `%s` | a list of %s | %s |\n", key, strings.TrimPrefix(strings.TrimPrefix(want(et), "a "), "an "), doc)
			}
		case ft.Kind() == reflect.Map:
			et := deref(ft.Elem())
			if et.Kind() == reflect.Struct && !isLeaf(et) {
				fmt.Fprintf(b, "| `%s` | a mapping of mappings | %s |\n", key, doc)
				d.walk(b, et, key+".<name>")
			} else {
				fmt.Fprintf(b, "| `%s` | a mapping to %s | %s |\n", key, want(et), doc)
			}
		}
	}
}

// comment is the doc comment of field name of struct type t, from the
// source of t's package, on one line.
func (d *docWriter) comment(t reflect.Type, field string) string {
	pkg := t.PkgPath()
	if _, ok := d.comments[pkg]; !ok {
		d.comments[pkg] = d.parse(pkg)
	}
	c := d.comments[pkg][t.Name()+"."+field]
	c = strings.Join(strings.Fields(c), " ")
	return strings.ReplaceAll(c, "|", `\|`)
}

// parse reads the field comments of every struct type of a package of
// this module.
func (d *docWriter) parse(pkg string) map[string]string {
	out := map[string]string{}
	rel, ok := strings.CutPrefix(pkg, modulePath)
	if !ok {
		return out
	}
	dir := filepath.Join("..", "..", filepath.FromSlash(strings.TrimPrefix(rel, "/")))
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		d.t.Fatal(err)
	}
	slices.Sort(files)
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			d.t.Fatalf("%s: %v", path, err)
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				switch {
				case ts.Doc != nil:
					out[ts.Name.Name+"."] = ts.Doc.Text()
				case gd.Doc != nil && len(gd.Specs) == 1:
					out[ts.Name.Name+"."] = gd.Doc.Text()
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			var pending string // a comment above a group of fields
			for _, fl := range st.Fields.List {
				own := ""
				switch {
				case fl.Doc != nil:
					own = fl.Doc.Text()
					pending = own
				case fl.Comment != nil:
					own = fl.Comment.Text()
				}
				for _, nm := range fl.Names {
					c := own
					if c == "" && mentions(pending, nm.Name, fieldKey(fl)) {
						// A comment above a group that names this field
						// ("RAG: retriever, DocSize, TopK") covers it.
						c = pending
					}
					out[ts.Name.Name+"."+nm.Name] = c
				}
			}
			return true
		})
	}
	return out
}

// mentions reports whether comment names the field (by its Go name or
// its YAML key) as a word.
func mentions(comment, field, key string) bool {
	for _, w := range strings.FieldsFunc(comment, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_')
	}) {
		if w == field || key != "" && w == key {
			return true
		}
	}
	return false
}

// fieldKey is the YAML key in a field's tag ("" without one).
func fieldKey(f *ast.Field) string {
	if f.Tag == nil {
		return ""
	}
	tag := reflect.StructTag(strings.Trim(f.Tag.Value, "`"))
	k, _, _ := strings.Cut(tag.Get("yaml"), ",")
	return k
}

// writeSweepDoc describes the sweep block, which is not part of Config:
// it is read before the config is decoded and expands into configs.
func writeSweepDoc(b *strings.Builder) {
	b.WriteString("\n## Sweeps (`sweep:`, `bench sweep`)\n\n")
	b.WriteString("A config may end with a `sweep` block that expands it into several runs, each in its own folder\n")
	b.WriteString("`runs/<name>/<variant>/`. Its keys are written as for `--set` (`history_tokens`, `methods[1].top_k`,\n")
	b.WriteString("`lifelong.split_size`), and may name a kind's own option (`Entry.Options`) inside a method's block:\n")
	b.WriteString("`methods[1].keep`, `lifelong.methods[0].keep`. Such a key is checked against the options of the kind\n")
	b.WriteString("that method has, as strictly as one written in the block (a misspelt one is reported at the sweep's line,\n")
	b.WriteString("with the kind's keys as suggestions), and each value is checked once it is in place.\n\n")
	b.WriteString("| key | value | meaning |\n| :--- | :--- | :--- |\n")
	b.WriteString("| `sweep.grid` | a mapping of key to a list of values | every combination of the values is a variant, the last key varying fastest; a variant is named by its values, `key=value` joined by `__` (the key's shortest tail no other key shares: `keep=20`, `methods1.top_k=5`), and `sweep.csv` has the key and value in its `swept_key` and `swept_value` columns |\n")
	b.WriteString("| `sweep.variants` | a list of mappings | named sets of keys (`{name: qwen, set: {backbone.model: ...}}`), each crossed with the grid; the name leads the variant's |\n")
	b.WriteString("| `sweep.variants[].name` | a string | letters, digits, `.`, `_` and `-`, no `__` |\n")
	b.WriteString("| `sweep.variants[].set` | a mapping of key to value | the keys this variant sets, before the grid's; none may overlap a grid key or a `--set` flag |\n")
	b.WriteString("\nStream orders are sweeps too: `lifelong.orders: K` (above 1) adds a grid axis `lifelong.order: [1, ..., K]` and\n")
	b.WriteString("`lifelong.named_orders: [similarity, random, buffer]` one over `lifelong.stream`, after the block's own axes\n")
	b.WriteString("(variants `order=2`, `stream=random__order=2`), so each order is its own run; neither may overlap a key the\n")
	b.WriteString("sweep block sets. The sweep's report compares the orders (`lifemem_orders.*`).\n")
}

// writeSamplingDoc renders the defaults of methods[].sampling (PraMem,
// OmniBehavior and MovieLens prediction methods) from PurposeDefaults.
func writeSamplingDoc(b *strings.Builder) {
	b.WriteString("\n## Request settings per call purpose (`methods[].sampling`)\n\n")
	b.WriteString("Each call a prediction method sends has a purpose; `methods[].sampling.<purpose>` sets its request\n")
	b.WriteString("settings (the keys of `params`), over the method's `params`. Unset, a purpose gets the default of the\n")
	b.WriteString("run's `prompts` setting that the entry of the method's kind declares (`predict.Entry.Purposes`): what the\n")
	b.WriteString("source sends under `release`, ours under `own`; a kind of one's own declares its own, and they apply\n")
	b.WriteString("alike. `manifest.json`'s `provenance` and the report titles say which ran. \"server defaults\" sends no\n")
	b.WriteString("setting at all. The built-in kinds':\n\n")
	b.WriteString("| purpose | kinds | `prompts: release` | source | `prompts: own` |\n| :--- | :--- | :--- | :--- | :--- |\n")
	for _, d := range (Known{}).PurposeDefaults() {
		kinds := strings.Join(d.Kinds, ", ")
		if len(d.Kinds) == len(Known{}.MethodKinds()) {
			kinds = "every kind"
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s |\n", d.Purpose, kinds, paramsText(d.Release), d.Source, paramsText(d.Own))
	}
}

// paramsText writes request settings as their body keys.
func paramsText(p llm.Params) string {
	var parts []string
	if p.Temperature != nil {
		parts = append(parts, fmt.Sprintf("`temperature: %v`", *p.Temperature))
	}
	if p.TopP != nil {
		parts = append(parts, fmt.Sprintf("`top_p: %v`", *p.TopP))
	}
	if p.MaxTokens > 0 {
		parts = append(parts, fmt.Sprintf("`max_tokens: %d`", p.MaxTokens))
	}
	if p.Seed != nil {
		parts = append(parts, fmt.Sprintf("`seed: %d`", *p.Seed))
	}
	if len(p.Stop) > 0 {
		parts = append(parts, fmt.Sprintf("`stop: %q`", p.Stop))
	}
	if p.ReasoningEffort != "" {
		parts = append(parts, "`reasoning_effort: "+p.ReasoningEffort+"`")
	}
	for _, k := range slices.Sorted(maps.Keys(p.Extra)) {
		parts = append(parts, fmt.Sprintf("`%s: %v`", k, p.Extra[k]))
	}
	if len(parts) == 0 {
		return "server defaults"
	}
	return strings.Join(parts, ", ")
}
