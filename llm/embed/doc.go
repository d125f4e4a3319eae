// Package embed provides llm.Embedder implementations: Hash, a deterministic
// local feature-hashing embedder that needs no network; OpenAI, a client for
// any OpenAI-compatible embeddings endpoint; and Memo, which embeds each
// distinct text once. Ranking lives in methods/retrieval (vectors) and internal/bm25.
package embed
