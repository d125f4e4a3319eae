package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeOrdersCfg writes a lifemem config whose lifelong block ends with
// extra (indented two spaces) and whose file ends with tail.
func writeOrdersCfg(t *testing.T, extra, tail string) string {
	t.Helper()
	body := "name: ord\ntask: lifemem\nlifelong:\n  envs: [alfworld, webshop]\n" + extra +
		"  methods:\n    - {name: react, kind: react}\n" + tail
	p := filepath.Join(t.TempDir(), "ord.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExpandOrders: lifelong.orders and lifelong.named_orders become one
// variant (its own run) per order, crossed with the sweep's own grid.
func TestExpandOrders(t *testing.T) {
	for _, tc := range []struct {
		name, extra, tail string
		sets              []string
		want              []string // variant: stream order
	}{
		{"no orders", "", "", nil, []string{": similarity 0"}},
		{"one order is no sweep", "  orders: 1\n", "", nil, []string{": similarity 0"}},
		{"three seeded orders", "  stream: random\n  orders: 3\n", "", nil,
			[]string{"order=1: random 1", "order=2: random 2", "order=3: random 3"}},
		{"orders from --set", "", "", []string{"lifelong.orders=2"},
			[]string{"order=1: similarity 1", "order=2: similarity 2"}},
		{"named orders", "  named_orders: [similarity, random, buffer]\n", "", nil,
			[]string{"stream=similarity: similarity 0", "stream=random: random 0", "stream=buffer: buffer 0"}},
		{"named orders × seeded orders", "  named_orders: [similarity, random]\n  orders: 2\n", "", nil,
			[]string{"stream=similarity__order=1: similarity 1", "stream=similarity__order=2: similarity 2",
				"stream=random__order=1: random 1", "stream=random__order=2: random 2"}},
		{"crossed with the sweep grid", "  orders: 2\n", "sweep:\n  grid:\n    lifelong.batch: [2, 5]\n", nil,
			[]string{"batch=2__order=1: similarity 1", "batch=2__order=2: similarity 2", "batch=5__order=1: similarity 1", "batch=5__order=2: similarity 2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vs, err := Expand(writeOrdersCfg(t, tc.extra, tc.tail), tc.sets)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range vs {
				got = append(got, v.Name+": "+v.Config.Lifelong.WithDefaults().Stream+" "+string(rune('0'+v.Config.Lifelong.Order)))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("variants:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestOrdersErrors: a bad order key is named at its own line, once.
func TestOrdersErrors(t *testing.T) {
	for _, tc := range []struct {
		name, extra, tail string
		sets              []string
		want              string
	}{
		{"negative orders", "  orders: -2\n", "", nil, "ord.yaml:5: lifelong.orders: -2, want >= 0"},
		{"too many orders", "  orders: 101\n", "", nil, "ord.yaml:5: lifelong.orders: 101, more than the 100"},
		{"misspelt stream", "  named_orders: [similarity, shufled]\n", "", nil,
			`ord.yaml:5: lifelong.named_orders[1]: "shufled" is not one of similarity, random, buffer`},
		{"order beside orders", "  orders: 2\n  order: 2\n", "", nil,
			"ord.yaml:6: lifelong.order: is set by lifelong.orders ("},
		{"order from --set", "  orders: 2\n", "", []string{"lifelong.order=2"}, "grid key lifelong.order is also set by --set lifelong.order=2"},
		{"named orders and a stream grid", "  named_orders: [random, buffer]\n", "sweep:\n  grid:\n    lifelong.stream: [random, buffer]\n", nil,
			"ord.yaml:5: lifelong.named_orders: runs one variant per lifelong.stream, which the sweep grid also sets ("},
		{"unknown key", "  ordres: 2\n", "", nil, `ordres`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Expand(writeOrdersCfg(t, tc.extra, tc.tail), tc.sets)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if n := strings.Count(err.Error(), tc.want); n != 1 {
				t.Errorf("error names the problem %d times, want once: %v", n, err)
			}
		})
	}
}
