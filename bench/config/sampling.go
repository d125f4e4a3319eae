package config

import (
	"maps"
	"slices"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/runrecord"
)

// Where a request setting came from: runrecord's names.
const (
	FromSource = runrecord.FromSource
	FromOwn    = runrecord.FromOwn
	FromConfig = runrecord.FromConfig
)

// PurposeDefault is the default request settings of one call purpose of
// the prediction methods under each prompts setting, gathered from the
// entries (predict.Entry.Purposes) of the kinds a run registered — the
// built-in ones and any of a program's own. Methods hold no sampling value
// themselves: the run fills methods[].sampling from here.
type PurposeDefault struct {
	Purpose string
	// Kinds are the method kinds that send it, sorted.
	Kinds []string
	// Release is what the source sends (prompts: release); Source says
	// where in the source it is set. Own is ours (prompts: own).
	Release, Own llm.Params
	Source       string
	// ReleaseFrom is FromSource, or FromOwn where the source has no such
	// call (the memory-system baselines are the harness's own).
	ReleaseFrom string
}

// PurposeDefaults lists every purpose of k's prediction kinds, in the
// order the kinds register them, each call building fresh maps. A purpose
// name several kinds send is listed once, with the defaults of the first
// kind that registers it; a run reads each kind's own (MethodSampling).
func (k Known) PurposeDefaults() []PurposeDefault {
	var out []PurposeDefault
	at := map[string]int{}
	for _, e := range k.methods().Entries() {
		for _, p := range e.Purposes {
			i, ok := at[p.Name]
			if !ok {
				i = len(out)
				at[p.Name] = i
				out = append(out, PurposeDefault{Purpose: p.Name, Release: p.Release, Own: p.Own,
					Source: p.Source, ReleaseFrom: p.ReleaseFrom})
			}
			out[i].Kinds = append(out[i].Kinds, e.Kind)
		}
	}
	for i := range out {
		slices.Sort(out[i].Kinds)
	}
	return out
}

// purposeNames lists the names of a kind's purposes.
func purposeNames(ps []llm.Purpose) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}

// MethodSampling is a method's sampling map with every default of its
// kind's purposes, as k's entry of kind declares them, under prompts
// (PromptsRelease or PromptsOwn) filled in where set has no entry; set is
// not changed. Defaults with no setting at all are left out, so a method
// whose purposes all run at the server's defaults keeps a nil map. Each
// kind's own entry decides: two kinds may give one purpose name different
// defaults.
func (k Known) MethodSampling(prompts, kind string, set map[string]llm.Params) map[string]llm.Params {
	var out map[string]llm.Params
	if len(set) > 0 {
		out = maps.Clone(set)
	}
	for _, d := range k.purposes(kind) {
		if _, ok := set[d.Name]; ok {
			continue
		}
		p := d.Own
		if prompts == PromptsRelease {
			p = d.Release
		}
		if p.IsZero() {
			continue
		}
		if out == nil {
			out = map[string]llm.Params{}
		}
		out[d.Name] = p
	}
	return out
}

// SamplingFrom says where the request settings of purpose come from for a
// method of kind (one of k's) with set as its methods[].sampling.
func (k Known) SamplingFrom(prompts, kind, purpose string, set map[string]llm.Params) string {
	if _, ok := set[purpose]; ok {
		return FromConfig
	}
	if prompts != PromptsRelease {
		return FromOwn
	}
	for _, d := range k.purposes(kind) {
		if d.Name == purpose {
			return d.ReleaseFrom
		}
	}
	return FromOwn
}

// purposes are the call purposes k's entry of kind declares (none for a
// kind k does not hold: validation has reported it).
func (k Known) purposes(kind string) []predict.Purpose {
	e, err := k.methods().Lookup(kind)
	if err != nil {
		return nil
	}
	return e.Purposes
}
