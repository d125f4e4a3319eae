package sampling

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/memharness/memharness/internal/testfixture"
)

// fixtureDir is the shared PraMem fixture folder.
var fixtureDir = testfixture.Path("pramem")

type fixtureRecord struct {
	Type   string `json:"type"`
	Action []struct {
		Type string `json:"type"`
	} `json:"action"`
	TestTimeIndex int `json:"test_time_index"`
}

func loadCandidates(t *testing.T, path string) []Candidate {
	t.Helper()
	testfixture.Need(t, "pramem", filepath.Base(path))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []fixtureRecord
	if err := json.Unmarshal(data, &recs); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	cands := make([]Candidate, len(recs))
	for i, r := range recs {
		acts := make([]string, len(r.Action))
		for j, a := range r.Action {
			acts[j] = a.Type
		}
		cands[i] = Candidate{Scene: r.Type, High: HighValue(r.Type, acts), TestTimeIndex: r.TestTimeIndex}
	}
	return cands
}

// TestBalancedSampleSpecVector is the §1.9 vector: PraMem's own
// _balanced_sample on the fixture with k=12 and seed 42+812123274.
func TestBalancedSampleSpecVector(t *testing.T) {
	cands := loadCandidates(t, filepath.Join(fixtureDir, "balanced_sample_candidates.json"))
	pos := BalancedSample(cands, 12, 42+812123274)
	got := make([]int, len(pos))
	for i, p := range pos {
		got[i] = cands[p].TestTimeIndex
	}
	want := []int{1, 3, 4, 6, 11, 15, 18, 20, 26, 31, 35, 37}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("test_time_index mismatch (-want +got):\n%s", diff)
	}
	// The generic form picks the same items.
	items := Balanced(cands, func(c Candidate) Candidate { return c }, 12, 42+812123274)
	var viaGeneric []int
	for _, c := range items {
		viaGeneric = append(viaGeneric, c.TestTimeIndex)
	}
	if diff := cmp.Diff(want, viaGeneric); diff != "" {
		t.Errorf("Balanced mismatch (-want +got):\n%s", diff)
	}
}

// goldenCase is one vector from testdata/balanced_golden.json, computed by
// running the reference Python algorithm on generated candidates.
type goldenCase struct {
	Name    string   `json:"name"`
	K       int      `json:"k"`
	Seed    int64    `json:"seed"`
	Scenes  []string `json:"scenes"`
	High    []bool   `json:"high"`
	Want    []int    `json:"want"` // test_time_index of the result
	Buckets int      `json:"buckets"`
}

func TestBalancedSampleGolden(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "balanced_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no golden cases")
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			cands := make([]Candidate, len(tc.Scenes))
			for i := range cands {
				cands[i] = Candidate{Scene: tc.Scenes[i], High: tc.High[i], TestTimeIndex: i}
			}
			pos := BalancedSampleBuckets(cands, tc.K, tc.Buckets, tc.Seed)
			got := make([]int, len(pos))
			for i, p := range pos {
				got[i] = cands[p].TestTimeIndex
			}
			if diff := cmp.Diff(tc.Want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBalancedSampleShape(t *testing.T) {
	mk := func(n int) []Candidate {
		c := make([]Candidate, n)
		for i := range c {
			c[i] = Candidate{Scene: SceneMovie, TestTimeIndex: i}
		}
		return c
	}
	tests := []struct {
		name    string
		n, k    int
		wantLen int
	}{
		{"empty", 0, 30, 0},
		{"fewer than k returns all", 20, 30, 20},
		{"exactly k", 30, 30, 30},
		{"many", 500, 30, 30},
		{"k zero", 50, 0, 0},
		{"odd split", 31, 30, 30},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := mk(tc.n)
			pos := BalancedSample(c, tc.k, 7)
			if len(pos) != tc.wantLen {
				t.Fatalf("len = %d, want %d", len(pos), tc.wantLen)
			}
			seen := map[int]bool{}
			for i, p := range pos {
				if seen[p] {
					t.Fatalf("position %d picked twice", p)
				}
				seen[p] = true
				if i > 0 && c[pos[i-1]].TestTimeIndex > c[p].TestTimeIndex {
					t.Fatalf("result not in time order: %v", pos)
				}
			}
			again := BalancedSample(c, tc.k, 7)
			if diff := cmp.Diff(pos, again); diff != "" {
				t.Errorf("not deterministic:\n%s", diff)
			}
		})
	}
}

func TestHighValue(t *testing.T) {
	tests := []struct {
		scene string
		acts  []string
		want  bool
	}{
		{SceneVideo, []string{"watch", "collect"}, true},
		{SceneVideo, []string{"watch", "follow"}, false},
		{SceneLive, []string{"watch", "follow"}, true},
		{SceneShop, []string{"cart", "purchase"}, true},
		{SceneShop, []string{"cart"}, false},
		{SceneAd, []string{"watch", "click"}, true},
		{SceneCustomerService, []string{"dialogue", "purchase"}, true},
		{SceneSearch, []string{"search", "click"}, false},
		{SceneMovie, []string{"rate"}, false},
		{"Video Browsing", []string{"like"}, false}, // callers must fold aliases first
	}
	for _, tc := range tests {
		if got := HighValue(tc.scene, tc.acts); got != tc.want {
			t.Errorf("HighValue(%q, %v) = %v, want %v", tc.scene, tc.acts, got, tc.want)
		}
	}
}

func TestSeedOffset(t *testing.T) {
	// Expected values: int.from_bytes(sha256(id).digest()[:8], "big") % 10**9.
	hashes := map[string]int64{"user_001": 533985469, "42": 45482637, "1": 210162913}
	for id, want := range hashes {
		if got := HashOffset(id); got != want {
			t.Errorf("HashOffset(%q) = %d, want %d", id, got, want)
		}
	}
	table := map[string]int64{"user_001": 812123274}
	if got := SeedOffset("user_001", table); got != 812123274 {
		t.Errorf("file offset not preferred: got %d", got)
	}
	if got := SeedOffset("42", table); got != 45482637 {
		t.Errorf("fallback offset = %d, want 45482637", got)
	}
	if got := SeedOffset("42", nil); got != 45482637 {
		t.Errorf("nil table fallback = %d", got)
	}
}

func TestParseSeedOffsets(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    map[string]int64
		wantErr bool
	}{
		{"ok", `{"user_001": 812123274, "user_002": 5}`, map[string]int64{"user_001": 812123274, "user_002": 5}, false},
		{"integral float", `{"u": 12.0}`, map[string]int64{"u": 12}, false},
		{"fraction", `{"u": 1.5}`, nil, true},
		{"string", `{"u": "7"}`, nil, true},
		{"not object", `[1,2]`, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseSeedOffsets([]byte(tc.in), "seed_offsets.json")
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); !tc.wantErr && diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadSeedOffsets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "seed_offsets.json")
	if err := os.WriteFile(path, []byte(`{"user_007": 99}`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := LoadSeedOffsets(path)
	if err != nil {
		t.Fatal(err)
	}
	if got["user_007"] != 99 {
		t.Errorf("got %v", got)
	}
	if _, err := LoadSeedOffsets(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("missing file: want error")
	}
}
