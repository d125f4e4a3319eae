package memstyle

import (
	"embed"
	"fmt"
	"os"
	"strings"
	"text/template"

	"github.com/memharness/memharness/methods/predict"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

// textNames are the templates every language must end up defining.
var textNames = []string{
	"mem0_extract", "mem0_update", "memos_extract", "memos_consolidate", "proex_induce",
	"memory_mem0", "memory_memos", "memos_title", "memory_proex",
}

// texts renders the construction prompts and memory blocks of one
// language. It is immutable after loading.
type texts struct {
	lang string
	t    *template.Template
}

// loadTexts parses the English templates, then lang's (which replace the
// blocks they define), then each override file in order. Override files
// are the spec's prediction-template files: a block named like one of
// textNames replaces it, other blocks are ignored here.
func loadTexts(lang string, overrides []string) (*texts, error) {
	t, err := parseEmbedded(template.New("memstyle").Funcs(predict.TemplateFuncs).Option("missingkey=error"), "en")
	if err != nil {
		return nil, err
	}
	if lang != "en" {
		if _, err := templateFS.ReadFile("templates/" + lang + ".tmpl"); err != nil {
			return nil, fmt.Errorf("memstyle: no templates for language %q (have en, zh)", lang)
		}
		if t, err = parseEmbedded(t, lang); err != nil {
			return nil, err
		}
	}
	for _, path := range overrides {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("memstyle: template override: %w", err)
		}
		if _, err := t.New(path).Parse(string(b)); err != nil {
			return nil, fmt.Errorf("memstyle: template override %s: %w", path, err)
		}
	}
	for _, n := range textNames {
		if t.Lookup(n) == nil {
			return nil, fmt.Errorf("memstyle: templates %s: %q is not defined", lang, n)
		}
	}
	return &texts{lang: lang, t: t}, nil
}

func parseEmbedded(t *template.Template, lang string) (*template.Template, error) {
	b, err := templateFS.ReadFile("templates/" + lang + ".tmpl")
	if err != nil {
		return nil, fmt.Errorf("memstyle: embedded templates %s: %w", lang, err)
	}
	if _, err := t.New(lang).Parse(string(b)); err != nil {
		return nil, fmt.Errorf("memstyle: embedded templates %s: %w", lang, err)
	}
	return t, nil
}

func (x *texts) exec(name string, data any) (string, error) {
	var b strings.Builder
	if err := x.t.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("memstyle: render %s (%s): %w", name, x.lang, err)
	}
	return b.String(), nil
}

// listItems renders stored texts as "- " lines.
func listItems(items []string) string {
	lines := make([]string, len(items))
	for i, s := range items {
		lines[i] = "- " + s
	}
	return strings.Join(lines, "\n")
}
