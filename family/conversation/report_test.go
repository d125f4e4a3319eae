package conversation_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/family/conversation"
	study "github.com/memharness/memharness/reports/memqa"
)

// The two LoCoMo report choices reach every table from the config: under
// mem0's names the Mem0 layout's single-hop column holds category 1, and
// counting the adversarial category puts all 30 questions in the overall
// rows (24 without it).
func TestReportChoicesFromTheConfig(t *testing.T) {
	for _, tc := range []struct {
		name   string
		set    []string
		title  string
		header string
		n      string
	}{
		{"defaults", nil, "category names: locomo-code table; adversarial (category 5) excluded from overall", "single-hop (cat 4)", "24"},
		{"mem0 names, adversarial counted", []string{"--set", "report.category_names=mem0", "--set", "report.count_adversarial=true"},
			"category names: mem0 table; adversarial (category 5) counted in overall", "single-hop (cat 1)", "30"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := writeConfig(t, dir, "locomo", "sim", "1000")
			var so, se bytes.Buffer
			args := append([]string{"run", "-c", cfg, "--out", dir}, tc.set...)
			if code := bench.Main(context.Background(), args, bench.IO{Out: &so, Err: &se}); code != 0 {
				t.Fatalf("exit %d:\n%s%s", code, so.String(), se.String())
			}
			report := filepath.Join(dir, "locomo_test", "report")
			index, err := os.ReadFile(filepath.Join(report, conversation.IndexFile))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Count(string(index), tc.title) < 5 {
				t.Errorf("index.md names %q in %d titles, want every table's", tc.title, strings.Count(string(index), tc.title))
			}
			layout, err := os.ReadFile(filepath.Join(report, study.Mem0Base+".md"))
			if err != nil || !strings.Contains(string(layout), tc.header+" F1") {
				t.Errorf("Mem0 layout lacks column %q (err %v)", tc.header, err)
			}
			f, err := os.Open(filepath.Join(report, conversation.MetricsFile))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rows, err := csv.NewReader(f).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, r := range rows {
				// method, field, name, metric, value, unit, ci_low, ci_high, n
				if r[0] == "full_context" && r[1] == "all" && r[3] == conversation.ScoreF1 {
					found = true
					if r[8] != tc.n || r[6] == "" || r[7] == "" {
						t.Errorf("overall F1 row %v: want n %s and an interval", r, tc.n)
					}
				}
			}
			if !found {
				t.Error("metrics.csv has no overall F1 row for full_context")
			}
		})
	}
}
