// Package memqa is the conversational-memory study of a LoCoMo or
// LongMemEval run: every score with a bootstrap interval clustered by
// conversation (LoCoMo has ten) or by question haystack (LongMemEval),
// paired comparisons of each method with the baseline, the Mem0 paper's
// LoCoMo layout (F1, BLEU-1 and J per category) with published numbers
// beside ours, LongMemEval's per-type accuracy, the answer-length table
// that shows how F1 and BLEU-1 move with an answer's length, and bar
// charts of the per-category scores with their intervals. It reads the
// run's samples only and draws with reports/render; the conversational
// family hands it every run of its tasks.
package memqa
