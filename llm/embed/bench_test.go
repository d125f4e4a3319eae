package embed_test

import (
	"strings"
	"testing"

	"github.com/memharness/memharness/llm/embed"
)

// BenchmarkHash measures one ~1 KB mixed English/Chinese text.
func BenchmarkHash(b *testing.B) {
	text := strings.Repeat("The user watched Toy Story (1995) and rated it 4 stars; 用户喜欢动画电影。 ", 14)
	h := embed.Hash{}
	b.ReportAllocs()
	for b.Loop() {
		h.Vector(text)
	}
}
