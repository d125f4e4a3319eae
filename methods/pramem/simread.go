package pramem

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/memharness/memharness/llm/sim"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
)

// PraMem practice calls (methods/pramem). The sim answers each stage in the
// output format its prompt asks for, so the method's parsers run on real
// text:
//
//   - trial: per question a short analysis and a line "Prediction [FIELD]:
//     LABEL", the label being what the predict reader answers for the
//     practice target from the visible history and the memory (the Direct
//     ablation ignores the memory entries: without the listing steps the
//     reader does not consult them);
//   - reflect: for every question the trial got wrong (its label read back
//     from the trial text, recomputed when absent), proposals in the fact
//     grammar as "【提议】 <scene> | add Pattern | <fact>" lines: facts about
//     the target's attribute values whose rate over the visible history
//     differs by at least PraMemMinDeviation from the scene's base rate, in
//     the direction of the true answer, backed by at least PraMemMinSupport
//     records (at most PraMemMaxFacts, strongest first); when none exists, a
//     binary question gets one "add Calibration" bias line moving the
//     threshold towards the answer. The Direct ablation proposes bias lines
//     only (no analysis of the history);
//     Where the answer leaves room, it adds up to two hasty facts per
//     missed question, resting on the practice case alone (see
//     hastyFacts): one on an entity the scene names, one on a category
//     value its history never shows; the reviews below exist to reject them.
//     It also notes the scene's strongest habits (sceneHabits): two after
//     a mistake, and per question answered correctly the strongest of its
//     field the memory lacks (or the scene's decided rate of the field,
//     sceneBaseRates), so memory grows with practice even where the reader
//     is rarely wrong;
//   - scenes: M variants of the real scene text with every entity value
//     (attributes named product, items, *_id, *_name, *title) that occurs in
//     the text replaced by an invented one; category values are kept;
//   - generalize: a proposal fails when a value of its condition occurs in
//     option A but in none of the virtual options (it singles out the real
//     scene); otherwise it passes;
//   - perturb: one plan that flips every reaction of the history;
//   - perturb_judge: recomputes each fact on the history with its outcomes
//     flipped (0/1 -> 1-y, ratings 1..5 -> 6-y); the fact is sensitive (and
//     passes) when the recomputed mean moves by more than the tolerance, and
//     not sensitive when it still holds or when no shown record supports it
//     (a fabricated fact). A bias fact is sensitive when the history shows
//     its field at all;
//   - review: groups the pool by fact key (field and scope; bias facts by
//     field) and adopts every group with at least Support proposals:
//     pattern facts into user_exp (pooling the counts and sums of the
//     group's proposals: an observation confirmed in k practice rounds
//     carries the evidence of all k), bias facts into model_exp (the mean signed shift, so
//     opposite errors cancel),
//     each replacing an entry with the same key; the rest of the pool is
//     kept verbatim. The answer is a short summary and the complete memory
//     as a fenced JSON block.
const (
	PraMemMinSupport   = 3
	PraMemMinDeviation = 0.2
	PraMemMaxFacts     = 3
	// ratingDeviation is PraMemMinDeviation for multi_class fields (rating
	// units).
	ratingDeviation = 0.5
	// PraMemBiasStep is the size of one proposed bias shift: the review
	// averages the signed steps of a field, so the adopted shift says how
	// much more often the reader missed than over-predicted.
	PraMemBiasStep = 0.1
)

// SimReaders are the embedded backbone's readers of PraMem's construction
// calls (one per stage hint); its predictions go through the prediction
// path's hint.Predict, read by predict.SimReaders.
func SimReaders() []sim.Reader {
	return []sim.Reader{
		sim.ReaderFor(func(s *sim.Sim, req llm.Request, h PraMemTrial) (string, error) {
			return pramemTrial(s, req.Purpose, h)
		}),
		sim.ReaderFor(func(s *sim.Sim, req llm.Request, h PraMemReflect) (string, error) {
			return pramemReflect(s, req.Purpose, h)
		}),
		sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h PraMemScenes) (string, error) { return pramemScenes(h), nil }),
		sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h PraMemGeneralize) (string, error) { return pramemGeneralize(h), nil }),
		sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h PraMemPerturb) (string, error) { return pramemPerturb(h), nil }),
		sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h PraMemPerturbJudge) (string, error) {
			return pramemPerturbJudge(h), nil
		}),
		sim.ReaderFor(func(_ *sim.Sim, _ llm.Request, h PraMemReview) (string, error) { return pramemReview(h) }),
	}
}

// taskPredict is the predict view of one practice question.
func taskPredict(t PraMemTask, q PraMemQuestion, memory string) hint.Predict {
	return hint.Predict{Field: q.Field, Kind: q.Kind, Classes: q.Classes, Visible: t.Visible, Target: t.Target, Memory: memory}
}

func pramemTrial(s *sim.Sim, purpose string, h PraMemTrial) (string, error) {
	memory := h.Memory
	if h.Direct {
		memory = ""
	}
	facts := sim.ParseFacts(memory)
	var b strings.Builder
	for i, q := range h.Task.Questions {
		a, err := s.Predict(purpose, taskPredict(h.Task, q, memory))
		if err != nil {
			return "", err
		}
		if !h.Direct {
			pat, cal := relevantFacts(facts, q.Field, h.Task.Target)
			fmt.Fprintf(&b, "Task %d [%s]: %d relevant pattern entries, %d relevant calibration entries; visible records of this scene: %d.\n",
				i+1, q.Field, pat, cal, len(sceneRecords(h.Task.Visible, h.Task.Target.Scene, q.Field)))
		}
		fmt.Fprintf(&b, "Prediction [%s]: %s\n", q.Field, a.Label)
	}
	return b.String(), nil
}

func relevantFacts(facts []sim.Fact, field string, target hint.Event) (pattern, calibration int) {
	for _, f := range facts {
		switch {
		case f.Field != field:
		case f.Bias:
			calibration++
		case f.Holds(target):
			pattern++
		}
	}
	return pattern, calibration
}

var trialLine = lazyre.New(`(?m)^\s*Prediction \[([^\]]+)\]:\s*(\S+)\s*$`)

// trialLabels reads the labels a trial text states.
func trialLabels(text string) map[string]string {
	out := map[string]string{}
	for _, m := range trialLine.FindAllStringSubmatch(text, -1) {
		out[m[1]] = m[2]
	}
	return out
}

func pramemReflect(s *sim.Sim, purpose string, h PraMemReflect) (string, error) {
	stated := trialLabels(h.Trial)
	var b strings.Builder
	var proposals, hasty []string
	var right []string // the fields answered correctly
	for i, q := range h.Task.Questions {
		truth, ok := h.Label[q.Field]
		if !ok {
			continue
		}
		label, ok := stated[q.Field]
		if !ok {
			a, err := s.Predict(purpose, taskPredict(h.Task, q, h.Memory))
			if err != nil {
				return "", err
			}
			label = a.Label
		}
		pred, ok := labelValue(q, label)
		if ok && math.Abs(pred-truth) < 1e-9 {
			fmt.Fprintf(&b, "Task %d [%s]: predicted %s, correct.\n", i+1, q.Field, label)
			right = append(right, q.Field)
			continue
		}
		fmt.Fprintf(&b, "Task %d [%s]: predicted %s, the answer is %s: deviation.\n", i+1, q.Field, label, strconv.FormatFloat(truth, 'f', -1, 64))
		var lines []string
		if !h.Direct {
			for _, f := range deviatingFacts(h.Task, q, truth, pred) {
				lines = append(lines, proposalLine(h.Task.Target.Scene, "add Pattern", f))
			}
		}
		if len(lines) == 0 && q.Kind == "binary" {
			shift := PraMemBiasStep
			if truth < 0.5 {
				shift = -shift
			}
			lines = append(lines, proposalLine(h.Task.Target.Scene, "add Calibration", sim.Fact{Field: q.Field, Bias: true, Shift: shift}))
		}
		proposals = append(proposals, lines...)
		if !h.Direct {
			for _, f := range hastyFacts(h.Task, q, truth) {
				hasty = append(hasty, proposalLine(h.Task.Target.Scene, "add Pattern", f))
			}
		}
	}
	if !h.Direct {
		// The reader re-studies the scene's history after every practice
		// question and writes down its strongest habits, so that they
		// survive when a later window no longer shows them: after a
		// mistake the PraMemMaxHabits strongest; for each question answered
		// correctly the strongest habit of its field the memory does not
		// hold yet (PraMemCorrectHabits), the scene's own decided rate
		// (sceneBaseRates) when no value stands out.
		// Noting habits only after mistakes left most memories empty on
		// skewed fields, where the reader is rarely wrong.
		habits := sceneHabits(h.Task)
		if len(proposals) > 0 {
			for _, f := range habits[:min(len(habits), PraMemMaxHabits)] {
				if line := proposalLine(h.Task.Target.Scene, "add Pattern", f); !slices.Contains(proposals, line) {
					proposals = append(proposals, line)
				}
			}
		}
		base := sceneBaseRates(h.Task)
		for _, field := range right {
			noted := 0
			for _, f := range append(slices.Clone(habits), base...) {
				if noted >= PraMemCorrectHabits {
					break
				}
				if f.Field != field {
					continue
				}
				line := proposalLine(h.Task.Target.Scene, "add Pattern", f)
				if k, _, _ := reviewKey(line); memoryHas(h.Memory, k) || slices.Contains(proposals, line) {
					continue
				}
				proposals = append(proposals, line)
				noted++
			}
		}
	}
	proposals = slices.DeleteFunc(proposals, func(p string) bool {
		k, _, ok := reviewKey(p)
		return ok && !strings.HasPrefix(k, "bias:") && memoryHas(h.Memory, k)
	})
	if h.N > 0 && len(proposals) > h.N {
		proposals = proposals[:h.N]
	}
	if !h.Direct {
		// Room left: the reader also writes down what the missed case
		// itself suggests, a fact resting on that one case. These are the
		// proposals the self-review exists to catch.
		for _, p := range hasty {
			if h.N > 0 && len(proposals) >= h.N {
				break
			}
			if !slices.Contains(proposals, p) {
				proposals = append(proposals, p)
			}
		}
	}
	if len(proposals) == 0 {
		b.WriteString("No proposals this round.\n")
		return b.String(), nil
	}
	for _, p := range proposals {
		b.WriteString(p + "\n")
	}
	return b.String(), nil
}

// labelValue values a stated label: Yes/No as 1/0, a class as its number.
func labelValue(q PraMemQuestion, label string) (float64, bool) {
	if q.Kind == "binary" {
		switch strings.ToLower(label) {
		case "yes":
			return 1, true
		case "no":
			return 0, true
		}
		return 0, false
	}
	vals := sim.ClassValues(q.Classes)
	for i, c := range q.Classes {
		if c == label {
			return vals[i], true
		}
	}
	return 0, false
}

func proposalLine(scene, kind string, f sim.Fact) string {
	if scene == "" {
		scene = "all"
	}
	return "【提议】 " + scene + " | " + kind + " | " + factLine(f)
}

// factLine renders f with an explicit sign on bias shifts.
func factLine(f sim.Fact) string {
	if f.Bias {
		return "- [" + f.Field + "] bias: shift " + signed(f.Shift)
	}
	return f.String()
}

func signed(x float64) string {
	x = math.Round(x*100) / 100
	if x == 0 {
		x = 0 // no "-0.00"
	}
	s := strconv.FormatFloat(x, 'f', 2, 64)
	if x >= 0 {
		return "+" + s
	}
	return s
}

// sceneRecords returns the visible records of scene carrying field.
func sceneRecords(visible []hint.Event, scene, field string) []hint.Event {
	var out []hint.Event
	for _, e := range visible {
		if _, ok := e.Outcomes[field]; !ok {
			continue
		}
		if scene != "" && e.Scene != "" && e.Scene != scene {
			continue
		}
		out = append(out, e)
	}
	return out
}

// hastyFacts generalise from the missed practice case alone: its answer
// is counted as a record of a condition on one of its attribute values. Two
// such facts at most: one on an entity the scene names and its visible
// history shows (the generalizability review rejects it: virtual scenes
// replace entities; the groundedness review passes it), and
// one on a category value the scene's visible history never shows (the
// groundedness review rejects it: no shown record supports it).
func hastyFacts(t PraMemTask, q PraMemQuestion, truth float64) []sim.Fact {
	recs := sceneRecords(t.Visible, t.Target.Scene, q.Field)
	shown := func(k, v string) (n int, sum float64) {
		for _, e := range recs {
			if sim.HasValue(e.Attrs[k], v) {
				n++
				sum += e.Outcomes[q.Field]
			}
		}
		return n, sum
	}
	var entity, unseen *sim.Fact
	for _, k := range sortedAttrKeys(t.Target.Attrs) {
		for _, v := range sim.AttrValues(t.Target.Attrs[k]) {
			n, sum := shown(k, v)
			switch {
			case entityKey(k) && entity == nil && n > 0 && len([]rune(v)) >= 2:
				// The records that show the entity, plus the case.
				entity = &sim.Fact{Field: q.Field, Conds: []sim.Cond{{Key: k, Value: v}}, Mean: (sum + truth) / float64(n+1), Count: n + 1, Sum: sum + truth}
			case !entityKey(k) && unseen == nil && n == 0:
				unseen = &sim.Fact{Field: q.Field, Conds: []sim.Cond{{Key: k, Value: v}}, Mean: truth, Count: 1, Sum: truth}
			}
		}
	}
	var out []sim.Fact
	for _, f := range []*sim.Fact{entity, unseen} {
		if f != nil {
			out = append(out, *f)
		}
	}
	return out
}

// deviatingFacts are facts about the target's attribute values whose rate
// over the visible records of its scene departs from the scene's base rate
// towards the true answer.
func deviatingFacts(t PraMemTask, q PraMemQuestion, truth, pred float64) []sim.Fact {
	recs := sceneRecords(t.Visible, t.Target.Scene, q.Field)
	if len(recs) == 0 {
		return nil
	}
	var base float64
	for _, e := range recs {
		base += e.Outcomes[q.Field]
	}
	base /= float64(len(recs))
	minDev := PraMemMinDeviation
	if q.Kind != "binary" {
		minDev = ratingDeviation
	}
	want := truth - pred // the direction the estimate must move
	if q.Kind == "binary" {
		want = truth - 0.5
	}
	type cand struct {
		f     sim.Fact
		score float64
	}
	var cands []cand
	for _, k := range sortedAttrKeys(t.Target.Attrs) {
		for _, v := range sim.AttrValues(t.Target.Attrs[k]) {
			var n int
			var sum float64
			for _, e := range recs {
				if sim.HasValue(e.Attrs[k], v) {
					n++
					sum += e.Outcomes[q.Field]
				}
			}
			if n < PraMemMinSupport {
				continue
			}
			mean := sum / float64(n)
			dev := mean - base
			if math.Abs(dev) < minDev || dev*want <= 0 {
				continue
			}
			cands = append(cands, cand{
				f:     sim.Fact{Field: q.Field, Conds: []sim.Cond{{Key: k, Value: v}}, Mean: mean, Count: n, Sum: sum},
				score: math.Abs(dev) * math.Sqrt(float64(n)),
			})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	out := make([]sim.Fact, 0, PraMemMaxFacts)
	for _, c := range cands[:min(len(cands), PraMemMaxFacts)] {
		out = append(out, c.f)
	}
	return out
}

func sortedAttrKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// entityKey reports whether an attribute names an entity (a product, a
// title, an ID) rather than a category; virtual scenes replace entities.
func entityKey(k string) bool {
	k = strings.ToLower(k)
	return k == "product" || k == "items" || k == "id" || k == "title" ||
		strings.HasSuffix(k, "_id") || strings.HasSuffix(k, "_name") || strings.HasSuffix(k, "title")
}

func pramemScenes(h PraMemScenes) string {
	var ents []string
	for _, k := range sortedAttrKeys(h.Real.Attrs) {
		if !entityKey(k) {
			continue
		}
		for _, v := range sim.AttrValues(h.Real.Attrs[k]) {
			if len([]rune(v)) >= 2 && strings.Contains(h.RealText, v) {
				ents = append(ents, v)
			}
		}
	}
	// Longest first, so a value containing another is replaced whole.
	slices.SortStableFunc(ents, func(a, b string) int { return len(b) - len(a) })
	scenes := make([]string, max(h.M, 0))
	for j := range scenes {
		text := h.RealText
		for e, v := range ents {
			text = strings.ReplaceAll(text, v, fmt.Sprintf("虚构实体%d-%d", e+1, j+1))
		}
		scenes[j] = text
	}
	return "Virtual scenes with the key entities replaced:\n" + fenced(scenes)
}

// fenced renders v as a ```json block without HTML escaping.
func fenced(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v) // the sim encodes only strings, bools and ints
	return "```json\n" + strings.TrimRight(buf.String(), "\n") + "\n```\n"
}

// proposalFact parses the fact of a proposal: its last '|' field.
func proposalFact(p string) (sim.Fact, bool) {
	if i := strings.LastIndex(p, "|"); i >= 0 {
		p = p[i+1:]
	}
	return sim.ParseFact(strings.TrimSpace(p))
}

type generalization struct {
	Idx    int    `json:"proposal_idx"`
	Passed bool   `json:"generalization_passed"`
	Reason string `json:"reason"`
}

func pramemGeneralize(h PraMemGeneralize) string {
	out := make([]generalization, len(h.Proposals))
	for i, p := range h.Proposals {
		out[i] = generalization{Idx: i, Passed: true, Reason: "its condition fits the virtual scenes as well"}
		f, ok := proposalFact(p)
		if !ok || f.Bias || len(h.Options) == 0 {
			continue
		}
		for _, c := range f.Conds {
			if c.Key == "scene" || !strings.Contains(h.Options[0], c.Value) {
				continue
			}
			unique := true
			for _, o := range h.Options[1:] {
				if strings.Contains(o, c.Value) {
					unique = false
					break
				}
			}
			if unique {
				out[i] = generalization{Idx: i, Passed: false, Reason: c.Key + "=" + c.Value + " appears only in option A"}
				break
			}
		}
	}
	return "Judgement per proposal:\n" + fenced(out)
}

type perturbation struct {
	Desc    string `json:"perturbation_desc"`
	Details string `json:"perturbation_details"`
}

func pramemPerturb(h PraMemPerturb) string {
	plans := make([]perturbation, max(h.N, 1))
	for i := range plans {
		plans[i] = perturbation{
			Desc:    "Flip every reaction of the history",
			Details: "Every positive interaction becomes none and every absent one becomes positive (like <-> no like, purchase <-> abandon); ratings are mirrored on the scale.",
		}
	}
	return fenced(plans)
}

type sensitivity struct {
	Idx       int    `json:"proposal_idx"`
	Sensitive bool   `json:"is_sensitive"`
	Reason    string `json:"reason"`
}

// flipOutcome mirrors one outcome: 0/1 labels flip, 1..5 ratings mirror.
func flipOutcome(y float64) float64 {
	if y >= 0 && y <= 1 {
		return 1 - y
	}
	return 6 - y
}

func pramemPerturbJudge(h PraMemPerturbJudge) string {
	out := make([]sensitivity, len(h.Proposals))
	for i, p := range h.Proposals {
		out[i] = sensitivity{Idx: i, Sensitive: true, Reason: "not a fact the history can recompute"}
		f, ok := proposalFact(p)
		if !ok {
			continue
		}
		var n int
		var sum float64
		for _, e := range h.History {
			y, ok := e.Outcomes[f.Field]
			if !ok || (!f.Bias && !f.Holds(e)) {
				continue
			}
			n++
			sum += flipOutcome(y)
		}
		switch {
		case n == 0:
			out[i] = sensitivity{Idx: i, Sensitive: false, Reason: "no shown record supports it; it holds whatever the reactions"}
		case f.Bias:
			out[i] = sensitivity{Idx: i, Sensitive: true, Reason: "the calibration rests on the shown reactions"}
		default:
			tol := PraMemMinDeviation / 2
			if math.Abs(f.Mean) > 1 {
				tol = ratingDeviation
			}
			mean := sum / float64(n)
			if math.Abs(mean-f.Mean) > tol {
				out[i] = sensitivity{Idx: i, Sensitive: true, Reason: fmt.Sprintf("mean becomes %.2f after the flip", mean)}
			} else {
				out[i] = sensitivity{Idx: i, Sensitive: false, Reason: fmt.Sprintf("mean stays %.2f after the flip", mean)}
			}
		}
	}
	return "Judgement per proposal:\n" + fenced(out)
}

// reviewKey groups proposals that state the same observation.
func reviewKey(p string) (string, sim.Fact, bool) {
	f, ok := proposalFact(p)
	if !ok {
		return "text:" + strings.TrimSpace(p), sim.Fact{}, false
	}
	if f.Bias {
		return "bias:" + f.Field, f, true
	}
	return "fact:" + f.Field + ":" + sim.Scope(f.Conds), f, true
}

// entryKey is reviewKey for a memory entry (a bare fact line).
func entryKey(e string) string {
	k, _, _ := reviewKey(e)
	return k
}

type reviewMemory struct {
	UserExp  []string `json:"user_exp"`
	ModelExp []string `json:"model_exp"`
	Proposal []string `json:"proposal"`
}

func pramemReview(h PraMemReview) (string, error) {
	support := h.Support
	if support <= 0 {
		support = PraMemMinSupport
	}
	type group struct {
		facts []sim.Fact
		n     int
		fact  bool
	}
	groups := map[string]*group{}
	var order []string
	for _, p := range h.Proposal {
		k, f, ok := reviewKey(p)
		g, seen := groups[k]
		if !seen {
			g = &group{fact: ok}
			groups[k] = g
			order = append(order, k)
		}
		g.n++
		if ok {
			g.facts = append(g.facts, f)
		}
	}
	mem := reviewMemory{UserExp: slices.Clone(h.UserExp), ModelExp: slices.Clone(h.ModelExp), Proposal: []string{}}
	if mem.UserExp == nil {
		mem.UserExp = []string{}
	}
	if mem.ModelExp == nil {
		mem.ModelExp = []string{}
	}
	adopted := 0
	for _, k := range order {
		g := groups[k]
		if g.n < support || !g.fact {
			continue
		}
		adopted++
		f := mergeFacts(g.facts)
		line := factLine(f)
		if f.Bias {
			mem.ModelExp = upsert(mem.ModelExp, k, line)
		} else {
			mem.UserExp = upsert(mem.UserExp, k, line)
		}
	}
	for _, p := range h.Proposal {
		k, _, _ := reviewKey(p)
		if g := groups[k]; g.n < support || !g.fact {
			mem.Proposal = append(mem.Proposal, p)
		}
	}
	head := fmt.Sprintf("Decision: %d observation(s) reached %d supporting proposals and were written to memory; %d proposal(s) stay in the pool.\n",
		adopted, support, len(mem.Proposal))
	return head + fenced(mem), nil
}

// mergeFacts combines the proposals of one group: bias shifts average;
// pattern facts average their means over the largest count seen.
func mergeFacts(fs []sim.Fact) sim.Fact {
	out := fs[len(fs)-1]
	if out.Bias {
		var s float64
		for _, f := range fs {
			s += f.Shift
		}
		out.Shift = math.Round(s/float64(len(fs))*100) / 100
		return out
	}
	var sum float64
	count := 0
	for _, f := range fs {
		sum += f.Sum
		count += f.Count
	}
	out.Count, out.Sum = count, math.Round(sum*100)/100
	out.Mean = out.Sum / float64(count)
	return out
}

// upsert replaces the entry with key k, or appends line.
func upsert(entries []string, k, line string) []string {
	for i, e := range entries {
		if entryKey(e) == k {
			entries[i] = line
			return entries
		}
	}
	return append(entries, line)
}

// memoryHas reports whether the memory already holds an entry with key k.
func memoryHas(memory, k string) bool {
	for line := range strings.Lines(memory) {
		if entryKey(strings.TrimSpace(line)) == k {
			return true
		}
	}
	return false
}

// PraMemHabitDeviation is how far above its scene's base rate a value's
// rate must be to count as a habit (binary fields; ratings use
// 2×ratingDeviation); PraMemMaxHabits bounds the habits proposed after
// one mistake, PraMemCorrectHabits those per question answered correctly;
// a binary rate within PraMemDecidedRate of 0 or 1 is decided.
const (
	PraMemHabitDeviation = 0.4
	PraMemMaxHabits      = 2
	PraMemCorrectHabits  = 1
	PraMemDecidedRate    = 0.2
)

// sceneBaseRates are the binary fields of the task whose rate over the
// visible records of the target's scene is decided (within
// PraMemDecidedRate of 0 or 1, over at least PraMemMinSupport records),
// as facts on the scene: "this user almost never comments on an ad" is
// what a reader who answered right on a skewed field has learnt.
func sceneBaseRates(t PraMemTask) []sim.Fact {
	if t.Target.Scene == "" {
		return nil
	}
	var out []sim.Fact
	for _, q := range t.Questions {
		if q.Kind != "binary" {
			continue
		}
		recs := sceneRecords(t.Visible, t.Target.Scene, q.Field)
		if len(recs) < PraMemMinSupport {
			continue
		}
		var sum float64
		for _, e := range recs {
			sum += e.Outcomes[q.Field]
		}
		mean := sum / float64(len(recs))
		if mean > PraMemDecidedRate && mean < 1-PraMemDecidedRate {
			continue
		}
		out = append(out, sim.Fact{Field: q.Field, Conds: []sim.Cond{{Key: "scene", Value: t.Target.Scene}}, Mean: mean, Count: len(recs), Sum: sum})
	}
	return out
}

// sceneHabits are the strongest habits in the visible records of the
// target's scene over the task's fields: attribute values (of any record,
// not only the target's) whose rate exceeds the rate of the scene's other
// records by at least PraMemHabitDeviation, backed by PraMemMinSupport
// records; every such habit, strongest first.
func sceneHabits(t PraMemTask) []sim.Fact {
	type cand struct {
		f     sim.Fact
		score float64
	}
	var cands []cand
	for _, q := range t.Questions {
		recs := sceneRecords(t.Visible, t.Target.Scene, q.Field)
		if len(recs) == 0 {
			continue
		}
		var total float64
		type acc struct {
			n   int
			sum float64
		}
		byVal := map[sim.Cond]*acc{}
		var order []sim.Cond
		for _, e := range recs {
			y := e.Outcomes[q.Field]
			total += y
			for _, k := range sortedAttrKeys(e.Attrs) {
				for _, v := range sim.AttrValues(e.Attrs[k]) {
					c := sim.Cond{Key: k, Value: v}
					a, ok := byVal[c]
					if !ok {
						a = &acc{}
						byVal[c] = a
						order = append(order, c)
					}
					a.n++
					a.sum += y
				}
			}
		}
		minDev := PraMemHabitDeviation
		if q.Kind != "binary" {
			minDev = 2 * ratingDeviation
		}
		for _, c := range order {
			a := byVal[c]
			if a.n < PraMemMinSupport || a.n == len(recs) {
				continue
			}
			// Contrast with the scene's other records: where a habit
			// dominates the window, the base rate is mostly the habit.
			mean := a.sum / float64(a.n)
			dev := mean - (total-a.sum)/float64(len(recs)-a.n)
			if q.Kind == "binary" && dev < minDev || q.Kind != "binary" && math.Abs(dev) < minDev {
				continue
			}
			cands = append(cands, cand{
				f:     sim.Fact{Field: q.Field, Conds: []sim.Cond{c}, Mean: mean, Count: a.n, Sum: a.sum},
				score: math.Abs(dev) * math.Sqrt(float64(a.n)),
			})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	out := make([]sim.Fact, 0, len(cands))
	for _, c := range cands {
		out = append(out, c.f)
	}
	return out
}
