package webshop

import (
	"errors"
	"fmt"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/safefile"
	"io/fs"
	"os"
	"path"
)

// Official file names, as the reference's setup and ExpeL name them.
const (
	CatalogueFile      = "items_shuffle_1000.json"
	CatalogueFullFile  = "items_shuffle.json"
	AttributesFile     = "items_ins_v2_1000.json"
	AttributesFullFile = "items_ins_v2.json"
	ExpeLGoalsFile     = "webshop.fixed100.json"
	ExpeLFixtureFile   = "expel_webshop_fixed100.json" // the fixture folder's name for it
	GoalsFile          = "goals.json"                  // goals in the reference's own format
	HumanGoalsFile     = "human_goals.json"
)

// ErrNoData is wrapped when a directory lacks the catalogue or any goals.
var ErrNoData = fmt.Errorf("webshop data not found (run `bench data fetch webshop`): %w", envs.ErrNoData)

// Open loads a WebShop data directory: the catalogue (items_shuffle_1000.json,
// or items_shuffle.json) is required; items_ins_v2_1000.json (or
// items_ins_v2.json) adds attributes. Goals come from ExpeL's
// webshop.fixed100.json (also read under its fixture name) and from
// goals.json in the reference's goal format; when neither exists, from the
// synthetic instructions of the attributes file. human_goals.json, when
// present, is read and kept (HumanGoals): it holds instructions only, no
// products, so it defines no tasks by itself.
func Open(dir string) (*Suite, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("webshop: %w: %w", ErrNoData, err)
	}
	return openFS(safefile.FS(os.DirFS(dir), 0), dir)
}

func openFS(fsys fs.FS, prefix string) (*Suite, error) {
	name := func(f string) string { return path.Join(prefix, f) }
	attrData, attrFile, err := readFirst(fsys, AttributesFile, AttributesFullFile)
	if err != nil {
		return nil, fmt.Errorf("webshop: %w", err)
	}
	var attrs map[string]AttrRecord
	if attrData != nil {
		if attrs, err = ReadAttributes(attrData, name(attrFile)); err != nil {
			return nil, fmt.Errorf("webshop: %w", err)
		}
	}
	catData, catFile, err := readFirst(fsys, CatalogueFile, CatalogueFullFile)
	if err != nil {
		return nil, fmt.Errorf("webshop: %w", err)
	}
	if catData == nil {
		return nil, fmt.Errorf("webshop: %w: no %s in %s", ErrNoData, CatalogueFile, prefix)
	}
	cat, err := ReadCatalogue(catData, name(catFile), attrs)
	if err != nil {
		return nil, fmt.Errorf("webshop: %w", err)
	}
	goals, err := readGoals(fsys, prefix)
	if err != nil {
		return nil, fmt.Errorf("webshop: %w", err)
	}
	if len(goals) == 0 {
		goals = SyntheticGoals(cat, attrs)
	}
	if len(goals) == 0 {
		return nil, fmt.Errorf("webshop: %w: no goal file (%s, %s) and no synthetic instructions in %s", ErrNoData, ExpeLGoalsFile, GoalsFile, prefix)
	}
	s, err := New(cat, goals)
	if err != nil {
		return nil, err
	}
	hg, _, err := readFirst(fsys, HumanGoalsFile)
	if err != nil {
		return nil, fmt.Errorf("webshop: %w", err)
	}
	if hg != nil {
		if s.humanGoals, err = ReadHumanGoals(hg, name(HumanGoalsFile)); err != nil {
			return nil, fmt.Errorf("webshop: %w", err)
		}
	}
	return s, nil
}

// readGoals reads every goal file present, ExpeL's first.
func readGoals(fsys fs.FS, prefix string) ([]Goal, error) {
	var goals []Goal
	data, file, err := readFirst(fsys, ExpeLGoalsFile, ExpeLFixtureFile)
	if err != nil {
		return nil, err
	}
	if data != nil {
		g, err := ReadExpeLGoals(data, path.Join(prefix, file))
		if err != nil {
			return nil, err
		}
		goals = append(goals, g...)
	}
	data, _, err = readFirst(fsys, GoalsFile)
	if err != nil {
		return nil, err
	}
	if data != nil {
		g, err := ReadGoals(data, path.Join(prefix, GoalsFile))
		if err != nil {
			return nil, err
		}
		goals = append(goals, g...)
	}
	return goals, nil
}

// readFirst returns the content of the first of names that exists (nil
// when none does).
func readFirst(fsys fs.FS, names ...string) ([]byte, string, error) {
	for _, n := range names {
		data, err := fs.ReadFile(fsys, n)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, "", err
		}
		return data, n, nil
	}
	return nil, "", nil
}
