// Package memqa scores conversational-memory QA (LoCoMo, LongMemEval) the
// way the benchmarks' own code does, as pure functions on strings: no I/O,
// no model calls, no dataset loading (callers pass answers, numeric
// categories and dia_id lists as plain values).
//
//   - LoCoMo's metric (snap-research/LoCoMo task_eval/evaluation.py):
//     NormalizeAnswer, Stem (NLTK's Porter stemmer in its default mode),
//     TokenF1, MultiAnswerF1, Score per category, EvidenceRecall, Round3,
//     and Aggregate (evaluation_stats.py's per-category and overall means,
//     with the adversarial category in or out by the caller's choice).
//   - mem0's evaluation (mem0ai/mem0@b3ede5b evaluation/metrics/utils.py):
//     BLEU1 (nltk sentence_bleu, weights (1,0,0,0), smoothing method1, on
//     nltk.word_tokenize of the lower-cased texts) and Mem0F1 (its set F1).
//     word_tokenize splits sentences with Punkt first: an untrained model,
//     or a trained one's parameters given as PunktParams, read from
//     nltk_data's punkt_tab package bytes by PunktParamsFromZip and
//     ParsePunktTab (the caller reads the file).
//   - The category names: LoCoMo's numbers carry no names in its data, and
//     the field disagrees on them; CategoryName prints one of two explicit
//     tables and says which (see categories.go).
//
// Parity with the Python is tested on golden values that
// testdata/capture.py records by running the sources' own functions.
package memqa
