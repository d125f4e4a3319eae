package lifemem

import (
	"bytes"
	"encoding/csv"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memharness/memharness/metrics"
	"github.com/memharness/memharness/reports/render"
)

// orderRun is one order of a two-environment similarity stream: each
// method's S matrix given as {S11, S21, S22}.
func orderRun(order int, envs []string, mats map[string][3]float64) *lmRun {
	r := &lmRun{info: lmInfo{Backbone: "sim", Model: "sim", Variant: "order=" + string(rune('0'+order))}}
	r.info.Config.Stream, r.info.Config.Envs, r.info.Config.Orders, r.info.Config.Order = "similarity", envs, 3, order
	for _, name := range []string{"react", "lifemem"} {
		s := mats[name]
		m := metrics.NewScoreMatrix(envs)
		m.S[0][0], m.S[1][0], m.S[1][1] = s[0], s[1], s[2]
		r.methods = append(r.methods, &lmMethod{Spec: lmMethodSpec{Name: name, Kind: name}, Matrix: m})
	}
	return r
}

// TestWriteOrders: three orders, worked by hand.
//
//	order 1: react   S11 40, S21 40, S22 20 → OP (40+20)/2 = 30, BwT (40−40)/40 = 0 %
//	         lifemem S11 50, S21 60, S22 40 → OP 50,              BwT (60−50)/50 = 20 %
//	order 2: react   S11 30, S21 15, S22 30 → OP 22.5,            BwT (15−30)/30 = −50 %
//	         lifemem S11 40, S21 40, S22 60 → OP 50,              BwT 0 %
//	order 3: react   S11 20, S21 30, S22 40 → OP 35,              BwT (30−20)/20 = 50 %
//	         lifemem S11 80, S21 60, S22 70 → OP 65,              BwT (60−80)/80 = −25 %
//
// OP: react 30, 22.5, 35 → mean 87.5/3 = 29.1666…, deviations 0.8333…,
// −6.6666…, 5.8333…, SD sqrt((0.6944 + 44.4444 + 34.0278)/2) =
// sqrt(39.5833) = 6.2915…, min 22.5, max 35; lifemem 50, 50, 65 → mean 55,
// SD sqrt((25 + 25 + 100)/2) = sqrt(75) = 8.660…, min 50, max 65.
// BwT: react 0, −50, 50 → mean 0, SD sqrt((0 + 2500 + 2500)/2) = 50;
// lifemem 20, 0, −25 → mean −5/3, min −25, max 20.
// Ranking by OP: lifemem above react in every order → the same, W = 1.
// BwT: react 0, −50, 50 and lifemem 20, 0, −25: react is above lifemem in
// orders 2 and 3 only → not the same; ranks (react, lifemem) = (2, 1),
// (1, 2), (1, 2): R = (4, 5), m(n+1)/2 = 4.5, S = 0.25 + 0.25 = 0.5,
// W = 12·0.5 / (3²·(2³ − 2)) = 6/54 = 1/9.
func TestWriteOrders(t *testing.T) {
	envs := []string{"alfworld", "webshop"}
	runs := []*lmRun{
		orderRun(1, envs, map[string][3]float64{"react": {40, 40, 20}, "lifemem": {50, 60, 40}}),
		orderRun(2, []string{"webshop", "alfworld"}, map[string][3]float64{"react": {30, 15, 30}, "lifemem": {40, 40, 60}}),
		orderRun(3, envs, map[string][3]float64{"react": {20, 30, 40}, "lifemem": {80, 60, 70}}),
	}
	dir := t.TempDir()
	arts, err := lmWriteOrders(dir, runs)
	if err != nil {
		t.Fatal(err)
	}
	if len(arts) == 0 {
		t.Fatal("no artefacts")
	}
	f, err := os.Open(filepath.Join(dir, "lifemem_orders.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	got := map[string][]string{}
	for _, r := range recs[1:] {
		k := r[col["method"]] + " " + r[col["metric"]] + " " + r[col["statistic"]] + " " + r[col["order"]]
		got[k] = r
	}
	const reactOPSD = 6.2915287 // sqrt(39.58333…), from the working above
	for _, c := range []struct {
		key  string
		want float64
	}{
		{"react op value similarity #1", 30}, {"react op value similarity #2", 22.5}, {"react op value similarity #3", 35},
		{"react op mean ", 175.0 / 6}, {"react op sd ", reactOPSD}, {"react op min ", 22.5}, {"react op max ", 35},
		{"lifemem op mean ", 55}, {"lifemem op sd ", math.Sqrt(75)}, {"lifemem op min ", 50}, {"lifemem op max ", 65},
		{"react bwt value similarity #2", -50}, {"react bwt mean ", 0}, {"react bwt sd ", 50},
		{"lifemem bwt mean ", -5.0 / 3}, {"lifemem bwt min ", -25}, {"lifemem bwt max ", 20},
	} {
		r, ok := got[c.key]
		if !ok {
			t.Errorf("no row %q", c.key)
			continue
		}
		// The CSV holds 6 decimals.
		v, err := strconv.ParseFloat(r[col["value"]], 64)
		if err != nil || math.Abs(v-c.want) > 1e-6 {
			t.Errorf("%s = %q, want %v", c.key, r[col["value"]], c.want)
		}
		if r[col["unit"]] != "%" || r[col["orders"]] != "3" {
			t.Errorf("%s: unit %q, orders %q", c.key, r[col["unit"]], r[col["orders"]])
		}
	}
	if r := got["react op mean "]; r[col["same_ranking"]] != "true" || !strings.HasPrefix(r[col["kendall_w"]], "1") {
		t.Errorf("OP ranking: same %q, W %q; want true, 1", r[col["same_ranking"]], r[col["kendall_w"]])
	}
	if r := got["react bwt mean "]; r[col["same_ranking"]] != "false" || !strings.HasPrefix(r[col["kendall_w"]], "0.1111") {
		t.Errorf("BwT ranking: same %q, W %q; want false, 1/9", r[col["same_ranking"]], r[col["kendall_w"]])
	}
	md, err := os.ReadFile(filepath.Join(dir, "lifemem_orders.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"across 3 orders", "Ranking by OP: the same in all of the 3 orders", "Ranking by BwT: differs between the 3 orders; Kendall's W 0.111",
		"similarity #2 (run order=2)", "| lifemem | sim | 3 | 55.00 | 8.66 | 50.00–65.00 |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("lifemem_orders.md lacks %q:\n%s", want, md)
		}
	}
	tex, err := os.ReadFile(filepath.Join(dir, "lifemem_orders.tex"))
	if err != nil || !strings.Contains(string(tex), "3 orders") {
		t.Errorf("lifemem_orders.tex: %v, says no order count", err)
	}
	for _, ext := range []string{".png", ".svg", ".pdf"} {
		if _, err := os.Stat(filepath.Join(dir, "lifemem_orders"+ext)); err != nil {
			t.Errorf("figure: %v", err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "lifemem_orders.png"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := render.CheckFigure(img); err != nil {
		t.Errorf("lifemem_orders.png: %v", err)
	}
}

// TestWriteOrdersRandomStream: random orders define OP only; BwT is said
// to be undefined, and a sweep that is no order study writes nothing.
func TestWriteOrdersRandomStream(t *testing.T) {
	envs := []string{"alfworld", "webshop"}
	var runs []*lmRun
	for k, ops := range [][2]float64{{30, 50}, {40, 35}} {
		r := orderRun(k+1, envs, nil)
		r.info.Config.Stream, r.info.Config.Orders = "random", 2
		for i, m := range r.methods {
			m.Matrix = metrics.NewScoreMatrix(envs)
			m.Matrix.S[1][0], m.Matrix.S[1][1] = ops[i], ops[i]
		}
		runs = append(runs, r)
	}
	dir := t.TempDir()
	if _, err := lmWriteOrders(dir, runs); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "lifemem_orders.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"across 2 orders", "random #1", "random #2", "BwT is undefined in random #1, random #2: a random or buffer stream has no environment boundaries",
		"Ranking by OP: differs between the 2 orders; Kendall's W 0.000", "Ranking by BwT: undefined (no order gives every method a value)"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("lifemem_orders.md lacks %q:\n%s", want, md)
		}
	}
	for _, r := range runs {
		r.info.Config.Orders, r.info.Config.Order = 0, 0
	}
	other := t.TempDir()
	arts, err := lmWriteOrders(other, runs[:1])
	if err != nil || len(arts) != 0 {
		t.Errorf("a sweep without orders: %v, %v", arts, err)
	}
}

// TestWriteOrdersMixed: named orders (similarity and random, two seeded
// orders each) rank BwT over the orders that define it for every method,
// and a BwT left undefined by zero diagonals is said to be so.
func TestWriteOrdersMixed(t *testing.T) {
	envs := []string{"alfworld", "webshop"}
	var runs []*lmRun
	for _, c := range []struct {
		stream string
		order  int
		mats   map[string][3]float64
	}{
		// BwT: react (40−40)/40 = 0 % and (30−20)/20 = 50 %, lifemem
		// (60−50)/50 = 20 % and 0 %: lifemem ahead, then react ahead.
		{"similarity", 1, map[string][3]float64{"react": {40, 40, 20}, "lifemem": {50, 60, 40}}},
		{"similarity", 2, map[string][3]float64{"react": {20, 30, 40}, "lifemem": {40, 40, 60}}},
		// react's diagonal S11 is 0: its BwT is undefined here.
		{"similarity", 3, map[string][3]float64{"react": {0, 10, 30}, "lifemem": {40, 40, 60}}},
		{"random", 1, map[string][3]float64{"react": {0, 20, 20}, "lifemem": {0, 50, 50}}},
	} {
		r := orderRun(c.order, envs, c.mats)
		r.info.Config.Stream, r.info.Config.NamedOrders = c.stream, []string{"similarity", "random"}
		r.info.Variant = c.stream + "-" + string(rune('0'+c.order))
		runs = append(runs, r)
	}
	dir := t.TempDir()
	if _, err := lmWriteOrders(dir, runs); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "lifemem_orders.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"across 4 orders",
		"BwT is undefined in random #1: a random or buffer stream",
		"BwT is undefined for react in similarity #3: every earlier environment scored 0 right after it was learned",
		// Ranks (react, lifemem): (2, 1) and (1, 2): R = (3, 3), S = 0, W = 0.
		"Ranking by BwT: differs between the 2 of 4 orders that give every method a value (similarity #1, similarity #2); Kendall's W 0.000",
		"Ranking by OP: the same in all of the 4 orders"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("lifemem_orders.md lacks %q:\n%s", want, md)
		}
	}
}
