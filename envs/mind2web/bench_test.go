package mind2web

import (
	"fmt"
	"strings"
	"testing"
)

// bigPage is a page the size of a real Mind2Web snapshot: n elements
// nested in groups, every third one a candidate.
func bigPage(n int) (string, []string) {
	var sb strings.Builder
	var cands []string
	sb.WriteString(`<html backend_node_id="1"><body backend_node_id="2">`)
	id := 10
	for g := 0; g < n/10; g++ {
		fmt.Fprintf(&sb, `<div backend_node_id="%d" class="group row">`, id)
		id++
		for k := 0; k < 9; k++ {
			fmt.Fprintf(&sb, `<button backend_node_id="%d" type="button" aria_label="item %d of group %d" class="btn item"><text>Item %d</text></button>`, id, k, g, k)
			if id%3 == 0 {
				cands = append(cands, fmt.Sprint(id))
			}
			id++
		}
		sb.WriteString(`</div>`)
	}
	sb.WriteString(`</body></html>`)
	return sb.String(), cands
}

// BenchmarkObserveLargePage times one step's observation on a 3,000-element
// page with the top 5 of ~900 candidates shown: the per-step cost of a real
// Mind2Web run.
func BenchmarkObserveLargePage(b *testing.B) {
	html, cands := bigPage(3000)
	b.SetBytes(int64(len(html)))
	for b.Loop() {
		if _, _, err := observe(html, cands[len(cands)/2:len(cands)/2+5]); err != nil {
			b.Fatal(err)
		}
	}
}
