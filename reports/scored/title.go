package scored

import (
	"fmt"
	"strings"

	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/reports/runinfo"
)

// title is the line every artefact carries: task, backbone and data source,
// so a sim result can never be mistaken for an LLM result.
func (s *Summary) Title() string {
	m := s.Run.Manifest
	parts := []string{s.Task(), "backbone: " + runinfo.BackboneText(m.Backbone, m.Model), "prompts: " + m.PromptsLabel()}
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

func (s *Summary) Task() string {
	if s.Opts.Task != "" {
		return s.Opts.Task
	}
	ds := s.Run.Samples[0].Dataset
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

// texSource of a behaviour-prediction run.
func (s *Summary) TeXSource() string {
	m := s.Run.Manifest
	var warn []string
	if w := runinfo.WarningSuffix(m); w != "" {
		warn = append(warn, strings.TrimPrefix(w, " — ⚠ "))
	}
	return runinfo.TeXSource(m.Backbone, m.Model, m.PromptsLabel(), m.DataSource, warn)
}

// MdDoc is a Markdown report: the run's title (its provenance) as the
// heading, once, and the tables under it with headings that leave it out.
// TeXDoc is the LaTeX document of the tables under the run's title.
func (s *Summary) MdDoc(parts ...string) string {
	return "# " + render.MdCell(s.Title()) + "\n\n" + render.UnderProvenance(strings.Join(parts, ""), s.Title())
}

func (s *Summary) TeXDoc(parts ...string) string { return render.TeXFile(s.Title(), parts...) }

// CILabel is the column note of an interval: "[95% CI]".
func (s *Summary) CILabel() string { return fmt.Sprintf("[%g%% CI]", 100*s.Opts.Level) }
