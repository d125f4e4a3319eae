package runinfo

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/runrecord"
)

// provenance says where a report's numbers came from. Every CSV row carries
// it (four trailing columns), so a table copied out of its run directory
// still names its backbone, model, data and harness.
type Provenance struct {
	Backbone, Model, DataSource, Harness string
}

// provenanceColumns are the columns stamped onto every CSV.
var ProvenanceColumns = []string{"backbone", "model", "data_source", "harness_version"}

func ProvenanceOf(m runrecord.Manifest) Provenance {
	h := m.HarnessVersion
	if m.GitCommit != "" {
		h += "+" + shortCommit(m.GitCommit)
	}
	return Provenance{Backbone: m.Backbone, Model: m.Model, DataSource: m.DataSource, Harness: h}
}

// joinProvenance is the provenance of a file drawn from several runs: each
// field is the runs' distinct values, joined by "; " in order of first use.
func JoinProvenance(ps []Provenance) Provenance {
	var out Provenance
	join := func(dst *string, v string) {
		for _, have := range strings.Split(*dst, "; ") {
			if have == v {
				return
			}
		}
		if *dst != "" {
			*dst += "; "
		}
		*dst += v
	}
	for _, p := range ps {
		join(&out.Backbone, p.Backbone)
		join(&out.Model, p.Model)
		join(&out.DataSource, p.DataSource)
		join(&out.Harness, p.Harness)
	}
	return out
}

func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

// stampCSVs appends the provenance columns to every CSV artefact in dir. A
// file that already has them (a report rebuilt over an old one is written
// afresh, so this only guards against stamping twice) is left as it is.
func StampCSVs(dir string, arts []render.Artefact, p Provenance) error {
	for _, a := range arts {
		if !strings.HasSuffix(a.Path, ".csv") {
			continue
		}
		if err := stampCSV(filepath.Join(dir, a.Path), p); err != nil {
			return err
		}
	}
	return nil
}

func stampCSV(path string, p Provenance) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("stamp %s: %w", path, err)
	}
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		return fmt.Errorf("stamp %s: %w", path, err)
	}
	if len(rows) == 0 {
		return nil
	}
	if h := rows[0]; len(h) >= len(ProvenanceColumns) && slices.Equal(h[len(h)-len(ProvenanceColumns):], ProvenanceColumns) {
		return nil
	}
	rows[0] = append(rows[0], ProvenanceColumns...)
	for i := 1; i < len(rows); i++ {
		rows[i] = append(rows[i], p.Backbone, p.Model, p.DataSource, p.Harness)
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(rows); err != nil {
		return fmt.Errorf("stamp %s: %w", path, err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("stamp %s: %w", path, err)
	}
	return nil
}

// readUsage reads usage.json of a run directory (nil when absent).
func ReadUsage(runDir string) (map[string]runrecord.MethodUsage, error) {
	b, err := os.ReadFile(filepath.Join(runDir, runrecord.UsageFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var u map[string]runrecord.MethodUsage
	if err := json.Unmarshal(b, &u); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(runDir, runrecord.UsageFile), err)
	}
	return u, nil
}

// warningSuffix is added to every title of a run that lost part of its
// configured work, so no table is read without knowing it.
func WarningSuffix(m runrecord.Manifest) string {
	var parts []string
	for _, lo := range m.LeftOut {
		parts = append(parts, lo.What+" left out")
	}
	if n := len(m.DataWarnings); n > 0 {
		parts = append(parts, fmt.Sprintf("%d data warning(s), see index", n))
	}
	if n := len(m.EmptyMemories); n > 0 {
		parts = append(parts, fmt.Sprintf("empty memories in %d method(s)", n))
	}
	if m.EmbedderWarning != "" {
		parts = append(parts, "hash embedder on a real backbone, see index")
	}
	if len(parts) == 0 {
		return ""
	}
	return " — ⚠ " + strings.Join(parts, "; ")
}

// emptyMemoryNote flags a method's table row.
func EmptyMemoryNote(m runrecord.Manifest, method string) string {
	users := m.EmptyMemories[method]
	if len(users) == 0 {
		return ""
	}
	return fmt.Sprintf(" ⚠ empty memory for %d user(s)", len(users))
}

// warningsSection is the index's account of everything that did not go as
// configured: left-out parts, data warnings, empty memories, invalid answers
// per call purpose, and the cost.
func WarningsSection(m runrecord.Manifest, usage map[string]runrecord.MethodUsage) string {
	var b strings.Builder
	b.WriteString("## Warnings and accounting\n\n")
	n := 0
	for _, lo := range m.LeftOut {
		n++
		fmt.Fprintf(&b, "- **Left out: %s** — %s", render.MdText(lo.What), render.MdText(lo.Reason))
		if lo.Install != "" {
			fmt.Fprintf(&b, "; to include it: `%s`", strings.ReplaceAll(lo.Install, "`", "'"))
		}
		b.WriteString(". Every score of this run is over the parts that ran.\n")
	}
	for _, w := range m.DataWarnings {
		n++
		fmt.Fprintf(&b, "- **Data warning:** %s\n", render.MdText(w))
	}
	for _, meth := range slices.Sorted(maps.Keys(m.EmptyMemories)) {
		n++
		users := m.EmptyMemories[meth]
		shown := users
		if len(shown) > 10 {
			shown = append(slices.Clone(shown[:10]), "…")
		}
		fmt.Fprintf(&b, "- **Empty memory:** method %s built an empty memory for %d user(s): %s; its rows are flagged.\n",
			render.MdText(meth), len(users), render.MdText(strings.Join(shown, ", ")))
	}
	if m.EmbedderWarning != "" {
		n++
		fmt.Fprintf(&b, "- **Embedder:** %s.\n", render.MdText(m.EmbedderWarning))
	}
	for _, f := range slices.Concat(m.JournalLosses, m.JournalFindings) {
		n++
		fmt.Fprintf(&b, "- **Usage journal:** %s.\n", render.MdText(f))
	}
	for _, p := range slices.Sorted(maps.Keys(usage)) {
		if u := usage[p]; u.UsageEstimated > 0 {
			n++
			fmt.Fprintf(&b, "- **Token counts (%s):** %s.\n", render.MdText(p), render.MdText(u.EstimatedText()))
		}
	}
	if n == 0 {
		b.WriteString("- Nothing was left out and no data warning was raised.\n")
	}
	if len(usage) > 0 {
		b.WriteString("\n| call purpose | calls | live | cached | errors | invalid draws | answers invalid after redraws | mean latency (ms) | cost |\n|---|---|---|---|---|---|---|---|---|\n")
		total, priced := 0.0, false
		for _, p := range slices.Sorted(maps.Keys(usage)) {
			u := usage[p]
			cost := "not priced"
			if u.Cost != nil {
				cost = fmt.Sprintf("$%.4f", *u.Cost)
				total += *u.Cost
				priced = true
			}
			inv := "–"
			if u.Units > 0 {
				inv = fmt.Sprintf("%d/%d (%.1f%%)", u.InvalidFinal, u.Units, 100*u.InvalidRate)
			}
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %s | %.1f | %s |\n",
				render.MdText(p), u.Calls, u.LiveCalls, u.CachedCalls, u.Errors, u.Invalid, inv, u.LatencyMeanMS, cost)
		}
		var batched []string
		for _, p := range slices.Sorted(maps.Keys(usage)) {
			if u := usage[p]; u.BatchedCalls > 0 {
				batched = append(batched, fmt.Sprintf("%s %d of %d live", render.MdText(p), u.BatchedCalls, u.LiveCalls))
			}
		}
		if len(batched) > 0 {
			fmt.Fprintf(&b, "\nCalls answered by provider batches (backbone.batch), at the batch price: %s.\n", strings.Join(batched, ", "))
		}
		if priced {
			fmt.Fprintf(&b, "\nTotal cost: $%.4f.\n", total)
		} else {
			b.WriteString("\nCost: not priced (set backbone.prices to price the calls).\n")
		}
		for _, p := range slices.Sorted(maps.Keys(usage)) {
			if ex := usage[p].InvalidExample; ex != "" {
				fmt.Fprintf(&b, "\nOne invalid answer for %s: `%s`\n", render.MdText(p), strings.ReplaceAll(strings.ReplaceAll(ex, "`", "'"), "\n", " "))
			}
		}
	}
	b.WriteString("\n")
	return b.String()
}
