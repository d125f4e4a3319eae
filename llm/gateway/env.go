package gateway

import (
	"slices"
	"strconv"
	"strings"
)

// Variables the child's environment gets (see ChildEnv).
const (
	// EnvURL and EnvToken are the gateway's own names, for clients written
	// against the harness.
	EnvURL   = "MEMHARNESS_GATEWAY_URL"
	EnvToken = "MEMHARNESS_GATEWAY_TOKEN"
	// EnvModel and EnvEmbeddingModel name the models /v1/models lists.
	EnvModel          = "MEMHARNESS_MODEL"
	EnvEmbeddingModel = "MEMHARNESS_EMBEDDING_MODEL"
	// EnvEmbeddingDims is the embedder's vector size (Options.EmbeddingDims).
	EnvEmbeddingDims = "MEMHARNESS_EMBEDDING_DIMS"
)

// ChildEnv is what a child needs to reach the gateway, as KEY=VALUE
// lines: the URL and the per-run token under the names the common
// libraries read, and nothing else of the harness's.
//
//   - OPENAI_BASE_URL: the official openai Python and Node clients, mem0's
//     LLM and embedder, litellm, langchain-openai (through the client);
//   - OPENAI_API_BASE: the older name, still read by mem0's embedder,
//     litellm, langchain's openai_api_base and llama-index;
//   - OPENAI_API_KEY: every one of them; it holds the gateway's token,
//     never the user's key;
//   - OPENAI_MODEL, MEMHARNESS_MODEL, MEMHARNESS_EMBEDDING_MODEL: the model
//     IDs /v1/models lists (any name a request gives is answered by the
//     run's backbone);
//   - MEMHARNESS_EMBEDDING_DIMS: the embedder's vector size, when known;
//   - MEMHARNESS_GATEWAY_URL, MEMHARNESS_GATEWAY_TOKEN: the same URL and
//     token under the harness's names;
//   - MEM0_TELEMETRY=False: mem0 otherwise reports usage to its vendor,
//     and a benchmark's child has no business calling out;
//   - NO_PROXY, no_proxy: loopback, so an inherited proxy setting never
//     carries the token off the machine.
func (g *Gateway) ChildEnv() []string {
	url := g.URL()
	env := []string{
		"OPENAI_BASE_URL=" + url,
		"OPENAI_API_BASE=" + url,
		"OPENAI_API_KEY=" + g.token,
		"OPENAI_MODEL=" + g.opts.ModelName,
		EnvURL + "=" + url,
		EnvToken + "=" + g.token,
		EnvModel + "=" + g.opts.ModelName,
		EnvEmbeddingModel + "=" + g.opts.EmbeddingModelName,
		"MEM0_TELEMETRY=False",
		"NO_PROXY=127.0.0.1,localhost",
		"no_proxy=127.0.0.1,localhost",
	}
	if g.opts.EmbeddingDims > 0 {
		env = append(env, EnvEmbeddingDims+"="+strconv.Itoa(g.opts.EmbeddingDims))
	}
	return env
}

// ChildEnvMap is ChildEnv as a map, for launchers that merge variables by
// name (a func() map[string]string hook takes the method value).
func (g *Gateway) ChildEnvMap() map[string]string {
	env := g.ChildEnv()
	out := make(map[string]string, len(env))
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		out[k] = v
	}
	return out
}

// ChildEnviron is base (the environment the child would inherit, e.g.
// os.Environ()) without anything that may hold a credential or point a
// library at another endpoint, followed by ChildEnv. Use it rather than
// appending ChildEnv to os.Environ(): a library may prefer a variable the
// gateway does not set (mem0 calls OpenRouter whenever OPENROUTER_API_KEY
// is set), and the user's key must never reach the child.
func (g *Gateway) ChildEnviron(base []string) []string {
	out := make([]string, 0, len(base)+11)
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if !withheld(name) {
			out = append(out, kv)
		}
	}
	return append(out, g.ChildEnv()...)
}

// withheldPrefixes are the endpoint and key settings of the model
// providers libraries fall back to, and the harness's own.
var withheldPrefixes = []string{
	"OPENAI_", "OPENROUTER_", "AZURE_OPENAI_", "AZURE_API_", "ANTHROPIC_", "GEMINI_", "GOOGLE_API_",
	"GROQ_", "MISTRAL_", "TOGETHER_", "DEEPSEEK_", "XAI_", "COHERE_", "HUGGINGFACE", "HF_", "LITELLM_",
	"MEMHARNESS_", "MEM0_", "NO_PROXY",
}

// withheldSuffixes are the names secrets go by.
var withheldSuffixes = []string{"_KEY", "_TOKEN", "_SECRET", "_PASSWORD", "_CREDENTIALS", "_API_BASE", "_BASE_URL"}

// withheld reports whether an inherited variable is kept from the child.
func withheld(name string) bool {
	up := strings.ToUpper(name)
	return slices.ContainsFunc(withheldPrefixes, func(p string) bool { return strings.HasPrefix(up, p) }) ||
		slices.ContainsFunc(withheldSuffixes, func(s string) bool { return strings.HasSuffix(up, s) })
}
