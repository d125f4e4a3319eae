package pramem

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"text/template"

	"github.com/memharness/memharness/methods/predict"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

// templateNames are the templates every language must define.
var templateNames = []string{
	"marker_history", "marker_details", "marker_scene", "marker_task",
	"memory", "practice_task", "practice_question_rating", "practice_label", "types",
	"trial", "trial_direct", "reflect", "reflect_direct", "scenes", "generalize",
	"perturb", "perturb_judge", "review", "eval", "init_pattern", "init_calibration",
}

// stagePrompts renders PraMem's own prompts (practice stages, memory block).
// It is immutable after loading.
type stagePrompts struct {
	lang string
	t    *template.Template
	// digest identifies the loaded text (embedded language plus overrides),
	// so checkpoints of different prompts never mix.
	digest string
}

// loadStagePrompts loads the embedded templates of lang, then each override
// file (a file of {{define}} blocks, as predict's overrides; blocks naming
// predict's templates are simply unused here).
func loadStagePrompts(lang string, overrides []string) (*stagePrompts, error) {
	if lang == "" {
		lang = predict.DefaultLanguage
	}
	base, err := templateFS.ReadFile("templates/" + lang + ".tmpl")
	if err != nil {
		return nil, fmt.Errorf("pramem: no prompt templates for language %q (have zh, en)", lang)
	}
	h := sha256.New()
	h.Write(base)
	t, err := template.New(lang).Funcs(predict.TemplateFuncs).Option("missingkey=error").Parse(string(base))
	if err != nil {
		return nil, fmt.Errorf("pramem: embedded templates %s: %w", lang, err)
	}
	for _, path := range overrides {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("pramem: prompt override: %w", err)
		}
		h.Write([]byte{0})
		h.Write(b)
		if _, err := t.New(path).Parse(string(b)); err != nil {
			return nil, fmt.Errorf("pramem: prompt override %s: %w", path, err)
		}
	}
	for _, name := range templateNames {
		if t.Lookup(name) == nil {
			return nil, fmt.Errorf("pramem: prompt templates %s: %q is not defined", lang, name)
		}
	}
	return &stagePrompts{lang: lang, t: t, digest: hex.EncodeToString(h.Sum(nil))}, nil
}

func (p *stagePrompts) exec(name string, data any) (string, error) {
	var b strings.Builder
	if err := p.t.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("pramem: render %s prompt (%s): %w", name, p.lang, err)
	}
	return b.String(), nil
}

// marker renders a marker template (they take no data and cannot fail once
// loaded; a failure yields "" and so a marker that is never found).
func (p *stagePrompts) marker(name string) string {
	s, err := p.exec(name, nil)
	if err != nil {
		return ""
	}
	return s
}
