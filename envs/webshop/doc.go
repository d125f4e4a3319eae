// Package webshop is a native Go WebShop (Yao et al., 2022) as ExpeL and
// LifeMem drive it in text mode: a search page, BM25 search results (10 per
// page, at most 50 results), item pages with options, Description / Features
// / Reviews / Attributes sub-pages and Buy Now, scored by WebShop's reward
// at purchase. It loads the official files (items_shuffle_1000.json,
// items_ins_v2_1000.json, ExpeL's webshop.fixed100.json, human_goals.json)
// and embeds a small catalogue and goal set of our own.
//
// Fidelity notes (where we differ from the reference, and why):
//   - Search is internal/bm25's Lucene variant (Lucene's idf, Pyserini's
//     k1=0.9, b=0.4)
//     over the same document text the reference indexes (title,
//     description, first bullet point, options), with our tokeniser and a
//     stopword list instead of Lucene's English analyser (no stemming), so
//     rankings differ from Pyserini's.
//   - The type reward needs spaCy's noun tags, which cannot run here. Nouns
//     are approximated by the word tokens of a title that are not
//     stopwords, numbers or common modifiers (nouns.go); title_score keeps
//     the reference's quirk of dividing a set intersection by the length
//     of the (duplicate-keeping) goal list.
//   - thefuzz's token_set_ratio and the colour normalisation are our own
//     implementations (fuzz.go, colors.go; our own colour list).
//   - A product whose price is a range costs its lower bound (the reference
//     draws uniformly in the range with a global RNG); the lower bound is
//     deterministic and never above the price the goal generator saw.
//   - The total reward is clamped to [0, 1]: the reference can exceed 1 when
//     more purchased options match than the goal has.
//   - ExpeL's goals (fixed100) carry no goal attributes (they live in
//     items_human_ins.json, which ExpeL's file does not include), so their
//     reward has no attribute term; their price limit is parsed from the
//     instruction. Goal files in the reference's own goal format keep all
//     fields.
//   - Observations follow ExpeL's text rendering ([Button], [option],
//     [[selected option]], "You have clicked X.", title and price for the
//     first three results of a page only), but paging works: ExpeL
//     disables Next > with an assertion; here it turns the page.
//   - Clicks match buttons, ASINs and option values case-insensitively.
//   - An episode ends by itself after MaxSteps actions (the paper's 15).
package webshop
