package llm

import (
	"net/url"
	"strings"
)

// What we know of endpoints that take the seed field of an OpenAI-compatible
// request without sampling reproducibly from it. A seed the server drops
// makes two draws at the same temperature two different samples, so a run
// on such a backbone cannot be repeated call for call; the manifest says so
// (backbone.StampSeeds) and the seed every call asked for stays in its call
// record either way.
//
// The table holds facts the providers document, checked by us; an endpoint
// it does not name (vLLM, llama.cpp's server, Ollama, which take a
// per-request seed) gets no note.
type seedFact struct {
	// host is the endpoint's host name (an exact match); model, when set,
	// is a prefix of the model name the fact is limited to.
	host, model string
	// honoured is false when the seed is dropped, true when it is taken
	// on a best-effort basis only.
	honoured bool
	note     string
}

// seedFacts is the table (a function, so no package state is shared).
func seedFacts() []seedFact {
	return []seedFact{
		{host: "api.anthropic.com", note: "Anthropic's OpenAI-compatible endpoint documents the seed field as ignored: repeated calls are independent draws"},
		{host: "api.openai.com", honoured: true, note: "OpenAI documents the seed as best effort: outputs may differ between calls with the same seed when the serving configuration (system_fingerprint) changes"},
	}
}

// SeedNote says what is known of how the endpoint at baseURL serving model
// treats a request's seed: empty when nothing is known against it,
// otherwise one sentence for the manifest. ignored is true when the seed is
// known to be dropped.
func SeedNote(baseURL, model string) (note string, ignored bool) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return "", false
	}
	host := strings.ToLower(u.Hostname())
	for _, f := range seedFacts() {
		if f.host == host && strings.HasPrefix(model, f.model) {
			return f.note, !f.honoured
		}
	}
	return "", false
}
