package runinfo

import (
	"fmt"
	"strings"

	"github.com/memharness/memharness/reports/render"
)

// The lines that name a run's backbone, data and prompts wherever a report
// shows them: beside a title and under a table.

// backboneText names the backbone for a title line; the embedded one is
// never to be read as an LLM.
func BackboneText(backbone, model string) string {
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

// texSource is the one line of provenance under a table: backbone, data,
// prompts and what went wrong, in the fewest words (the file's comments
// keep the full title).
func TeXSource(backbone, model, prompts, data string, warnings []string) string {
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
