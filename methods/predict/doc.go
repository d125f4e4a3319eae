// Package predict holds the behaviour-prediction side of the harness that
// every method shares — prompt templates (zh default, en), history windows
// under a token budget, answer parsers — and the four foundation baselines
// of the PraMem paper: long_context (32K history), truncation (8K), rag
// (retrieved older records appended as memory) and summary (recursive
// summarisation appended as memory).
//
// Prompts follow the reference layout (spec §1.7): role, principles,
// profile, history, current scene, task, output format; any memory block is
// appended after the whole prompt. Every request carries a hint.Predict
// holding exactly what the prompt shows, for the sim backbone.
package predict
