package memstyle

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm/tokens"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/metrics"
)

// perspectives are the views ProEx profiles are induced from, cycled when
// more profiles are asked for than there are views.
var perspectives = []string{"long_term", "recent", "overall"}

// profile is one induced profile and how it validated.
type profile struct {
	Perspective string  `json:"perspective"`
	Records     int     `json:"records"` // records the induction call read
	Text        string  `json:"text"`
	Validated   bool    `json:"validated"`
	Questions   int     `json:"questions"` // held-out questions asked
	Invalid     int     `json:"invalid"`   // of which every draw was unparseable
	Acc         float64 `json:"acc"`       // over valid answers
	F1          float64 `json:"f1"`        // selection score (see score)
}

// proex is the ProEx-style baseline: several profiles are induced from
// different slices of the practice history (the earliest records, the most
// recent ones, a sample across all of it), each is cross-validated by
// predicting held-out practice records with the profile as memory, and the
// best profile is the memory appended after the 8K-history prompt.
//
// The held-out records are the last Holdout practice records that answer a
// question the user is asked (at most a quarter of the practice history);
// profiles are induced from the records before them only. A validation
// question is the evaluation prompt for that record (its history being
// everything before it) with the profile appended, answered by the
// construction model.
type proex struct{ common }

func (m *proex) PrepareUser(ctx context.Context, env predict.Env, u behavior.UserSet) (predict.Memory, error) {
	if len(u.Instances) == 0 {
		return predict.Memory{}, nil
	}
	b, err := m.begin(env, u)
	if err != nil {
		return predict.Memory{}, err
	}
	prac := practice(u)
	fields := userFields(u)
	hold := holdout(prac, fields, m.k.Holdout)
	train := prac
	if len(hold) > 0 {
		train = prac[:hold[0]]
	}
	n := m.k.Profiles
	if len(b.st.Profiles) == 0 {
		b.st.Profiles = make([]profile, n)
		for p := range b.st.Profiles {
			b.st.Profiles[p].Perspective = perspectives[p%len(perspectives)]
		}
	}
	for !b.st.Done && b.st.Step < 2*n {
		if s := b.st.Step; s < n {
			err = m.induce(ctx, b, fields, train, s)
		} else {
			err = m.validate(ctx, b, u, prac, hold, s-n)
		}
		if err != nil {
			return predict.Memory{}, err
		}
		b.st.Step++
		if err := b.save(); err != nil {
			return predict.Memory{}, err
		}
	}
	if !b.st.Done {
		if err := b.finish(); err != nil {
			return predict.Memory{}, err
		}
	}
	best := choose(b.st.Profiles)
	var text string
	var scores []map[string]any
	for i, p := range b.st.Profiles {
		if i == best {
			text = p.Text
		}
		scores = append(scores, map[string]any{"perspective": p.Perspective, "records": p.Records, "questions": p.Questions,
			"invalid": p.Invalid, "acc": p.Acc, "f1": p.F1})
	}
	return b.memory(text, map[string]any{"profiles": scores, "chosen": best, "holdout": len(hold)}), nil
}

// choose returns the profile with the best F1, then accuracy; ties go to
// the earlier profile.
func choose(ps []profile) int {
	best := 0
	for i, p := range ps {
		q := ps[best]
		if c := cmp.Or(cmp.Compare(p.F1, q.F1), cmp.Compare(p.Acc, q.Acc)); c > 0 {
			best = i
		}
	}
	return best
}

// holdout returns the positions (ascending) of the last k practice records
// carrying an outcome of a field the user is asked about, holding out at
// most a quarter of the practice history.
func holdout(prac []behavior.Event, fields []string, k int) []int {
	k = min(k, len(prac)/4)
	var out []int
	for i := len(prac) - 1; i >= 0 && len(out) < k; i-- {
		for _, f := range fields {
			if _, ok := prac[i].Outcomes[f]; ok {
				out = append(out, i)
				break
			}
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// slice returns the records profile p reads: the earliest records that fit
// the budget (long_term), the latest (recent) or every s-th record (overall,
// s chosen so the sample spans the whole history). Round r = p/3 of a view
// shifts it: the r-th block from the start or the end, or stride offset r.
func (m *proex) slice(c tokens.Counter, pr *predict.Prompts, train []behavior.Event, persp string, r int) ([]behavior.Event, error) {
	costs := make([]int, len(train))
	total := 0
	for i, e := range train {
		cost, err := pr.RecordCost(c, e)
		if err != nil {
			return nil, err
		}
		costs[i], total = cost, total+cost
	}
	fit := func(idx []int) []behavior.Event {
		var out []behavior.Event
		used := 0
		for _, i := range idx {
			if used+costs[i] > ProfileRecordTokens {
				break
			}
			used += costs[i]
			out = append(out, train[i])
		}
		return out
	}
	n := len(train)
	if n == 0 {
		return nil, nil
	}
	var idx []int
	switch persp {
	case "long_term":
		first := len(fit(seq(0, n, 1)))
		for i := (r * max(first, 1)) % n; i < n; i++ {
			idx = append(idx, i)
		}
		return fit(idx), nil
	case "recent":
		last := len(fit(seq(n-1, -1, -1)))
		end := n - r*max(last, 1)
		if end <= 0 {
			end = n
		}
		got := fit(seq(end-1, -1, -1))
		for i, j := 0, len(got)-1; i < j; i, j = i+1, j-1 {
			got[i], got[j] = got[j], got[i]
		}
		return got, nil
	default:
		stride := max(1, (total+ProfileRecordTokens-1)/ProfileRecordTokens)
		return fit(seq(r%stride, n, stride)), nil
	}
}

// seq is from, from+step, ... up to (excluding) to.
func seq(from, to, step int) []int {
	var out []int
	for i := from; (step > 0 && i < to) || (step < 0 && i > to); i += step {
		out = append(out, i)
	}
	return out
}

func (m *proex) induce(ctx context.Context, b *build, fields []string, train []behavior.Event, p int) error {
	pr := m.prompts(b.env)
	prof := &b.st.Profiles[p]
	recs, err := m.slice(counter(b.env), pr, train, prof.Perspective, p/len(perspectives))
	if err != nil {
		return fmt.Errorf("method %s: %w", m.name, err)
	}
	rendered, err := pr.Records(recs)
	if err != nil {
		return fmt.Errorf("method %s: %w", m.name, err)
	}
	prompt, err := m.text(b.env).exec("proex_induce", struct {
		Perspective, Records string
		N, MaxFacts          int
	}{prof.Perspective, rendered, len(recs), m.k.MaxFacts})
	if err != nil {
		return err
	}
	h := ProfileInduce{Perspective: prof.Perspective, Fields: fields, Records: hintEvents(recs), MaxFacts: m.k.MaxFacts}
	text, ok, err := b.call(ctx, "proex.induce", fmt.Sprintf("proex/%s/induce/%d", b.user, p), prompt, h,
		func(s string) bool { return cleanProfile(s) != "" })
	if err != nil {
		return err
	}
	prof.Records = len(recs)
	if ok {
		lines := strings.Split(cleanProfile(text), "\n")
		prof.Text = strings.Join(fitLines(counter(b.env), lines, m.memTokens), "\n")
	}
	return nil
}

// cleanProfile is a profile answer without reasoning or blank lines.
func cleanProfile(s string) string {
	var lines []string
	for l := range strings.Lines(predict.StripThink(s)) {
		if l = strings.TrimRight(l, " \t\r\n"); strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// block wraps a profile in the memory block ("" for an empty profile).
func (m *proex) block(env predict.Env, text string) (string, error) {
	if text == "" {
		return "", nil
	}
	return m.text(env).exec("memory_proex", struct{ Profile string }{text})
}

// validate asks every held-out question with profile p as memory and
// scores the answers.
func (m *proex) validate(ctx context.Context, b *build, u behavior.UserSet, prac []behavior.Event, hold []int, p int) error {
	prof := &b.st.Profiles[p]
	block, err := m.block(b.env, prof.Text)
	if err != nil {
		return err
	}
	first := u.Instances[0]
	questions := map[string]behavior.Question{}
	for _, in := range u.Instances {
		if _, ok := questions[in.Question.Field]; !ok {
			questions[in.Question.Field] = in.Question
		}
	}
	var labels, preds, blabels, bpreds, mlabels, mpreds []string
	var classes []string
	for _, j := range hold {
		rec := prac[j]
		for _, f := range userFields(u) {
			y, ok := rec.Outcomes[f]
			if !ok {
				continue
			}
			q := questions[f]
			label, ok := labelOf(q, y)
			if !ok {
				continue
			}
			q.Label = label
			inst := behavior.Instance{
				ID:      fmt.Sprintf("proex/%s/validate/%d/%d/%s", b.user, p, j, f),
				Dataset: first.Dataset, User: b.user, Profile: first.Profile,
				History: prac[:j:j], PracticeCut: j,
				Target:   behavior.Event{Time: rec.Time, Scene: rec.Scene, RawScene: rec.RawScene, Context: rec.Context, Attrs: rec.Attrs},
				Question: q,
			}
			out, err := m.predictWith(ctx, b.env, b.env.Builder(), "proex.validate", inst, block)
			b.st.Calls += out.Calls
			b.st.Usage = b.st.Usage.Add(out.Usage)
			b.st.ModelSeconds += out.Latency.Seconds()
			if err != nil {
				return err
			}
			if !out.Valid {
				prof.Invalid++
			}
			labels, preds = append(labels, label), append(preds, out.Pred)
			if q.Kind == behavior.MultiClass {
				mlabels, mpreds, classes = append(mlabels, label), append(mpreds, out.Pred), q.Classes
			} else {
				blabels, bpreds = append(blabels, label), append(bpreds, out.Pred)
			}
		}
	}
	prof.Validated = true
	prof.Questions = len(labels)
	prof.Acc = finite(metrics.AccuracyValidOnly(labels, preds))
	prof.F1 = score(blabels, bpreds, mlabels, mpreds, classes)
	b.st.Counters["validation_questions"] += len(labels)
	return nil
}

// score is the positive-class F1 pooled over the held-out binary questions
// (the paper's metric; pooled because a few held-out records give each
// field only a handful of questions), or, without binary questions, the
// macro F1 of the rating questions. Invalid answers are left out, as in
// evaluation.
func score(blabels, bpreds, mlabels, mpreds, classes []string) float64 {
	if len(blabels) > 0 {
		l, p := metrics.ValidOnly(blabels, bpreds)
		_, _, f1 := metrics.PRF(metrics.BinaryCounts(l, p, "1"))
		return f1
	}
	if len(mlabels) > 0 && len(classes) > 0 {
		l, p := metrics.ValidOnly(mlabels, mpreds)
		return finite(metrics.MacroF1(metrics.Confusion(l, p, classes)))
	}
	return 0
}

// finite maps NaN (no valid answer) to 0, which JSON can store.
func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// labelOf turns a held-out outcome into the question's label: "1"/"0" for
// binary questions (outcome ≥ 0.5 is yes), the nearest class for ratings.
func labelOf(q behavior.Question, y float64) (string, bool) {
	switch q.Kind {
	case behavior.Binary:
		if y >= 0.5 {
			return "1", true
		}
		return "0", true
	case behavior.MultiClass:
		best, dist := "", math.Inf(1)
		for i, c := range q.Classes {
			v, err := strconv.ParseFloat(c, 64)
			if err != nil {
				v = float64(i + 1)
			}
			if d := math.Abs(v - y); d < dist {
				best, dist = c, d
			}
		}
		return best, best != ""
	}
	return "", false
}

func (m *proex) Predict(ctx context.Context, env predict.Env, mem predict.Memory, inst behavior.Instance) (predict.Outcome, error) {
	block, err := m.block(env, mem.Text)
	if err != nil {
		return predict.Outcome{}, err
	}
	return m.predictWith(ctx, env, env.Model, "predict", inst, block)
}
