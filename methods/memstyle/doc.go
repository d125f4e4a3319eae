// Package memstyle holds the memory-system baselines of the PraMem paper's
// Table 1 and Table 3, written from the papers' descriptions: Mem0-style
// (kind "mem0"), MemOS-style ("memos") and ProEx-style ("proex"). Neither
// reference repository releases them (spec §5), so the construction
// prompts, output formats and defaults here are ours.
//
// Protocol (spec §5, the paper's): every baseline answers with the
// 8K-history prediction prompt of package predict and appends its memory
// block after the whole prompt (prompt + "\n\n" + block), PraMem's slot.
// Memory is built once per user from the history before the user's first
// test action, with Env.Builder().
//
//   - mem0: the practice history is read in chunks of Chunk records. One
//     call per chunk extracts salient facts ("- " lines or NONE). For each
//     fact the UpdateNeighbours most similar stored memories (Env.Embedder,
//     exact cosine) are shown to one call that answers one decision per
//     line: "ADD: <text>", "UPDATE <id>: <text>", "DELETE <id>" or "NONE"
//     (parseOps documents the accepted variants; lines that are not
//     decisions, or name ids not shown, are counted in bad_lines; when no
//     draw holds a decision the fact is added, counted in
//     update_fallbacks). MaxMemory > 0 evicts the memories written longest
//     ago (default 0: unbounded, as Mem0). At prediction the TopK (10)
//     memories most similar to the question and scene are shown.
//   - memos: typed units — profile (base rates), habit (near-rules),
//     preference (likings and aversions), event (one episode summary per
//     chunk). Each chunk gets one summarisation call per type; a type
//     holding more than MaxMemory/4 units (MaxMemory default 96) is
//     consolidated by one call to half that cap (the newest units are kept
//     when no draw is usable). At prediction each type contributes its
//     ceil(TopK/4) units (TopK default 12) most similar to the question and
//     scene, under the type's heading.
//   - proex: Profiles (3) profiles are induced from different slices of the
//     practice history — its earliest records, its latest, and a sample
//     spanning all of it, each up to ProfileRecordTokens — by one call
//     each. Each profile is cross-validated on the last Holdout (10)
//     practice records that answer an asked question (at most a quarter of
//     the practice history; profiles never see them): every such question
//     is asked with the evaluation prompt for that record plus the profile
//     block, and scored with package metrics (positive-class F1 pooled over
//     the binary questions, then accuracy). The best profile is the memory.
//
// Chunk defaults to 20 records; an extraction, typed or profile call is
// asked for at most DefaultMaxFacts facts (profiles four times as many);
// the block appended at prediction is capped at Spec.MemoryTokens (2000)
// tokens, whole lines only.
//
// Every construction call carries a typed hint (llm/hint: MemExtract,
// MemUpdate, MemTyped, MemConsolidate, ProfileInduce; validation calls a
// hint.Predict), so the sim backbone answers it in the format a real model
// is asked for, with fact lines computed over what the call shows, and the
// parsers here run for real.
//
// Resumption: each user's construction state is checkpointed through
// Env.Checkpoints after every chunk (mem0, memos) or step (proex) under
// "<kind>-<hash>", the hash covering everything that determines the memory
// (resolved knobs, construction sampling parameters, prompt language and
// override files, the fields asked, the practice records; for proex also
// the history budget and memory cap its validation prompts use). A
// finished construction is returned without a call; an interrupted one
// continues from its last checkpoint.
//
// Memory: Text is the whole memory (the store, or the chosen profile),
// Tokens its size; Calls and Usage sum every construction call over all
// sessions. Meta carries Table 3's efficiency figures —
// construction_seconds (wall clock over all sessions), calls,
// memory_tokens — plus model_seconds, the method's counters, and for mem0/memos the stored units that Predict retrieves
// from (Meta["units"]).
package memstyle
