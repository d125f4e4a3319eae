package toolqa

import "github.com/memharness/memharness/internal/pystr"

// articles are the words ToolQA's normalisation replaces, in the order
// of agents.py's pattern \b(a|an|the|usd)\b; "usd" is among them so that a
// bare number matches an answer key with a currency.
var articles = []string{"a", "an", "the", "usd"}

// Normalize is agents.py's normalize_answer (the HotpotQA one plus "usd"):
// Python's str.lower(), drop ASCII punctuation, replace articles standing
// alone under Python's Unicode \b by a space, " ".join(s.split()).
func Normalize(s string) string {
	s = pystr.RemovePunctuation(pystr.Lower(s))
	s = pystr.ReplaceWords(s, articles, " ")
	return pystr.JoinFields(s)
}

// ExactMatch reports whether answer equals key after normalisation.
func ExactMatch(answer, key string) bool {
	return Normalize(answer) == Normalize(key)
}
