package lifemem

import (
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/metrics"
)

// lmKinds is what a LifeMem report shows of the environments: their entries
// in the registry the caller was given (display names, plot labels, Table 2
// categories). An environment without an entry shows its registry name.
type lmKinds []envs.Entry

func (k lmKinds) find(env string) envs.Entry {
	for _, e := range k {
		if e.Name == env {
			return e
		}
	}
	return envs.Entry{Name: env}
}

// label is an environment's name written out, for tables and figures.
func (k lmKinds) label(env string) string { return k.find(env).Label() }

// short is a plot-axis label (ASCII, a few letters).
func (k lmKinds) short(env string) string { return k.find(env).Short() }

// categories are Table 2's scenarios: one per category of the entries, in
// the order categories first appear, each with its environments in
// registry order.
func (k lmKinds) categories() []metrics.Category {
	var out []metrics.Category
	at := map[string]int{}
	for _, e := range k {
		if e.Category == "" {
			continue
		}
		i, ok := at[e.Category]
		if !ok {
			i = len(out)
			at[e.Category] = i
			out = append(out, metrics.Category{Name: e.Category})
		}
		out[i].Envs = append(out[i].Envs, e.Name)
	}
	return out
}
