package webshop

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/memharness/memharness/internal/testfixture"
)

// fixtureDir is the shared WebShop fixture folder.
var fixtureDir = testfixture.Path("envs/webshop")

// needFixtures skips the test when the fixture folder is absent.
func needFixtures(t testing.TB) string {
	t.Helper()
	return testfixture.Need(t, "envs/webshop")
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(needFixtures(t), name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// goalProduct writes, in the catalogue's official record format, a product
// standing in for a goal's product: its ASIN, name and query, every goal
// option as a value of its own option dimension (beside a distractor), and
// a price under the goal's limit. The real catalogue is not obtainable.
func goalProduct(g Goal) map[string]any {
	opts := map[string]any{}
	for i, o := range g.GoalOptions {
		opts[fmt.Sprintf("style %d", i+1)] = []map[string]any{
			{"value": "distractor " + fmt.Sprint(i+1), "image": nil},
			{"value": o, "image": nil},
		}
	}
	price := 10.0
	if g.PriceUpper < noPriceLimit {
		price = g.PriceUpper / 2
	}
	return map[string]any{
		"asin": g.ASIN, "name": g.Name, "category": "", "query": g.Query, "product_category": "",
		"full_description":      "Stand-in for " + g.Name,
		"small_description":     []string{g.Name},
		"pricing":               fmt.Sprintf("$%.2f", price),
		"customization_options": opts,
		"images":                []string{""},
	}
}

// embeddedRecords returns the embedded catalogue's raw records.
func embeddedRecords(t testing.TB) []map[string]any {
	t.Helper()
	data, err := embeddedFS.ReadFile("embedded/items_shuffle.json")
	if err != nil {
		t.Fatal(err)
	}
	var recs []map[string]any
	if err := json.Unmarshal(data, &recs); err != nil {
		t.Fatal(err)
	}
	return recs
}

// fixtureDataDir lays out a data directory like the official one: the
// fixture goal and attribute files, and a catalogue of the embedded
// products plus a stand-in for every fixed100 goal product.
func fixtureDataDir(t testing.TB) string {
	t.Helper()
	goals, err := ReadExpeLGoals(readFixture(t, ExpeLFixtureFile), ExpeLFixtureFile)
	if err != nil {
		t.Fatal(err)
	}
	recs := embeddedRecords(t)
	for _, g := range goals {
		recs = append(recs, goalProduct(g))
	}
	dir := t.TempDir()
	writeJSON(t, filepath.Join(dir, CatalogueFile), recs)
	for _, f := range []string{ExpeLFixtureFile, AttributesFile, HumanGoalsFile} {
		if err := os.WriteFile(filepath.Join(dir, f), readFixture(t, f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func writeJSON(t testing.TB, path string, v any) {
	t.Helper()
	data, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
