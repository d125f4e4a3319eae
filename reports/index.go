package reports

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func (s *summary) writeIndex(dir string, arts []Artefact) (Artefact, error) {
	m := s.run.manifest
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", mdText(s.title()))
	fmt.Fprintf(&b, "- Run: %s\n", mdText(m.Name))
	fmt.Fprintf(&b, "- Backbone: %s; model: %s\n", mdText(backboneText(m.Backbone, m.Model)), mdText(orDefault(m.Model, "unknown")))
	fmt.Fprintf(&b, "- Data: %s\n", mdText(orDefault(m.DataSource, "unknown")))
	fmt.Fprintf(&b, "- Prompts: %s\n", mdText(m.PromptsLabel()))
	if pv := m.ProvenanceSummary(); pv != "" {
		fmt.Fprintf(&b, "- Provenance (stages by origin of prompt, sampling, parser; per stage in manifest.json): %s\n", mdText(pv))
	}
	if m.Profile != "" {
		fmt.Fprintf(&b, "- Profile: %s\n", mdText(m.Profile))
	}
	if m.Tokenizer != "" {
		fmt.Fprintf(&b, "- Tokens counted by: %s\n", mdText(m.Tokenizer))
	}
	if h := strings.TrimSpace(m.HarnessVersion + " " + m.GitCommit); h != "" {
		fmt.Fprintf(&b, "- Harness: %s\n", mdText(h))
	}
	total, errored := 0, 0
	var per []string
	for _, meth := range s.run.methods {
		u := s.usage[meth]
		total += u.Samples
		errored += u.Errored
		per = append(per, fmt.Sprintf("%s %d", mdText(meth), u.Samples))
	}
	fmt.Fprintf(&b, "- Samples: %d finished, %d errored, %d planned; per method: %s\n", total, errored, m.Samples, strings.Join(per, ", "))
	if line := plannedLine(s.plan, s.runUsage); line != "" {
		fmt.Fprintf(&b, "- Planned vs spent (plan.json, stored at the run's start): %s\n", mdText(line))
	}
	fmt.Fprintf(&b, "- Baseline for paired tests: %s\n", mdText(s.run.methods[0]))
	b.WriteString("- How to regenerate: `bench report <rundir>` (the folder holding manifest.json and samples.jsonl)\n\n")
	for _, a := range arts {
		if a.Path == "table1_vs_paper.md" {
			b.WriteString(s.table1IndexNote())
			break
		}
	}
	b.WriteString(s.pramemIndexNote(arts))
	b.WriteString(warningsSection(m, s.runUsage))
	b.WriteString("## Artefacts\n\n")
	for _, a := range arts {
		fmt.Fprintf(&b, "- [%s](%s) — %s\n", mdText(a.Path), a.Path, mdText(a.Desc))
	}
	if err := os.WriteFile(filepath.Join(dir, "index.md"), []byte(b.String()), 0o644); err != nil {
		return Artefact{}, fmt.Errorf("write index.md: %w", err)
	}
	return Artefact{"index.md", "this index"}, nil
}
