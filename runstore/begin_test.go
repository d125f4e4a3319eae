package runstore

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memharness/memharness/runrecord"
)

// TestBegin opens a run twice and once under another config: the first
// start's time and plan are kept, config.yaml and the manifest are written,
// a family's Prepare sees the store, and another config is refused.
func TestBegin(t *testing.T) {
	dir := t.TempDir()
	first := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	refused := errors.New("another config")
	plans := 0
	open := func(hash string, started time.Time, planErr error) (runrecord.Manifest, []error, error) {
		var failed []error
		st, man, err := Begin(dir, Opening{
			ConfigHash: hash,
			Refuse:     func(runrecord.Manifest) error { return refused },
			Prepare: func(st *Store, man *runrecord.Manifest) error {
				if st == nil {
					t.Fatal("Prepare got no store")
				}
				man.Samples = 7
				return nil
			},
			Manifest:       runrecord.Manifest{Name: "x", Started: started},
			Methods:        []string{"a", "b"},
			ResolvedConfig: []byte("name: x\n"),
			Plan: func() ([]byte, error) {
				plans++
				return []byte("{\"calls\": 3}\n"), planErr
			},
			PlanFailed: func(err error) { failed = append(failed, err) },
		})
		if err == nil {
			st.Close()
		}
		return man, failed, err
	}

	tests := []struct {
		name      string
		hash      string
		started   time.Time
		planErr   error
		wantErr   error
		wantPlans int
	}{
		{name: "first start stores the plan", hash: "h1", started: first, wantPlans: 1},
		{name: "resume keeps start and plan", hash: "h1", started: first.Add(time.Hour), wantPlans: 1},
		{name: "another config is refused", hash: "h2", started: first, wantErr: refused, wantPlans: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			man, failed, err := open(tc.hash, tc.started, tc.planErr)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Begin: got %v, want %v", err, tc.wantErr)
			}
			if plans != tc.wantPlans || len(failed) > 0 {
				t.Fatalf("plans made %d (failed %v), want %d", plans, failed, tc.wantPlans)
			}
			if err != nil {
				return
			}
			if !man.Started.Equal(first) || man.ConfigHash != tc.hash || man.Samples != 7 || len(man.Methods) != 2 {
				t.Fatalf("manifest = %+v", man)
			}
			stored, err := runrecord.ReadManifest(filepath.Join(dir, runrecord.ManifestFile))
			if err != nil || !stored.Started.Equal(first) || stored.Samples != 7 {
				t.Fatalf("stored manifest %+v, %v", stored, err)
			}
			for _, f := range []string{"config.yaml", runrecord.PlanFile} {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Fatalf("%s not written: %v", f, err)
				}
			}
		})
	}
}

// TestBeginPlanFailure: a plan that cannot be made is told, and the run
// still begins.
func TestBeginPlanFailure(t *testing.T) {
	dir := t.TempDir()
	var told error
	st, _, err := Begin(dir, Opening{
		ConfigHash: "h", ResolvedConfig: []byte("x\n"),
		Plan:       func() ([]byte, error) { return nil, errors.New("no data") },
		PlanFailed: func(err error) { told = err },
	})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if told == nil {
		t.Fatal("plan failure not told")
	}
	if _, err := os.Stat(filepath.Join(dir, runrecord.PlanFile)); !os.IsNotExist(err) {
		t.Fatalf("plan.json written after a failed plan: %v", err)
	}
}
