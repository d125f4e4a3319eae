package alfworld

import (
	"strconv"
	"strings"
)

// assignNames gives entities the display names ALFWorld's demangler gives
// them: the PDDL name up to the first "_bar_" (plus "basin" for sink and
// bathtub basins), numbered per kind over the entities that occur in the
// initial facts sorted by PDDL name, the first getting the highest number
// ("cabinet 3" sorts before "cabinet 1"). Names without "_bar_" (types,
// agent1) are kept as they are (the demangler adds a trailing space, which
// no ALFWorld text ever shows).
func assignNames(w *world) {
	seen := make([]bool, len(w.ents))
	var ids []int
	for _, f := range w.init {
		for _, a := range f.args[:w.dom.preds[f.pred].arity] {
			if !seen[a] {
				seen[a] = true
				ids = append(ids, int(a))
			}
		}
	}
	w.idOrder(ids)
	kind := func(id string) (string, bool) {
		name, _, ok := strings.Cut(id, "_bar_")
		if ok && strings.Contains(id, "basin") {
			name += "basin"
		}
		return name, ok
	}
	count := map[string]int{}
	for _, e := range ids {
		if k, ok := kind(w.ents[e].id); ok {
			count[k]++
		}
	}
	for _, e := range ids {
		k, ok := kind(w.ents[e].id)
		if !ok {
			w.ents[e].name = w.ents[e].id
			continue
		}
		w.ents[e].name = k + " " + strconv.Itoa(count[k])
		count[k]--
	}
	// Entities absent from the facts keep their PDDL name (TextWorld's
	// fallback); no command or text can mention them.
	for e := range w.ents {
		if w.ents[e].name == "" {
			w.ents[e].name = w.ents[e].id
		}
	}
}
