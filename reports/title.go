package reports

import (
	"strings"

	"github.com/memharness/memharness/reports/runinfo"
)

// title is the line every artefact carries: task, backbone and data source,
// so a sim result can never be mistaken for an LLM result.
func (s *summary) title() string {
	m := s.run.manifest
	parts := []string{s.task(), "backbone: " + runinfo.BackboneText(m.Backbone, m.Model), "prompts: " + m.PromptsLabel()}
	if m.DataSource != "" {
		parts = append(parts, "data: "+m.DataSource)
	}
	if p := m.ProvenanceLabel(); p != "" {
		parts = append(parts, "provenance: "+p)
	}
	if e := m.ExternalLabel(); e != "" {
		parts = append(parts, "external: "+e)
	}
	return strings.Join(parts, " — ") + runinfo.WarningSuffix(m)
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

// fieldAxis names heat-map axes after the field: "rating" for rating
// fields, "class" otherwise.
func fieldAxis(f field) (x, y string) {
	noun := "class"
	if strings.Contains(strings.ToLower(f.Name), "rating") {
		noun = "rating"
	}
	return "predicted " + noun, "true " + noun
}

// texSource of a behaviour-prediction run.
func (s *summary) texSource() string {
	m := s.run.manifest
	var warn []string
	if w := runinfo.WarningSuffix(m); w != "" {
		warn = append(warn, strings.TrimPrefix(w, " — ⚠ "))
	}
	return runinfo.TeXSource(m.Backbone, m.Model, m.PromptsLabel(), m.DataSource, warn)
}
