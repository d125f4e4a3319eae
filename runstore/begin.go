package runstore

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/memharness/memharness/runrecord"
)

// Opening is how a run opens its store, the same steps for every task
// family; nil funcs are skipped.
type Opening struct {
	// ConfigHash identifies the config; a directory holding another
	// config's run is refused, and Refuse says why.
	ConfigHash string
	Refuse     func(prev runrecord.Manifest) error
	// Repaired is told of each repair the store made of a damaged log.
	Repaired func(what string)
	// Prepare runs once the config is checked and before the manifest is
	// written: a family's own resume checks, and what it adds to the
	// manifest (the samples it planned).
	Prepare func(st *Store, man *runrecord.Manifest) error
	// Manifest is the run's provenance as the caller knows it; Begin
	// stamps the config hash and methods and keeps an earlier run's start
	// time.
	Manifest runrecord.Manifest
	Methods  []string
	// ResolvedConfig is written as config.yaml beside the manifest.
	ResolvedConfig []byte
	// Plan, when set, is the run's plan as JSON, stored as plan.json at
	// the first start only (a resumed run keeps the first plan). A plan
	// that cannot be made is told to PlanFailed, never a reason not to run.
	Plan       func() ([]byte, error)
	PlanFailed func(error)
}

// Begin opens the store in dir for a run and writes its opening files:
// the lock is taken, damaged logs repaired, a run of another config
// refused, the manifest stamped and written with config.yaml, and the plan
// stored. The manifest as written is returned; the caller closes the store.
func Begin(dir string, o Opening) (*Store, runrecord.Manifest, error) {
	man := o.Manifest
	st, err := Open(dir)
	if err != nil {
		return nil, man, err
	}
	fail := func(err error) (*Store, runrecord.Manifest, error) {
		st.Close()
		return nil, man, err
	}
	for _, r := range st.Repairs() {
		if o.Repaired != nil {
			o.Repaired(r)
		}
	}
	var prev runrecord.Manifest
	if ok, err := st.ReadJSON(runrecord.ManifestFile, &prev); err != nil {
		return fail(err)
	} else if ok && prev.ConfigHash != o.ConfigHash {
		return fail(o.Refuse(prev))
	}
	if err := st.CheckConfig(o.ConfigHash); err != nil {
		return fail(err)
	}
	if o.Prepare != nil {
		if err := o.Prepare(st, &man); err != nil {
			return fail(err)
		}
	}
	man.ConfigHash = o.ConfigHash
	man.JournalFindings = st.JournalFindings()
	man.JournalLosses = prev.JournalLosses
	for _, l := range st.JournalLosses() {
		if !slices.Contains(man.JournalLosses, l) {
			man.JournalLosses = append(man.JournalLosses, l)
		}
	}
	man.Methods = append(man.Methods, o.Methods...)
	if !prev.Started.IsZero() {
		man.Started = prev.Started
	}
	if err := st.WriteJSON(runrecord.ManifestFile, man); err != nil {
		return fail(err)
	}
	if err := WriteFileAtomic(filepath.Join(dir, "config.yaml"), o.ResolvedConfig); err != nil {
		return fail(err)
	}
	if o.Plan != nil {
		StorePlan(dir, o.Plan, o.PlanFailed)
	}
	return st, man, nil
}

// StorePlan writes plan.json unless an earlier start stored it (a merge of
// shards stores the whole run's plan this way, as one process would).
func StorePlan(dir string, plan func() ([]byte, error), failed func(error)) {
	path := filepath.Join(dir, runrecord.PlanFile)
	if _, err := os.Stat(path); err == nil {
		return
	}
	b, err := plan()
	if err == nil {
		err = WriteFileAtomic(path, b)
	}
	if err != nil && failed != nil {
		failed(err)
	}
}
