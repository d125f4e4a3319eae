package pramem

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/datasets/pyrandom"
	"github.com/memharness/memharness/datasets/sampling"
	"github.com/memharness/memharness/methods/predict"
)

// Seeds of the practice sampler: z_1 seeds random with 42 before its
// weighted draws and z_2 with 1024 before each user's shuffle. The release
// seeds once in the parent process and then draws in a process pool whose
// forked workers Python reseeds from the OS, so its own draws differ from
// run to run and cannot be reproduced. The deterministic draw seeds each
// user's draws with 42 as a single-process run of that user alone would;
// the harness's own draw offsets both seeds by the user's hash.
const (
	drawSeed    = 42
	shuffleSeed = 1024
)

// question is one question asked of a practice target.
type question struct {
	Field, Kind, Text string
	Classes           []string
}

// questionBook maps the fields a user is asked about (from the user's
// instances: the dataset's own question texts and kinds) in first-asked
// order.
type questionBook struct {
	order []string
	byKey map[string]question
}

func newQuestionBook(u behavior.UserSet) questionBook {
	b := questionBook{byKey: map[string]question{}}
	for _, in := range u.Instances {
		q := in.Question
		if q.Kind != behavior.Binary && q.Kind != behavior.MultiClass {
			continue
		}
		if _, ok := b.byKey[q.Field]; ok {
			continue
		}
		b.order = append(b.order, q.Field)
		b.byKey[q.Field] = question{Field: q.Field, Kind: q.Kind, Text: q.Text, Classes: q.Classes}
	}
	return b
}

// of returns the questions asked of a record: every known field among its
// outcomes, in the book's order.
func (b questionBook) of(e behavior.Event) []question {
	var out []question
	for _, f := range b.order {
		if _, ok := e.Outcomes[f]; ok {
			out = append(out, b.byKey[f])
		}
	}
	return out
}

// userSeed is the per-user offset of the practice seeds.
func userSeed(base int64, user string) int64 { return base + sampling.HashOffset(user) }

// samplePractice draws the practice targets of a user (z_1 + z_2): the
// candidates are the pool records at timeline position minHist or later
// that pass the draw's enough-context check (the pool already excludes
// should_filter records); draw poolSize of them with replacement,
// weighting the candidate of rank r (oldest first) by (r+1)²; shuffle;
// keep the first rounds.
//
// With release set it is the release's draw made deterministic: positions
// count in the unfiltered timeline as z_1's do, every record passing the
// checks is a candidate (a search or customer-service record too, though it
// carries no yes/no question), and the seeds are 42 and 1024 for every
// user (see drawSeed). Otherwise a candidate also needs a non-blank context
// and a question, positions count in the pool, and the seeds are offset per
// user.
func samplePractice(pool []behavior.Event, book questionBook, minHist, poolSize, rounds int, seed int64, user string, release bool) ([]int, error) {
	cands := practiceCandidates(pool, book, minHist, release)
	if len(cands) == 0 {
		return nil, nil
	}
	w := make([]float64, len(cands))
	for r := range w {
		w[r] = float64((r + 1) * (r + 1))
	}
	draw, shuffle := userSeed(seed, user), userSeed(shuffleSeed, user)
	if release {
		draw, shuffle = drawSeed, shuffleSeed
	}
	picks, err := pyrandom.New(draw).Choices(w, poolSize)
	if err != nil {
		return nil, fmt.Errorf("pramem: user %s: practice draws: %w", user, err)
	}
	items := make([]int, len(picks))
	for i, p := range picks {
		items[i] = cands[p]
	}
	pyrandom.ShuffleSlice(pyrandom.New(shuffle), items)
	if release {
		// z_2 builds no practice input for a target without any question
		// (a search without keyword, a customer-service record without a
		// usable user turn: its input builder raises and the item is
		// skipped), so the rounds play the remaining items in order.
		items = slices.DeleteFunc(items, func(i int) bool { return !hasQuestions(pool[i]) })
	}
	return items[:min(rounds, len(items))], nil
}

// hasQuestions reports whether the release asks anything of a record: a
// numeric label (yes/no, seconds, rating) or a text question.
func hasQuestions(e behavior.Event) bool { return len(e.Outcomes) > 0 || len(e.Source.Text) > 0 }

// practiceCandidates are the pool positions samplePractice draws from,
// oldest first.
func practiceCandidates(pool []behavior.Event, book questionBook, minHist int, release bool) []int {
	var cands []int
	for i, e := range pool {
		pos := i
		if release && e.Source.Pos > 0 {
			pos = e.Source.Pos - 1
		}
		switch {
		case pos < minHist, e.Source.ThinForDraw:
		case release, strings.TrimSpace(e.Context) != "" && len(book.of(e)) > 0:
			cands = append(cands, i)
		}
	}
	return cands
}

// practiceItem is one practice target with what its prompts show.
type practiceItem struct {
	idx       int // position of the target in the practice pool
	input     string
	label     string
	visible   []behavior.Event
	target    behavior.Event
	questions []question
}

// leakOffset is the released code's practice-history shift: z_2 rebuilds the
// history as base_history + window[:idx] with idx a position in
// base + window, so every history runs len(base) records too far. base is
// the part of the pool before the month of the user's first test action
// (September for OmniBehavior's October test window).
func leakOffset(pool []behavior.Event, firstTest behavior.Event) int {
	month := firstTest.Time
	if len(month) >= 7 {
		month = month[:7]
	}
	n := 0
	for _, e := range pool {
		if e.Time < month {
			n++
		}
	}
	return n
}

// practiceHistory is the history a practice target's input is built from:
// the pool before it, or with leak the released code's shifted history
// (see leakOffset; by timeline position when the records carry one, as
// z_2 slices), without the records that fail the practice stage's
// enough-context check (z_2's filter of its history).
func practiceHistory(pool, full []behavior.Event, idx, leak int, leaky bool) []behavior.Event {
	history := pool[:idx]
	if leaky {
		if src := pool[idx].Source; src.Pos > 0 {
			// z_2: base_history + test_time_all_actions[:position in
			// base + window], i.e. positions below Base + position.
			end := src.Base + src.Pos - 1
			n := 0
			for n < len(full) && full[n].Source.Pos-1 < end {
				n++
			}
			history = full[:n]
		} else {
			history = full[:min(idx+leak, len(full))]
		}
	}
	kept := history
	for i, e := range history {
		if e.Source.ThinForPractice {
			// Copy on the first drop: history shares the user's events.
			kept = slices.Clone(history[:i])
			for _, e := range history[i:] {
				if !e.Source.ThinForPractice {
					kept = append(kept, e)
				}
			}
			break
		}
	}
	return kept
}

// buildItem renders practice target idx: the evaluation prompt of the
// target over its history (budget tokens) cut where the current-scene
// section begins, the practice task, and the answer.
func (m *method) buildItem(env predict.Env, p *predict.Prompts, sp *stagePrompts, u behavior.UserSet, pool, full []behavior.Event, idx, leak int, book questionBook) (practiceItem, error) {
	target := pool[idx]
	history := practiceHistory(pool, full, idx, leak, m.cfg.leak)
	w, err := p.SelectWindow(env.TokenCounter(), history, m.cfg.practiceTokens)
	if err != nil {
		return practiceItem{}, err
	}
	visible := history[w.Start:]
	hist, err := p.HistoryBlock(visible, w.Tokens)
	if err != nil {
		return practiceItem{}, err
	}
	qs := book.of(target)
	if len(qs) == 0 && len(target.Source.Text) > 0 && sp.t.Lookup("practice_text_prompt") != nil {
		return sp.textItem(u, target, idx, hist, visible)
	}
	// A target of the release's draw may carry no yes/no question (a
	// search record) while the prompts define no text-question input
	// (prompts: own): its input shows the history as a binary question's
	// prompt does, and its task the scene without a question line.
	first := question{Kind: behavior.Binary}
	if len(qs) > 0 {
		first = qs[0]
	}
	inst := behavior.Instance{ID: "practice", User: u.User, Profile: u.Profile, Target: target, Question: behavior.Question{Kind: first.Kind, Classes: first.Classes}}
	prompt, err := p.Question(inst, hist)
	if err != nil {
		return practiceItem{}, err
	}
	cut := strings.Index(prompt, hist)
	if cut < 0 {
		return practiceItem{}, fmt.Errorf("pramem: user %s: the question template does not show the history block verbatim", u.User)
	}
	input := prompt[:cut+len(hist)]
	lines := make([]string, len(qs))
	for i, q := range qs {
		lines[i] = q.Text
		if q.Kind == behavior.MultiClass {
			if lines[i], err = sp.exec("practice_question_rating", struct{ Text, Classes string }{q.Text, "[" + strings.Join(q.Classes, ",") + "]"}); err != nil {
				return practiceItem{}, err
			}
		}
	}
	if order := sp.marker("practice_field_order"); order != "" {
		// An override (a release pack) lists every question of the target
		// in its own order, continuous ones (seconds watched) included.
		if lines, err = sp.releaseQuestions(order, target, qs); err != nil {
			return practiceItem{}, err
		}
	}
	scene := target.RawScene
	if scene == "" {
		scene = target.Scene
	}
	task, err := sp.exec("practice_task", struct {
		K                    int
		Time, Scene, Context string
		Questions            []string
	}{1, target.Time, scene, target.Context, lines})
	if err != nil {
		return practiceItem{}, err
	}
	result := target.Result
	label, err := sp.exec("practice_label", struct {
		K                            int
		Time, Scene, Context, Result string
	}{1, target.Time, scene, target.Context, result})
	if err != nil {
		return practiceItem{}, err
	}
	joined := input + task
	if sp.t.Lookup("practice_input") != nil {
		// An override (a release pack) joins the two parts itself.
		if joined, err = sp.exec("practice_input", struct{ Before, Task string }{input, task}); err != nil {
			return practiceItem{}, err
		}
	}
	return practiceItem{idx: idx, input: joined, label: label, visible: visible, target: target, questions: qs}, nil
}

// textItem renders a practice target whose only questions are text ones
// as the release's z_2 does: the text-question prompt of the first field
// up to its history block (the part before the current scene or task),
// then a task of the question lines, with no scene (so the
// generalizability review finds no current scene), and the usual label.
func (sp *stagePrompts) textItem(u behavior.UserSet, target behavior.Event, idx int, hist string, visible []behavior.Event) (practiceItem, error) {
	lines := make([]string, len(target.Source.Text))
	for i, q := range target.Source.Text {
		s, err := sp.exec("practice_text_question", struct {
			Field, Context, Dialogue string
			HasDialogue              bool
		}{q.Field, target.Context, q.Dialogue, q.HasDialogue})
		if err != nil {
			return practiceItem{}, err
		}
		lines[i] = s
	}
	first := target.Source.Text[0]
	prompt, err := sp.exec("practice_text_prompt", struct{ Field, Profile, History, Question string }{
		first.Field, predict.ShortProfile(u.Profile), hist, lines[0]})
	if err != nil {
		return practiceItem{}, err
	}
	cut := strings.Index(prompt, hist)
	if cut < 0 {
		return practiceItem{}, fmt.Errorf("pramem: user %s: the text-question template for %s does not show the history block verbatim", u.User, first.Field)
	}
	task, err := sp.exec("practice_task_text", struct {
		K         int
		Questions []string
	}{1, lines})
	if err != nil {
		return practiceItem{}, err
	}
	scene := target.RawScene
	if scene == "" {
		scene = target.Scene
	}
	label, err := sp.exec("practice_label", struct {
		K                            int
		Time, Scene, Context, Result string
	}{1, target.Time, scene, target.Context, target.Result})
	if err != nil {
		return practiceItem{}, err
	}
	joined, err := sp.exec("practice_input", struct{ Before, Task string }{prompt[:cut+len(hist)], task})
	if err != nil {
		return practiceItem{}, err
	}
	return practiceItem{idx: idx, input: joined, label: label, visible: visible, target: target}, nil
}

// releaseQuestions are the practice question lines of an override that
// defines practice_field_order (comma-separated fields) and
// practice_question ({Field, Text, Continuous}): one line per field of the
// order among the target's outcomes. A rating question keeps its own line.
func (sp *stagePrompts) releaseQuestions(order string, target behavior.Event, qs []question) ([]string, error) {
	known := map[string]question{}
	for _, q := range qs {
		known[q.Field] = q
	}
	var lines []string
	for _, f := range strings.Split(order, ",") {
		if _, ok := target.Outcomes[f]; !ok {
			continue
		}
		q, ok := known[f]
		if q.Kind == behavior.MultiClass {
			s, err := sp.exec("practice_question_rating", struct{ Text, Classes string }{q.Text, "[" + strings.Join(q.Classes, ",") + "]"})
			if err != nil {
				return nil, err
			}
			lines = append(lines, s)
			continue
		}
		s, err := sp.exec("practice_question", struct {
			Field, Text string
			Continuous  bool
		}{f, q.Text, !ok})
		if err != nil {
			return nil, err
		}
		lines = append(lines, s)
	}
	return lines, nil
}

// task is the hint view of a practice item.
func (it practiceItem) task() PraMemTask {
	t := PraMemTask{Target: predict.HintEvent(it.target, false)}
	for _, e := range it.visible {
		t.Visible = append(t.Visible, predict.HintEvent(e, true))
	}
	for _, q := range it.questions {
		t.Questions = append(t.Questions, PraMemQuestion{Field: q.Field, Kind: q.Kind, Classes: q.Classes})
	}
	return t
}

// truth is the practice answer as field -> value.
func (it practiceItem) truth() map[string]float64 {
	out := make(map[string]float64, len(it.questions))
	for _, q := range it.questions {
		out[q.Field] = it.target.Outcomes[q.Field]
	}
	return out
}

// realScene is the real scene text of check1 as the reference builds it:
// from the first scene marker of the practice input (marker included) to
// the end, trimmed, cut to limit runes, and "..." appended even when
// nothing was cut.
func realScene(input, marker string, limit int) string {
	i := strings.Index(input, marker)
	if marker == "" || i < 0 {
		return ""
	}
	r := []rune(strings.TrimSpace(input[i:]))
	return string(r[:min(limit, len(r))]) + "..."
}

func cutRunes(s string, limit int) string {
	r := []rune(s)
	if len(r) <= limit {
		return s
	}
	return string(r[:limit]) + "..."
}

// historyText is the history block of check2: from the history section
// header to the practice task header, with every details field cut to
// limit runes. The released code looks for a Chinese task header its own
// practice inputs no longer contain, so it always finds nothing; noop
// reproduces that.
func historyText(input, header, details, task string, limit int, noop bool) string {
	if noop || header == "" || task == "" {
		return ""
	}
	i := strings.Index(input, header)
	if i < 0 {
		return ""
	}
	j := strings.Index(input[i:], task)
	if j < 0 {
		return ""
	}
	block := strings.TrimRight(input[i:i+j], "\n")
	if details == "" {
		return block
	}
	var b strings.Builder
	for line := range strings.Lines(block) {
		if rest, ok := strings.CutPrefix(line, details); ok {
			nl := strings.HasSuffix(rest, "\n")
			line = details + cutRunes(strings.TrimRight(rest, "\n"), limit)
			if nl {
				line += "\n"
			}
		}
		b.WriteString(line)
	}
	return b.String()
}
