package webshop

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func TestReadExpeLGoalsFixture(t *testing.T) {
	goals, err := ReadExpeLGoals(readFixture(t, ExpeLFixtureFile), ExpeLFixtureFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(goals) != 100 {
		t.Fatalf("got %d goals, want 100", len(goals))
	}
	withOpts := 0
	for i, g := range goals {
		if g.ID != "fixed_"+itoa(i) {
			t.Errorf("goal %d has ID %s", i, g.ID)
		}
		if len(g.ASIN) != 10 || g.Name == "" {
			t.Errorf("%s: asin %q name %q", g.ID, g.ASIN, g.Name)
		}
		// The generator leaves the clause out for products above $980.
		hasClause := strings.Contains(g.InstructionText, "price lower than")
		if hasClause != (g.PriceUpper < noPriceLimit) || g.PriceUpper <= 0 {
			t.Errorf("%s: price limit %v parsed from %q", g.ID, g.PriceUpper, g.InstructionText)
		}
		if strings.Contains(g.InstructionText, "[Search]") {
			t.Errorf("%s: instruction keeps [Search]: %q", g.ID, g.InstructionText)
		}
		if len(g.GoalOptions) > 0 {
			withOpts++
		}
	}
	t.Logf("fixed100: %d goals, %d with goal options", len(goals), withOpts)
}

// normInstr drops what the two files write differently (apostrophes,
// double quotes, spacing).
func normInstr(s string) string {
	s = strings.NewReplacer("'", "", `"`, "").Replace(strings.ToLower(s))
	return strings.Join(strings.Fields(s), " ")
}

// TestHumanGoalsMatchFixed100: ExpeL's session fixed_i is WebShop's human
// goal i, with the price clause added.
func TestHumanGoalsMatchFixed100(t *testing.T) {
	human, err := ReadHumanGoals(readFixture(t, HumanGoalsFile), HumanGoalsFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(human) != 12087 {
		t.Errorf("got %d human goals, want 12087", len(human))
	}
	goals, err := ReadExpeLGoals(readFixture(t, ExpeLFixtureFile), ExpeLFixtureFile)
	if err != nil {
		t.Fatal(err)
	}
	mismatch := 0
	for i, g := range goals {
		instr, _ := splitPrice(g.InstructionText)
		if normInstr(instr) != normInstr(human[i]) {
			mismatch++
			t.Logf("%s: %q vs human goal %d %q", g.ID, instr, i, human[i])
		}
	}
	if mismatch > 0 {
		t.Errorf("%d of %d fixed goals differ from human_goals.json", mismatch, len(goals))
	}
}

func TestReadAttributesFixture(t *testing.T) {
	attrs, err := ReadAttributes(readFixture(t, AttributesFile), AttributesFile)
	if err != nil {
		t.Fatal(err)
	}
	withInstr := 0
	for _, a := range attrs {
		if a.Instruction != "" {
			withInstr++
		}
	}
	t.Logf("items_ins_v2_1000: %d products, %d with synthetic instructions", len(attrs), withInstr)
	if len(attrs) < 900 {
		t.Errorf("only %d products", len(attrs))
	}
}

// TestHumanTrajectories parses the human logs, checks that the
// reference's reward formula (combine) reproduces the recorded reward from
// its recorded components, and that every derived action parses.
func TestHumanTrajectories(t *testing.T) {
	dir := filepath.Join(needFixtures(t), "human_trajs")
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no trajectories in %s: %v", dir, err)
	}
	sort.Strings(files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := ReadHumanTrajectory(data, f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		g := tr.Goal
		for _, a := range tr.Actions {
			if _, err := ParseAction(a); err != nil {
				t.Errorf("%s: action %q: %v", g.ID, a, err)
			}
		}
		if len(tr.Actions) == 0 || tr.Actions[len(tr.Actions)-1] != "click[Buy Now]" {
			t.Errorf("%s: actions %q do not end with a purchase", g.ID, tr.Actions)
		}
		info := tr.RewardInfo
		rType, _ := info["r_type"].(float64)
		rAtt, _ := info["r_att"].(float64)
		rOpt, _ := info["r_option"].(float64)
		price := 0
		if ok, _ := info["r_price"].(bool); ok {
			price = 1
		}
		na, no := len(g.Attributes), len(g.GoalOptions)
		got := combine(rType, int(math.Round(rAtt*float64(na))), int(math.Round(rOpt*float64(no))), price, na, no)
		if math.Abs(got-tr.Reward) > 1e-9 {
			t.Errorf("%s: combine gives %v, the server recorded %v (%v)", g.ID, got, tr.Reward, info)
		}
		t.Logf("%s: %d actions, reward %.3f: %s", g.ID, len(tr.Actions), tr.Reward, strings.Join(tr.Actions, " "))
	}
}

// TestHumanPurchaseOfGoalProduct: in log 20220427_1_7 the shopper bought
// the goal product itself and the server gave reward 1; our reward agrees
// on a stand-in product carrying the goal's title.
func TestHumanPurchaseOfGoalProduct(t *testing.T) {
	data := readFixture(t, "human_trajs/20220427_1_7.jsonl")
	tr, err := ReadHumanTrajectory(data, "20220427_1_7.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	g := tr.Goal
	p := &Product{ASIN: g.ASIN, Name: g.Name, Query: g.Query, ProductCategory: g.ProductCategory, Attributes: []string{dummyAttr}}
	info := Reward(p, &g, 339.0, nil)
	if info.Reward != tr.Reward {
		t.Errorf("reward %v, server %v (ours %+v, server %v)", info.Reward, tr.Reward, info, tr.RewardInfo)
	}
	t.Logf("title_score: ours %.3f, spaCy's %.3f", info.TitleScore, tr.RewardInfo["title_score"])
}
