package reports

import (
	"fmt"
	"strings"

	"github.com/memharness/memharness/reports/render"
)

// title is the line every artefact carries: task, backbone and data source,
// so a sim result can never be mistaken for an LLM result.
func (s *summary) title() string {
	m := s.run.manifest
	parts := []string{s.task(), "backbone: " + backboneText(m.Backbone, m.Model), "prompts: " + m.PromptsLabel()}
	if m.DataSource != "" {
		parts = append(parts, "data: "+m.DataSource)
	}
	if p := m.ProvenanceLabel(); p != "" {
		parts = append(parts, "provenance: "+p)
	}
	return strings.Join(parts, " — ") + warningSuffix(m)
}

func (s *summary) task() string {
	if s.opts.Task != "" {
		return s.opts.Task
	}
	ds := s.run.samples[0].Dataset
	switch l := strings.ToLower(ds); {
	case strings.Contains(l, "movielens"):
		return "MovieLens-1M rating prediction"
	case strings.Contains(l, "omnibehavior"):
		return "OmniBehavior behaviour prediction"
	case ds != "":
		return ds + " prediction"
	}
	return "behaviour prediction"
}

func backboneText(backbone, model string) string {
	switch backbone {
	case "sim":
		return "sim (embedded heuristic reader, not an LLM)"
	case "":
		return render.OrDefault(model, "unknown")
	}
	if model != "" {
		return fmt.Sprintf("%s model %s", backbone, model)
	}
	return backbone
}

// fieldAxis names heat-map axes after the field: "rating" for rating
// fields, "class" otherwise.
func fieldAxis(f field) (x, y string) {
	noun := "class"
	if strings.Contains(strings.ToLower(f.Name), "rating") {
		noun = "rating"
	}
	return "predicted " + noun, "true " + noun
}

// texSource is the one line of provenance under a table: backbone, data,
// prompts and what went wrong, in the fewest words (the file's comments
// keep the full title).
func texSource(backbone, model, prompts, data string, warnings []string) string {
	bb := backbone
	switch {
	case backbone == "sim":
		bb = "sim (a heuristic reader, not an LLM)"
	case model != "":
		bb = model
	case bb == "":
		bb = "unknown"
	}
	parts := []string{"Backbone: " + bb}
	if data != "" {
		parts = append(parts, "data: "+data)
	}
	parts = append(parts, "prompts: "+prompts)
	line := strings.Join(parts, "; ") + "."
	if len(warnings) > 0 {
		line += " ⚠ " + strings.Join(warnings, "; ") + "."
	}
	return line
}

// texSource of a behaviour-prediction run.
func (s *summary) texSource() string {
	m := s.run.manifest
	var warn []string
	if w := warningSuffix(m); w != "" {
		warn = append(warn, strings.TrimPrefix(w, " — ⚠ "))
	}
	return texSource(m.Backbone, m.Model, m.PromptsLabel(), m.DataSource, warn)
}
