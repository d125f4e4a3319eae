package predict

import (
	"embed"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"text/template"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

// DefaultLanguage is used when a config names no language.
const DefaultLanguage = "zh"

// Languages lists the languages with embedded templates.
func Languages() []string { return []string{"zh", "en"} }

// templateNames are the named templates every language must define.
var templateNames = []string{
	"binary", "rating", "record", "history_header", "no_history",
	"memory_rag", "memory_summary", "summary",
}

// TemplateFuncs are the functions every prompt template set of the
// harness knows (predict's, memstyle's and PraMem's), so one override file
// parses in each of them. A release pack's generated templates use them to
// re-create the release's string handling (numbering from 1, strip, replace).
var TemplateFuncs = template.FuncMap{
	"inc":        func(i int) int { return i + 1 },
	"dec":        func(i int) int { return i - 1 },
	"trimspace":  strings.TrimSpace,
	"trimsuffix": strings.TrimSuffix,
	"replace":    strings.ReplaceAll,
}

// Prompts renders every text the baseline methods send: question prompts,
// history records, memory blocks and the summariser prompt. It is immutable
// after loading and safe for concurrent use.
type Prompts struct {
	// Lang is the language of the embedded base templates.
	Lang string
	t    *template.Template
	// records memoises the history records: the "record" template compiled
	// once, and the token cost of every record rendered (see
	// prompt_history.go).
	records recordMemo
}

// LoadPrompts loads the embedded templates of lang ("" means "zh") and then
// each override file in order. An override file holds {{define "name"}}
// blocks that replace the embedded ones of the same name.
func LoadPrompts(lang string, overrides ...string) (*Prompts, error) {
	if lang == "" {
		lang = DefaultLanguage
	}
	base, err := templateFS.ReadFile("templates/" + lang + ".tmpl")
	if err != nil {
		return nil, fmt.Errorf("predict: no prompt templates for language %q (have %s)", lang, strings.Join(Languages(), ", "))
	}
	t, err := template.New(lang).Funcs(TemplateFuncs).Option("missingkey=error").Parse(string(base))
	if err != nil {
		return nil, fmt.Errorf("predict: embedded templates %s: %w", lang, err)
	}
	for _, path := range overrides {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("predict: prompt override: %w", err)
		}
		if _, err := t.New(path).Parse(string(b)); err != nil {
			return nil, fmt.Errorf("predict: prompt override %s: %w", path, err)
		}
	}
	for _, name := range templateNames {
		if t.Lookup(name) == nil {
			return nil, fmt.Errorf("predict: prompt templates %s: %q is not defined", lang, name)
		}
	}
	return &Prompts{Lang: lang, t: t}, nil
}

// exec renders one named template.
func (p *Prompts) exec(name string, data any) (string, error) {
	var b strings.Builder
	if err := p.t.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("predict: render %s prompt (%s): %w", name, p.Lang, err)
	}
	return b.String(), nil
}

// LoadNamedPrompts loads the embedded templates of lang, then replaces the
// named templates with the contents of the given files (name → path, as in a
// config's prompt.templates). A file holds the body of one template; a file
// that itself contains {{define}} blocks is loaded as a plain override file.
func LoadNamedPrompts(lang string, named map[string]string) (*Prompts, error) {
	names := make([]string, 0, len(named))
	for n := range named {
		names = append(names, n)
	}
	sort.Strings(names)
	p, err := LoadPrompts(lang)
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		path := named[name]
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("predict: prompt template %q: %w", name, err)
		}
		body := string(b)
		if !strings.Contains(body, "{{define") {
			if !slices.Contains(templateNames, name) {
				return nil, fmt.Errorf("predict: prompt template %q (%s): unknown name (have %s)", name, path, strings.Join(templateNames, ", "))
			}
			body = `{{define "` + name + `"}}` + strings.TrimRight(body, "\n") + `{{end}}`
		}
		if _, err := p.t.New(path).Parse(body); err != nil {
			return nil, fmt.Errorf("predict: prompt template %q (%s): %w", name, path, err)
		}
	}
	return p, nil
}
