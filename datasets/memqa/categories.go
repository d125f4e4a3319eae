package memqa

import scoring "github.com/memharness/memharness/metrics/memqa"

// Category is one of LoCoMo's numeric question categories with the name
// this harness prints for it and the scoring rule the official code
// (snap-research/LoCoMo task_eval/evaluation.py, eval_question_answering)
// applies to it.
//
// The release names no category; papers disagree on the names (the LoCoMo
// paper lists single-hop, multi-hop, temporal, open-domain, adversarial in
// that order, while the data and the code do not follow it). The names
// here follow the code's own rules and comments: category 1 is scored by
// splitting the answer on commas into sub-answers ("multi-hop" in the
// code's comment); category 2 questions get "Use DATE of CONVERSATION to
// answer with an approximate date" appended by the official prompts
// (temporal); category 3 answers are cut at the first ";" and are
// inferences beyond what was said (open-domain); category 4 is the
// remaining direct recall (single-hop); category 5 is scored by the
// adversarial check. docs/DESIGN_NOTES.md records the choice.
type Category struct {
	Number int
	Name   string
	// Rule is how the official code scores an answer of this category.
	Rule string
}

// Categories is LoCoMo's categories by number, named by the scoring
// package's default table (metrics/memqa.NamesLoCoMoCode), so the names a
// count prints and the names a score prints are one table.
func Categories() []Category {
	rules := []struct {
		number int
		rule   string
	}{
		{scoring.CategoryMultiHop, "answer split on commas; mean over sub-answers of the best token F1 against any predicted part"},
		{scoring.CategoryTemporal, "token F1 against the whole answer"},
		{scoring.CategoryOpenDomain, "answer cut at the first \";\", then token F1"},
		{scoring.CategorySingleHop, "token F1 against the whole answer"},
		{scoring.CategoryAdversarial, "1 when the prediction says \"no information available\" or \"not mentioned\", else 0"},
	}
	out := make([]Category, 0, len(rules))
	for _, r := range rules {
		name, err := scoring.CategoryName(scoring.NamesLoCoMoCode, r.number)
		if err != nil {
			panic(err) // the two tables are one set of numbers; a test holds them together
		}
		out = append(out, Category{Number: r.number, Name: name, Rule: r.rule})
	}
	return out
}

// CategoryByNumber looks a category up.
func CategoryByNumber(n int) (Category, bool) {
	for _, c := range Categories() {
		if c.Number == n {
			return c, true
		}
	}
	return Category{}, false
}

// LongMemEval's question types, as question_type writes them, in the order
// of its README; abstention is not a type but the "_abs" id suffix on a
// question of any type.
const (
	SingleSessionUser       = "single-session-user"
	SingleSessionAssistant  = "single-session-assistant"
	SingleSessionPreference = "single-session-preference"
	TemporalReasoning       = "temporal-reasoning"
	KnowledgeUpdate         = "knowledge-update"
	MultiSession            = "multi-session"
	// Abstention names the abstention questions in counts and tables.
	Abstention = "abstention"
)

// QuestionTypes lists LongMemEval's question types.
func QuestionTypes() []string {
	return []string{SingleSessionUser, SingleSessionAssistant, SingleSessionPreference, TemporalReasoning, KnowledgeUpdate, MultiSession}
}
