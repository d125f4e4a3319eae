package scored

import (
	"fmt"
	"strings"

	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/reports/runinfo"
	"github.com/memharness/memharness/runrecord"
)

// figCaption is a run's provenance as one caption line: the title's parts
// joined by " · ", with the methods that had empty memories named (a
// reader of the figure alone must see which bars rest on nothing).
func (s *Summary) FigCaption() string {
	m := s.Run.Manifest
	parts := []string{s.Task(), "backbone: " + runinfo.BackboneText(m.Backbone, m.Model), "prompts: " + m.PromptsLabel()}
	if m.DataSource != "" {
		parts = append(parts, "data: "+m.DataSource)
	}
	return strings.Join(append(parts, figWarnings(m)...), " · ")
}

// figWarnings are the manifest's warnings for a caption.
func figWarnings(m runrecord.Manifest) []string {
	var out []string
	for _, lo := range m.LeftOut {
		out = append(out, "warning: "+lo.What+" left out")
	}
	if n := len(m.DataWarnings); n > 0 {
		out = append(out, fmt.Sprintf("warning: %d data warning(s), see index", n))
	}
	if len(m.EmptyMemories) > 0 {
		var names []string
		for name := range m.EmptyMemories {
			names = append(names, name)
		}
		render.SortNatural(names)
		out = append(out, "warning: empty memories in "+render.NameList(names, 4))
	}
	if m.EmbedderWarning != "" {
		out = append(out, "warning: hash embedder on a real backbone, see index")
	}
	return out
}

// ciNote says what the error bars are, from the report's real settings.
func (s *Summary) CINote() string {
	return render.CIText(s.Opts.Level, s.Opts.Iters)
}
