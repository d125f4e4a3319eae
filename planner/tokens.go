package planner

import (
	"github.com/memharness/memharness/internal/prefixcache"
)

// approxChain cuts text into pseudo-tokens whose number is what
// tokens.Approx counts (the count the sim backbone's usage and the default
// budgets use: 1.5 per CJK ideograph, 1.3 per five other code points), and
// chains them into blocks. A token ends where the running weight passes a
// whole number, so a text's tokens are a prefix of any longer text's that
// starts with it: shared prefixes share blocks, as with a real tokenizer.
// The chain continues c (a message after the previous ones).
func approxChain(c *prefixcache.Chainer, text string, w *float64) {
	var h uint64 = 1469598103934665603
	for _, r := range text {
		h = (h ^ uint64(r)) * 1099511628211
		before := int(*w)
		if r >= 0x4E00 && r <= 0x9FFF {
			*w += 1.5
		} else {
			*w += 0.26
		}
		for n := int(*w) - before; n > 0; n-- {
			c.Add(h)
			h = 1469598103934665603 + uint64(n)
		}
	}
}
