// Package memqa holds conversational-memory question answering data in one
// in-memory model, and reads and writes the two official formats the
// memory-method papers report on: LoCoMo (snap-research/LoCoMo,
// data/locomo10.json) and LongMemEval (xiaowu0162/longmemeval on Hugging
// Face: longmemeval_s, longmemeval_m, longmemeval_oracle).
//
// A Conversation is the history a question is asked over: in LoCoMo, one of
// the ten two-person conversations with its many questions; in LongMemEval,
// the haystack of one question (each LongMemEval question carries its own
// haystack of user-assistant sessions), so it holds exactly one question.
//
// Decoding is strict: an unknown field, a value of the wrong JSON type or a
// missing required field is an error naming the file, the line and the
// JSON path (DecodeError). Encoding writes the official layout, so the
// synthetic data of datasets/synth is read by the same loaders as the real
// files. The package also pins the official downloads (Specs) and counts
// what a file holds (ComputeStats), with LoCoMo's numeric categories named
// by one explicit table (Categories).
package memqa
