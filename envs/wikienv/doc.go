// Package wikienv is the ReAct Wikipedia environment behind two LifeMem
// suites: HotpotQA (multi-hop QA, in the stream) and FEVER (claim
// verification, out of distribution).
//
// Live Wikipedia is neither reachable offline nor reproducible, so the
// environment searches a local document store instead: the context
// paragraphs shipped with the HotpotQA questions plus any user-supplied
// page dump (JSONL title/text, or the FEVER wiki-pages layout). Search is an
// exact or normalised title match, else a BM25 list of similar titles;
// Lookup walks the sentences of the last page that contain a keyword.
// Scores therefore differ from the paper's live-Wikipedia numbers (the
// corpus is smaller and cleaner); reports should say so.
package wikienv
