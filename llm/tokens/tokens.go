// Package tokens counts tokens for history budgets. The default is the
// PraMem reference's fallback estimator; a real tokenizer can be plugged in.
package tokens

// Counter counts the tokens of a text.
type Counter interface {
	Count(text string) int
}

// CounterFunc adapts a function to Counter.
type CounterFunc func(string) int

// Count calls f.
func (f CounterFunc) Count(s string) int { return f(s) }

// Approx is the reference's fallback estimator:
// int(1.5*#CJK + 1.3*(#other/5)), where CJK means U+4E00..U+9FFF and every
// other code point (CJK punctuation included) counts as "other".
type Approx struct{}

// Count implements Counter.
func (Approx) Count(s string) int {
	cjk, other := 0, 0
	for _, r := range s {
		if r >= 0x4E00 && r <= 0x9FFF {
			cjk++
		} else {
			other++
		}
	}
	return int(1.5*float64(cjk) + 1.3*(float64(other)/5))
}
