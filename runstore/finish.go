package runstore

import "github.com/memharness/memharness/runrecord"

// Closing is how a finished run writes its last files; nil funcs are
// skipped.
type Closing struct {
	// Seal seals a shard into the manifest before its last write.
	Seal func(man *runrecord.Manifest) error
	// Report writes the run's report; Fingerprint then names what the
	// report was built from, stamped into the manifest with Errored so an
	// unchanged re-run can skip everything.
	Report      func() error
	Fingerprint func() (string, error)
	Errored     int
}

// Finish writes a finished run's warnings, seal and manifest in the order
// the seal needs (it covers warnings.json, so that comes first), then the
// report and the manifest again with the report's fingerprint. man is
// updated in place.
func (s *Store) Finish(man *runrecord.Manifest, warnings runrecord.Warnings, c Closing) error {
	if err := s.WriteJSON(runrecord.WarningsFile, warnings); err != nil {
		return err
	}
	if c.Seal != nil {
		if err := c.Seal(man); err != nil {
			return err
		}
	}
	if err := s.WriteJSON(runrecord.ManifestFile, *man); err != nil {
		return err
	}
	if c.Report == nil {
		return nil
	}
	if err := c.Report(); err != nil {
		return err
	}
	fp, err := c.Fingerprint()
	if err != nil {
		return err
	}
	man.Errored, man.Fingerprint = c.Errored, fp
	return s.WriteJSON(runrecord.ManifestFile, *man)
}
