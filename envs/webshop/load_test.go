package webshop

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadCatalogueErrors(t *testing.T) {
	tests := []struct {
		name, data string
		want       []string // substrings of the error
	}{
		{"not json", "{", []string{"items.json", "line 1"}},
		{"not a list", `{"a": 1}`, []string{"items.json", "want a JSON array"}},
		{"bad element", "[\n{\"asin\": \"B01\", \"name\": \"x\"},\n{\"asin\": 5}\n]", []string{"items.json:3", "product 1"}},
		{"missing asin", "[\n{\"name\": \"x\"}\n]", []string{"items.json:2", "field asin"}},
		{"bad pricing", "[\n\n{\"asin\": \"B01\", \"pricing\": \"$abc\"}]", []string{"items.json:3", "asin B01", "field pricing"}},
		{"bad options", `[{"asin": "B01", "customization_options": {"Color": [{"image": null}]}}]`, []string{"field customization_options", `option "Color"`, "missing value"}},
		{"bad small_description", `[{"asin": "B01", "small_description": 7}]`, []string{"field small_description"}},
		{"truncated", "[\n{\"asin\": \"B01\"},\n{\"asin\"", []string{"items.json: line", "element 1"}},
	}
	for _, tt := range tests {
		_, err := ReadCatalogue([]byte(tt.data), "items.json", nil)
		if err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tt.name, err, w)
			}
		}
	}
}

func TestReadCatalogueCleaning(t *testing.T) {
	data := `[
 {"asin": "B01", "name": "Shoe", "query": " Men's Shoes ", "pricing": "$24.49 - $39.99", "small_description": "one bullet",
  "customization_options": {"Size": [{"value": " 8/8.5 "}, {"value": "9"}], "Color": null, "Fit": [{"value": "Wide"}]}},
 {"asin": "B01", "name": "duplicate"},
 {"asin": "nan", "name": "dropped"},
 {"asin": "B0123456789", "name": "too long"},
 {"asin": "B02", "name": "Free"}
]`
	attrs := map[string]AttrRecord{"B01": {Attributes: []string{"wide fit"}}}
	cat, err := ReadCatalogue([]byte(data), "items.json", attrs)
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Products) != 2 {
		t.Fatalf("got %d products, want 2", len(cat.Products))
	}
	p := cat.Product("B01")
	want := &Product{
		ASIN: "B01", Name: "Shoe", Query: "men's shoes", BulletPoints: []string{"one bullet"},
		Pricing: []float64{24.49, 39.99}, PriceTag: "$24.49 to $39.99", Rating: "N.A.",
		Options:    []Option{{"size", []string{"8 | 8.5", "9"}}, {"fit", []string{"wide"}}},
		Attributes: []string{"wide fit"},
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("got %+v\nwant %+v", p, want)
	}
	if p.Price() != 24.49 {
		t.Errorf("price %v", p.Price())
	}
	free := cat.Product("B02")
	if free.PriceTag != "$100.0" || free.Price() != 100 || !reflect.DeepEqual(free.Attributes, []string{dummyAttr}) {
		t.Errorf("defaults: %+v", free)
	}
}

func TestReadGoalErrors(t *testing.T) {
	tests := []struct {
		name, data string
		read       func([]byte, string) ([]Goal, error)
		want       []string
	}{
		{"expel missing task", "[\n{\"session_idx\": \"fixed_0\", \"key\": {\"asin\": \"B01\"}}]", ReadExpeLGoals, []string{"g.json:2", "field task"}},
		{"expel missing asin", `[{"task": "x", "session_idx": "fixed_0", "key": {}}]`, ReadExpeLGoals, []string{"field key.asin"}},
		{"expel duplicate", `[{"task": "x", "session_idx": "a", "key": {"asin": "B"}}, {"task": "x", "session_idx": "a", "key": {"asin": "B"}}]`, ReadExpeLGoals, []string{"duplicate"}},
		{"expel bad options", `[{"task": "x", "session_idx": "a", "key": {"asin": "B", "goal_options": 3}}]`, ReadExpeLGoals, []string{"field key.goal_options"}},
		{"goal missing instruction", "[\n\n{\"asin\": \"B01\"}]", ReadGoals, []string{"g.json:3", "field instruction_text"}},
		{"goal bad attributes", `[{"asin": "B01", "instruction_text": "x", "attributes": "a"}]`, ReadGoals, []string{"goal 0"}},
	}
	for _, tt := range tests {
		_, err := tt.read([]byte(tt.data), "g.json")
		if err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tt.name, err, w)
			}
		}
	}
}

func TestReadGoalsOptionsObject(t *testing.T) {
	data := `[{"asin": "B01", "query": "Q", "name": "n", "instruction_text": "find shoes, and price lower than 30.00 dollars",
	  "attributes": ["a"], "goal_options": {"size": "9", "color": "red"}}]`
	goals, err := ReadGoals([]byte(data), "g.json")
	if err != nil {
		t.Fatal(err)
	}
	g := goals[0]
	if g.ID != "goal_0" || g.PriceUpper != 30 || !reflect.DeepEqual(g.GoalOptions, []string{"9", "red"}) || g.Query != "q" {
		t.Errorf("got %+v", g)
	}
}

func TestSplitPrice(t *testing.T) {
	tests := []struct {
		in    string
		instr string
		limit float64
	}{
		{"i need a lamp, and price lower than 40.00 dollars", "i need a lamp", 40},
		{"i need a lamp, and price lower than 40.00 dollars \n", "i need a lamp", 40},
		{"i need a lamp", "i need a lamp", noPriceLimit},
		{"price lower than 5 dollars", "price lower than 5 dollars", noPriceLimit}, // the clause always starts with "and"
	}
	for _, tt := range tests {
		instr, limit := splitPrice(tt.in)
		if instr != tt.instr || limit != tt.limit {
			t.Errorf("splitPrice(%q) = %q, %v", tt.in, instr, limit)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(filepath.Join(t.TempDir(), "absent")); !errors.Is(err, ErrNoData) {
		t.Errorf("absent dir: %v", err)
	}
	dir := t.TempDir()
	if _, err := Open(dir); !errors.Is(err, ErrNoData) || !strings.Contains(err.Error(), CatalogueFile) {
		t.Errorf("empty dir: %v", err)
	}
	// A catalogue without goals or synthetic instructions has no tasks.
	if err := os.WriteFile(filepath.Join(dir, CatalogueFile), []byte(`[{"asin": "B01", "name": "x"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); !errors.Is(err, ErrNoData) {
		t.Errorf("no goals: %v", err)
	}
	// Goals for products not in the catalogue are no tasks either.
	goals := `[{"task": "x\n[Search]\n", "session_idx": "fixed_0", "key": {"asin": "B99", "query": "", "name": "", "goal_options": []}}]`
	if err := os.WriteFile(filepath.Join(dir, ExpeLGoalsFile), []byte(goals), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "none of 1 goals") {
		t.Errorf("goals without products: %v", err)
	}
}

// TestSyntheticGoals builds the reference's synthetic goals (one option
// combination each) over the embedded catalogue and solves them all.
func TestSyntheticGoals(t *testing.T) {
	emb, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	cat := emb.Catalogue()
	attrs := map[string]AttrRecord{}
	for _, p := range cat.Products {
		attrs[p.ASIN] = AttrRecord{Attributes: p.Attributes, Instruction: "Find me " + strings.ToLower(p.Name), InstructionAttributes: p.Attributes[:1]}
	}
	goals := SyntheticGoals(cat, attrs)
	if len(goals) != len(cat.Products) {
		t.Fatalf("got %d goals for %d products", len(goals), len(cat.Products))
	}
	g := goals[0] // B0MH000001: color then size, sorted by name; $79.99 → limit $90
	if g.ID != "synthetic_B0MH000001" || !reflect.DeepEqual(g.GoalOptions, []string{"brown", "8"}) || g.PriceUpper != 90 ||
		!strings.HasSuffix(g.InstructionText, " with color: brown, and size: 8, and price lower than 90.00 dollars") {
		t.Errorf("got %+v", g)
	}
	s, err := New(cat, goals)
	if err != nil {
		t.Fatal(err)
	}
	checkAll(t, s)
}

func TestPriceLimit(t *testing.T) {
	tests := []struct {
		price float64
		want  float64
		ok    bool
	}{{5, 20, true}, {10, 30, true}, {79.99, 90, true}, {975, 990, true}, {985, 0, false}}
	for _, tt := range tests {
		if got, ok := priceLimit(tt.price); got != tt.want || ok != tt.ok {
			t.Errorf("priceLimit(%v) = %v, %v", tt.price, got, ok)
		}
	}
}
