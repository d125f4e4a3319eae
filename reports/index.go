package reports

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memharness/memharness/reports/pramem"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/reports/runinfo"
)

func (s *summary) writeIndex(dir string, arts []render.Artefact) (render.Artefact, error) {
	m := s.Run.Manifest
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", render.MdText(s.Title()))
	fmt.Fprintf(&b, "- Run: %s\n", render.MdText(m.Name))
	fmt.Fprintf(&b, "- Backbone: %s; model: %s\n", render.MdText(runinfo.BackboneText(m.Backbone, m.Model)), render.MdText(render.OrDefault(m.Model, "unknown")))
	fmt.Fprintf(&b, "- Data: %s\n", render.MdText(render.OrDefault(m.DataSource, "unknown")))
	fmt.Fprintf(&b, "- Prompts: %s\n", render.MdText(m.PromptsLabel()))
	if pv := m.ProvenanceSummary(); pv != "" {
		fmt.Fprintf(&b, "- Provenance (stages by origin of prompt, sampling, parser; per stage in manifest.json): %s\n", render.MdText(pv))
	}
	if m.Profile != "" {
		fmt.Fprintf(&b, "- Profile: %s\n", render.MdText(m.Profile))
	}
	if m.Tokenizer != "" {
		fmt.Fprintf(&b, "- Tokens counted by: %s\n", render.MdText(m.Tokenizer))
	}
	if h := strings.TrimSpace(m.HarnessVersion + " " + m.GitCommit); h != "" {
		fmt.Fprintf(&b, "- Harness: %s\n", render.MdText(h))
	}
	total, errored := 0, 0
	var per []string
	for _, meth := range s.Run.Methods {
		u := s.Usage[meth]
		total += u.Samples
		errored += u.Errored
		per = append(per, fmt.Sprintf("%s %d", render.MdText(meth), u.Samples))
	}
	fmt.Fprintf(&b, "- Samples: %d finished, %d errored, %d planned; per method: %s\n", total, errored, m.Samples, strings.Join(per, ", "))
	if line := runinfo.PlannedLine(s.Plan, s.RunUsage); line != "" {
		fmt.Fprintf(&b, "- Planned vs spent (plan.json, stored at the run's start): %s\n", render.MdText(line))
	}
	fmt.Fprintf(&b, "- Baseline for paired tests: %s\n", render.MdText(s.Run.Methods[0]))
	b.WriteString("- How to regenerate: `bench report <rundir>` (the folder holding manifest.json and samples.jsonl)\n\n")
	b.WriteString(pramem.IndexNote(arts, m.Backbone))
	b.WriteString(runinfo.WarningsSection(m, s.RunUsage))
	b.WriteString("## Artefacts\n\n")
	for _, a := range arts {
		fmt.Fprintf(&b, "- [%s](%s) — %s\n", render.MdText(a.Path), a.Path, render.MdText(a.Desc))
	}
	if err := os.WriteFile(filepath.Join(dir, "index.md"), []byte(b.String()), 0o644); err != nil {
		return render.Artefact{}, fmt.Errorf("write index.md: %w", err)
	}
	return render.Artefact{Path: "index.md", Desc: "this index"}, nil
}
