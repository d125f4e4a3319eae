package webshop

import (
	"strings"
	"sync"
)

// stopwords are English function words: dropped from search terms and from
// the noun approximation of the type reward. Our own list.
var stopwords = wordSet(`a about above after again against all also am an and any are as at be
because been before being below between both but by can could did do does doing down during each
few for from further had has have having he her here hers herself him himself his how i if in into
is it its itself just me more most my myself no nor not now of off on once only or other our ours
ourselves out over own same she should so some such than that the their theirs them themselves then
there these they this those through to too under until up upon very via was we were what when where
which while who whom why will with within without would you your yours yourself yourselves s t x
im id ill ive dont doesnt want need looking look find buy get like please would`)

// modifiers are frequent non-noun words of product titles (adjectives,
// adverbs, verbs, units of count) that spaCy would not tag as nouns.
var modifiers = wordSet(`new best high low great good premium original classic large small medium
big extra super ultra soft hard light heavy long short wide slim thin thick fast quick easy free
natural organic fresh pure real perfect portable compatible adjustable durable comfortable
waterproof resistant reusable washable professional universal multi mini full half double single
non anti pro plus max total various assorted multiple different black white red blue green yellow
pink purple orange brown grey gray silver gold beige navy ivory cream khaki tan teal clear dark
bright deep pale hot cold warm cool modern vintage rustic cute casual elegant lightweight upgraded
made includes including used using fits fit suitable designed perfect ideal ounce ounces oz fl lb
lbs pack count pcs pieces piece inch inches ft feet cm mm ml`)

// wordSet builds the set of s's words at first use, not at every start.
func wordSet(s string) func() map[string]bool {
	return sync.OnceValue(func() map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields(s) {
			m[w] = true
		}
		return m
	})
}

func isStopword(w string) bool { return stopwords()[w] }
