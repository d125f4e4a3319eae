package reports

import (
	"fmt"
	"slices"
	"strconv"
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
		out = append(out, "warning: empty memories in "+nameList(names, 4))
	}
	if m.EmbedderWarning != "" {
		out = append(out, "warning: hash embedder on a real backbone, see index")
	}
	return out
}

// nameList joins names, the first n of them and a count of the rest.
func nameList(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// ciNote says what the error bars are, from the report's real settings.
func (s *Summary) CINote() string {
	return ciText(s.Opts.Level, s.Opts.Iters)
}

func ciText(level float64, iters int) string {
	return fmt.Sprintf("Error bars: %s %% cluster bootstrap CI (users resampled), %s resamples.",
		strconv.FormatFloat(100*level, 'f', -1, 64), thousands(iters))
}

// thousands writes n with thousands separators (1,000).
func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// sameValues reports whether two series are equal wherever both are set.
func sameValues(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return x == y || x != x && y != y })
}
