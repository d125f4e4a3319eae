package memstyle

import (
	"cmp"
	"fmt"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/sim"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/llm/hint"
)

// The memory-system baselines (methods/memstyle) ask the sim for memory
// construction steps. Each answer is computed over exactly the records the
// request shows and is written in the text format the prompt asks a real
// model for; every statistic is a line of the fact grammar, so the
// prediction reader uses whatever part of the memory a method retrieves.
//
// A single-attribute fact (one value of one attribute, per field) is
// salient when it covers at least minSalientCount records and its rate
// deviates from the field's rate over the shown records by |z| ≥ salientZ,
// z = (mean − field mean)·√count / field sd: what the user does in a
// context more, or less, than usual. Both directions count, because a
// memory of likings only would push every reader towards Yes.
//
//   - MemExtract (Mem0 extraction): "- <fact>" lines: the salient
//     facts, most surprising first, then the scene-level rate of every
//     field, most records first; at most MaxFacts lines; "NONE" when the
//     chunk holds no outcome of any field.
//   - MemUpdate (Mem0 update): a stored memory for the same field and
//     scope as the candidate is updated to the exact merge of both
//     ("UPDATE <id>: <fact>"; the statistics cover disjoint chunks), further
//     ones with that scope are deleted as duplicates ("DELETE <id>"); with
//     none the candidate is added ("ADD: <fact>"). A candidate the sim
//     cannot read is added unchanged; an empty one gets "NONE".
//   - MemTyped (MemOS typed units): "profile" = the scene-level rate
//     of every field; "habit" = salient facts the user nearly always acts
//     on (binary rate ≥ habitRate over ≥ habitCount records; numeric
//     fields: a mean ≥ habitDelta above the field's); "preference" = the
//     other salient facts (likings and aversions); "event" = one prose line
//     counting the chunk's records per scene and the positives per field
//     (prose: the prediction reader ignores it, a real model may not).
//   - MemConsolidate: facts with the same field and scope are merged
//     exactly; when more than Max units remain, the facts with the most
//     positives (then records) are kept, and prose units keep the newest,
//     the older ones folded into one "Earlier episodes" line.
//   - ProfileInduce (ProEx): a header line, then the scene-level rate
//     of every field and the salient facts over the shown slice, at most
//     MaxFacts fact lines.

// Thresholds of the memory-construction answers.
const (
	minSalientCount = 3    // records of a salient attribute fact
	salientZ        = 2.0  // |z| of a salient attribute fact
	minSD           = 0.15 // floor of a field's sd in the z-score
	habitRate       = 0.6  // binary rate of a habit
	habitCount      = 3    // records of a habit
	habitDelta      = 1.0  // numeric fields: mean above the field's mean
	maxEarlierRunes = 400  // length of the folded "Earlier episodes" line
)

// SimReaders are the embedded backbone's readers of the memory-construction
// calls of the Mem0-, MemOS- and ProEx-style methods; their predictions go
// through hint.Predict, read by predict.SimReaders.
func SimReaders() []sim.Reader {
	return []sim.Reader{
		sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h MemExtract) (string, error) { return memExtract(h), nil }),
		sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h MemUpdate) (string, error) {
			// A fact of the grammar is a behaviour fact; other text may be
			// a dialogue fact.
			if _, fact := sim.ParseFact(strings.TrimSpace(h.Fact)); !fact {
				if s, ok := dialogueUpdate(h); ok {
					return s, nil
				}
			}
			return memUpdate(h), nil
		}),
		sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h DialogueExtract) (string, error) { return dialogueExtract(h), nil }),
		sim.ReaderFor(func(_ *sim.Sim, req llm.Request, h MemTyped) (string, error) { return memTyped(req.Purpose, h) }),
		sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h MemConsolidate) (string, error) { return memConsolidate(h), nil }),
		sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h ProfileInduce) (string, error) { return profileInduce(h), nil }),
	}
}

// fieldStats are one field's statistics over some records.
type fieldStats struct {
	field  string
	binary bool    // every outcome is 0 or 1
	mean   float64 // over every record carrying the field
	// variance of the field's outcomes (binary: mean·(1−mean)).
	variance float64
	scene    []sim.Fact // one per scene, most records first
	attr     []sim.Fact // one per attribute value
}

// statsOf tallies field over events: per scene and per attribute value.
// Facts come out in a fixed order (scene: records desc then scope; attr:
// scope), so answers never depend on map order.
func statsOf(field string, events []hint.Event) (fieldStats, bool) {
	st := fieldStats{field: field, binary: true}
	scenes, attrs := map[string]*sim.Tally{}, map[string]*sim.Tally{}
	add := func(m map[string]*sim.Tally, c sim.Cond, y float64) {
		k := c.Key + "=" + c.Value
		t, ok := m[k]
		if !ok {
			t = &sim.Tally{Conds: []sim.Cond{c}}
			m[k] = t
		}
		t.Sum += y
		t.N++
	}
	var sum, sq float64
	n := 0
	for _, e := range events {
		y, ok := e.Outcomes[field]
		if !ok {
			continue
		}
		if y != 0 && y != 1 {
			st.binary = false
		}
		sum += y
		sq += y * y
		n++
		if e.Scene != "" {
			add(scenes, sim.Cond{Key: "scene", Value: e.Scene}, y)
		}
		for _, k := range slices.Sorted(maps.Keys(e.Attrs)) {
			for _, v := range sim.AttrValues(e.Attrs[k]) {
				add(attrs, sim.Cond{Key: k, Value: v}, y)
			}
		}
	}
	if n == 0 {
		return st, false
	}
	st.mean = sum / float64(n)
	st.variance = max(0, sq/float64(n)-st.mean*st.mean)
	for _, k := range slices.Sorted(maps.Keys(scenes)) {
		st.scene = append(st.scene, scenes[k].Fact(field))
	}
	slices.SortStableFunc(st.scene, func(a, b sim.Fact) int { return cmp.Compare(b.Count, a.Count) })
	for _, k := range slices.Sorted(maps.Keys(attrs)) {
		st.attr = append(st.attr, attrs[k].Fact(field))
	}
	return st, true
}

// deviation is how surprising an attribute fact is given the field's
// overall rate: (mean − field mean)·√count / field sd, a z-score. The sd is
// floored so a field with no spread in the chunk does not make every
// attribute look significant.
func (st fieldStats) deviation(f sim.Fact) float64 {
	sd := math.Max(math.Sqrt(st.variance), minSD)
	return (f.Mean - st.mean) * math.Sqrt(float64(f.Count)) / sd
}

// salient reports whether an attribute fact says something the field's
// overall rate does not: at least minSalientCount records whose rate
// deviates from it by |z| ≥ salientZ, either way (a liking or an
// aversion: keeping only likings would bias every reader upwards).
func (st fieldStats) salient(f sim.Fact) bool {
	return f.Count >= minSalientCount && math.Abs(st.deviation(f)) >= salientZ
}

// habit reports whether an attribute fact is a near-rule: salient upwards
// and, for binary fields, a rate of at least habitRate (numeric fields: a
// mean at least habitDelta above the field's).
func (st fieldStats) habit(f sim.Fact) bool {
	if !st.salient(f) || st.deviation(f) <= 0 || f.Count < habitCount {
		return false
	}
	if st.binary {
		return f.Mean >= habitRate
	}
	return f.Mean-st.mean >= habitDelta
}

// attrFacts returns the attribute facts keep accepts, over every field,
// most surprising (|z|) first, then most records, then by text; and the
// scene-level facts of every field, most records first.
func attrFacts(fields []string, events []hint.Event, keep func(fieldStats, sim.Fact) bool) (attr, scene []sim.Fact) {
	type scored struct {
		f sim.Fact
		z float64
	}
	var ss []scored
	for _, field := range fieldsOf(fields, events) {
		st, ok := statsOf(field, events)
		if !ok {
			continue
		}
		scene = append(scene, st.scene...)
		for _, f := range st.attr {
			if keep(st, f) {
				ss = append(ss, scored{f, math.Abs(st.deviation(f))})
			}
		}
	}
	slices.SortFunc(ss, func(a, b scored) int {
		if d := cmp.Compare(b.z, a.z); d != 0 {
			return d
		}
		return byCount(a.f, b.f)
	})
	attr = make([]sim.Fact, len(ss))
	for i, x := range ss {
		attr[i] = x.f
	}
	slices.SortStableFunc(scene, byCount)
	return attr, scene
}

// fieldsOf returns the requested fields, or every field the events carry.
func fieldsOf(fields []string, events []hint.Event) []string {
	if len(fields) > 0 {
		return fields
	}
	seen := map[string]bool{}
	for _, e := range events {
		for k := range e.Outcomes {
			seen[k] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// byPositives orders facts by positives, then records, then text.
func byPositives(a, b sim.Fact) int {
	if d := cmp.Compare(b.Sum, a.Sum); d != 0 {
		return d
	}
	if d := cmp.Compare(b.Count, a.Count); d != 0 {
		return d
	}
	return cmp.Compare(a.String(), b.String())
}

// byCount orders facts by records, then text.
func byCount(a, b sim.Fact) int {
	if d := cmp.Compare(b.Count, a.Count); d != 0 {
		return d
	}
	return cmp.Compare(a.String(), b.String())
}

// capped keeps at most n facts (n <= 0: all).
func capped(fs []sim.Fact, n int) []sim.Fact {
	if n > 0 && len(fs) > n {
		return fs[:n]
	}
	return fs
}

func factLines(fs []sim.Fact) string {
	if len(fs) == 0 {
		return "NONE\n"
	}
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.String() + "\n")
	}
	return b.String()
}

func memExtract(h MemExtract) string {
	attr, scene := attrFacts(h.Fields, h.Chunk, fieldStats.salient)
	return factLines(capped(append(attr, scene...), h.MaxFacts))
}

// bare renders a fact without its list marker (how memories are stored).
func bare(f sim.Fact) string { return strings.TrimPrefix(f.String(), "- ") }

func memUpdate(h MemUpdate) string {
	text := strings.TrimSpace(h.Fact)
	if text == "" {
		return "NONE\n"
	}
	cand, ok := sim.ParseFact(text)
	if !ok || cand.Bias {
		return "ADD: " + text + "\n"
	}
	key := sim.Scope(cand.Conds)
	var b strings.Builder
	merged, first := cand, ""
	for _, m := range h.Existing {
		f, ok := sim.ParseFact(m.Text)
		if !ok || f.Bias || f.Field != cand.Field || sim.Scope(f.Conds) != key {
			continue
		}
		merged.Count += f.Count
		merged.Sum += f.Sum
		if first == "" {
			first = m.ID
		} else {
			fmt.Fprintf(&b, "DELETE %s\n", m.ID)
		}
	}
	if first == "" {
		return "ADD: " + bare(cand) + "\n"
	}
	merged.Mean = merged.Sum / float64(merged.Count)
	return "UPDATE " + first + ": " + bare(merged) + "\n" + b.String()
}

func memTyped(purpose string, h MemTyped) (string, error) {
	var out []sim.Fact
	switch h.Type {
	case "profile":
		_, out = attrFacts(h.Fields, h.Chunk, func(fieldStats, sim.Fact) bool { return false })
	case "habit":
		out, _ = attrFacts(h.Fields, h.Chunk, fieldStats.habit)
	case "preference":
		out, _ = attrFacts(h.Fields, h.Chunk, func(st fieldStats, f sim.Fact) bool { return st.salient(f) && !st.habit(f) })
	case "event":
		return episode(h.Span, fieldsOf(h.Fields, h.Chunk), h.Chunk), nil
	default:
		return "", fmt.Errorf("sim: %s: unknown memory type %q", purpose, h.Type)
	}
	return factLines(capped(out, h.MaxUnits)), nil
}

// episode is one prose line: records per scene (first-appearance order)
// and the positives of each field in that scene.
func episode(span string, fields []string, chunk []hint.Event) string {
	if len(chunk) == 0 {
		return "NONE\n"
	}
	var order []string
	records := map[string]int{}
	pos := map[string]map[string]float64{}
	for _, e := range chunk {
		s := e.Scene
		if s == "" {
			s = "other"
		}
		if _, ok := records[s]; !ok {
			order = append(order, s)
			pos[s] = map[string]float64{}
		}
		records[s]++
		for _, f := range fields {
			if y, ok := e.Outcomes[f]; ok {
				pos[s][f] += y
			}
		}
	}
	parts := make([]string, len(order))
	for i, s := range order {
		var acts []string
		for _, f := range fields {
			if y := pos[s][f]; y != 0 {
				acts = append(acts, f+" "+strconv.FormatFloat(y, 'f', -1, 64))
			}
		}
		parts[i] = s + " ×" + strconv.Itoa(records[s])
		if len(acts) > 0 {
			parts[i] += " (" + strings.Join(acts, ", ") + ")"
		}
	}
	if span == "" {
		span = "chunk"
	}
	return "- Episode (" + span + "): " + strings.Join(parts, "; ") + "\n"
}

func memConsolidate(h MemConsolidate) string {
	var facts []sim.Fact
	index := map[string]int{}
	var prose []string
	for _, u := range h.Units {
		f, ok := sim.ParseFact(u)
		if !ok || f.Bias {
			if t := strings.TrimSpace(u); t != "" {
				prose = append(prose, strings.TrimPrefix(t, "- "))
			}
			continue
		}
		k := f.Field + "\x00" + sim.Scope(f.Conds)
		if i, ok := index[k]; ok {
			facts[i].Count += f.Count
			facts[i].Sum += f.Sum
			facts[i].Mean = facts[i].Sum / float64(facts[i].Count)
			continue
		}
		index[k] = len(facts)
		facts = append(facts, f)
	}
	if h.Max > 0 && len(facts)+len(prose) > h.Max {
		slices.SortFunc(facts, byPositives)
		facts = capped(facts, h.Max)
		switch slots := h.Max - len(facts); {
		case slots <= 0:
			prose = nil
		case len(prose) > slots:
			older := strings.Join(prose[:len(prose)-slots+1], "; ")
			if r := []rune(older); len(r) > maxEarlierRunes {
				older = string(r[:maxEarlierRunes]) + "…"
			}
			prose = append([]string{"Earlier episodes: " + older}, prose[len(prose)-slots+1:]...)
		}
	}
	if len(facts)+len(prose) == 0 {
		return "NONE\n"
	}
	var b strings.Builder
	for _, f := range facts {
		b.WriteString(f.String() + "\n")
	}
	for _, p := range prose {
		b.WriteString("- " + p + "\n")
	}
	return b.String()
}

func profileInduce(h ProfileInduce) string {
	attr, scene := attrFacts(h.Fields, h.Records, fieldStats.salient)
	persp := h.Perspective
	if persp == "" {
		persp = "overall"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "User profile (%s view, %d records):\n", persp, len(h.Records))
	fs := capped(append(scene, attr...), h.MaxFacts)
	if len(fs) == 0 {
		b.WriteString("- No recorded reactions to the questions asked.\n")
	}
	for _, f := range fs {
		b.WriteString(f.String() + "\n")
	}
	return b.String()
}
