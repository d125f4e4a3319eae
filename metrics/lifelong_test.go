package metrics

import (
	"math"
	"testing"
)

func matrix(envs []string, rows ...[]float64) ScoreMatrix {
	return ScoreMatrix{Envs: envs, S: rows}
}

func nearTol(a, b, tol float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= tol
}

func TestRelativeChangePaperExample(t *testing.T) {
	// App. C: Synapse + GPT-4o-mini, MiniWoB 77.08 on the diagonal, 75.00
	// after the whole stream, BwT term −2.70 %.
	got := RelativeChange(77.08, 75.00)
	if !nearTol(got, -2.70, 0.005) {
		t.Fatalf("RelativeChange(77.08, 75.00) = %.4f, want -2.70", got)
	}
	m := matrix([]string{"miniwob", "mind2web"}, []float64{77.08}, []float64{75.00, 40})
	if r := BwT(m); !nearTol(r.Value, -2.70, 0.005) || r.Used != 1 || len(r.Warnings) != 0 {
		t.Fatalf("BwT = %+v, want -2.70 over 1 env", r)
	}
}

func TestOPBwT(t *testing.T) {
	envs3 := []string{"a", "b", "c"}
	nan := math.NaN()
	tests := []struct {
		name     string
		m        ScoreMatrix
		op, bwt  float64
		used     int
		warnings int
	}{
		{
			name: "hand-built 3x3",
			m:    matrix(envs3, []float64{50}, []float64{60, 40}, []float64{55, 30, 20}),
			// OP = (55+30+20)/3; BwT = ((55-50)/50 + (30-40)/40)/2 = (0.1-0.25)/2.
			op: 35, bwt: -7.5, used: 2,
		},
		{
			name: "zero diagonal skipped with a warning",
			m:    matrix(envs3, []float64{0}, []float64{10, 40}, []float64{5, 60, 20}),
			op:   85.0 / 3, bwt: 50, used: 1, warnings: 1,
		},
		{
			name: "missing final cell: OP undefined, BwT skips it",
			m:    matrix(envs3, []float64{50}, []float64{60, 40}, []float64{nan, 44, 20}),
			op:   nan, bwt: 10, used: 1, warnings: 1,
		},
		{
			name: "random stream: only the last row",
			m:    matrix(envs3, []float64{nan}, []float64{nan, nan}, []float64{30, 60, 90}),
			op:   60, bwt: nan, used: 0, warnings: 2,
		},
		{
			name: "single environment",
			m:    matrix([]string{"a"}, []float64{70}),
			op:   70, bwt: nan, used: 0, warnings: 1,
		},
		{
			name: "empty",
			m:    matrix(nil),
			op:   nan, bwt: nan, used: 0, warnings: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := OP(tc.m); !nearTol(got, tc.op, 1e-9) {
				t.Errorf("OP = %v, want %v", got, tc.op)
			}
			r := BwT(tc.m)
			if !nearTol(r.Value, tc.bwt, 1e-9) || r.Used != tc.used || len(r.Warnings) != tc.warnings {
				t.Errorf("BwT = %v used %d warnings %v, want %v used %d with %d warnings", r.Value, r.Used, r.Warnings, tc.bwt, tc.used, tc.warnings)
			}
		})
	}
}

func TestNewScoreMatrix(t *testing.T) {
	m := NewScoreMatrix([]string{"a", "b"})
	if len(m.S) != 2 || len(m.S[0]) != 1 || len(m.S[1]) != 2 || !math.IsNaN(m.S[1][1]) {
		t.Fatalf("NewScoreMatrix = %+v", m)
	}
}

func TestScoreMatrixMisusePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("ragged matrix did not panic")
		}
	}()
	OP(matrix([]string{"a", "b"}, []float64{1}, []float64{1}))
}

func TestClassifyAndTransfers(t *testing.T) {
	tests := []struct {
		delta float64
		want  Transfer
	}{
		{5, TransferUnchanged}, {-5, TransferUnchanged}, {0, TransferUnchanged},
		{5.01, TransferPositive}, {-5.01, TransferNegative}, {math.NaN(), TransferUnknown},
	}
	for _, tc := range tests {
		if got := Classify(tc.delta, DefaultTransferBand); got != tc.want {
			t.Errorf("Classify(%v) = %s, want %s", tc.delta, got, tc.want)
		}
	}
	m := matrix([]string{"a", "b", "c", "d"},
		[]float64{50},
		[]float64{50, 40},
		[]float64{50, 40, 30},
		[]float64{60, 38, math.NaN(), 10})
	cells := Transfers(m, DefaultTransferBand)
	if len(cells) != 3 {
		t.Fatalf("Transfers gave %d cells, want 3 (the last env is excluded)", len(cells))
	}
	want := []Transfer{TransferPositive, TransferUnchanged, TransferUnknown}
	for i, c := range cells {
		if c.Category != want[i] {
			t.Errorf("%s: %s, want %s", c.Env, c.Category, want[i])
		}
	}
	if got := CountTransfers(cells); got != (TransferCounts{Positive: 1, Unchanged: 1, Unknown: 1}) {
		t.Errorf("CountTransfers = %+v", got)
	}
}

func TestCategoryMeans(t *testing.T) {
	vals := map[string]float64{
		"alfworld": 40, "scienceworld": 20, // Embodied 30
		"apibank":  50,                // Tool use 50 (one env)
		"hotpotqa": math.NaN(),        // Web search: no value
		"toolqa":   10, "dbbench": 30, // Data analysis 20
		"custom": 100, // counted in Avg only
	}
	paper := []Category{
		{Name: "Embodied", Envs: []string{"alfworld", "scienceworld"}},
		{Name: "Tool use", Envs: []string{"apibank", "taubench-retail"}},
		{Name: "Web search", Envs: []string{"hotpotqa", "webshop"}},
		{Name: "Data analysis", Envs: []string{"dbbench", "toolqa"}},
		{Name: "Web browsing", Envs: []string{"miniwob", "mind2web"}},
	}
	got := CategoryMeans(vals, paper)
	want := []CategoryScore{
		{"Embodied", 30, 2}, {"Tool use", 50, 1}, {"Web search", math.NaN(), 0},
		{"Data analysis", 20, 2}, {"Web browsing", math.NaN(), 0}, {"Avg", 250.0 / 6, 6},
	}
	if len(got) != len(want) {
		t.Fatalf("CategoryMeans gave %d entries, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Name != want[i].Name || got[i].Envs != want[i].Envs || !nearTol(got[i].Value, want[i].Value, 1e-9) {
			t.Errorf("entry %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	// Without categories only the average is left.
	if got := CategoryMeans(vals, nil); len(got) != 1 || got[0].Name != "Avg" || got[0].Envs != 6 {
		t.Errorf("CategoryMeans without categories = %+v", got)
	}
}

func TestFinalAndRelative(t *testing.T) {
	m := matrix([]string{"a", "b"}, []float64{50}, []float64{55, 20})
	if f := FinalScores(m); f["a"] != 55 || f["b"] != 20 {
		t.Errorf("FinalScores = %v", f)
	}
	r := RelativeChanges(m)
	if len(r) != 1 || !nearTol(r["a"], 10, 1e-9) {
		t.Errorf("RelativeChanges = %v", r)
	}
	if BwTOver(m, func(e string) bool { return e == "b" }).Used != 0 {
		t.Error("BwTOver kept a filtered env")
	}
}

func TestRecoveryRate(t *testing.T) {
	tests := []struct {
		sim, rnd, buf, want float64
	}{
		{44, 30, 37, 0.5},
		{44, 30, 44, 1},
		{44, 30, 28, -2.0 / 14},
		{40, 40, 41, math.NaN()},
		{44, 30, math.NaN(), math.NaN()},
	}
	for _, tc := range tests {
		if got := RecoveryRate(tc.sim, tc.rnd, tc.buf); !nearTol(got, tc.want, 1e-12) {
			t.Errorf("RecoveryRate(%v, %v, %v) = %v, want %v", tc.sim, tc.rnd, tc.buf, got, tc.want)
		}
	}
}
