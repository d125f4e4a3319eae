package render

import "testing"

func TestUnderProvenance(t *testing.T) {
	prov := "Run — backbone: sim | x — data: d"
	for _, tc := range []struct{ name, in, want string }{
		{"prefix", "### Run — backbone: sim \\| x — data: d — liked\n\n| a |\n", "### liked\n\n| a |\n"},
		{"suffix", "### Table 2 — OP — Run — backbone: sim \\| x — data: d\n", "### Table 2 — OP\n"},
		{"other heading kept", "### Clusters per environment\n", "### Clusters per environment\n"},
		{"only H3", "# Run — backbone: sim \\| x — data: d — liked\n", "# Run — backbone: sim \\| x — data: d — liked\n"},
		{"a cell is not a heading", "| Run — backbone: sim \\| x — data: d — liked |\n", "| Run — backbone: sim \\| x — data: d — liked |\n"},
		{"last line without newline", "### Run — backbone: sim \\| x — data: d — a", "### a"},
	} {
		if got := UnderProvenance(tc.in, prov); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := UnderProvenance("### a — b\n", ""); got != "### a — b\n" {
		t.Errorf("no provenance: %q", got)
	}
}
