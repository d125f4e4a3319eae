package synth

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/memharness/memharness/datasets/memqa"
)

// LongMemEvalConfig sizes the synthetic LongMemEval data. The zero value is
// the embedded default: 3 questions of each of the six question types and
// 4 abstention questions (22 in all), each over a haystack of 10 sessions.
type LongMemEvalConfig struct {
	PerType    int    // questions per question type, default 3
	Abstention int    // abstention questions (ids ending in _abs), default 4
	Sessions   int    // sessions per haystack, default 10, at least 6
	Seed       uint64 // the same config gives the same data, byte for byte
}

func (c LongMemEvalConfig) withDefaults() (LongMemEvalConfig, error) {
	if c.PerType == 0 {
		c.PerType = 3
	}
	if c.Abstention == 0 {
		c.Abstention = 4
	}
	if c.Sessions == 0 {
		c.Sessions = 10
	}
	if c.PerType < 0 || c.Abstention < 0 || c.Sessions < 6 {
		return c, fmt.Errorf("synth: LongMemEval config %+v: want per type >= 1, abstention >= 0, sessions >= 6", c)
	}
	return c, nil
}

// lmeDate writes a date as LongMemEval does: "2023/05/20 (Sat) 02:21".
func lmeDate(t time.Time) string { return t.Format(memqa.LongMemEvalDateLayout) }

// GenerateLongMemEval builds synthetic LongMemEval questions, each with its
// own haystack: evidence sessions written for the question among everyday
// request sessions from a shared pool, dated in order, with has_answer on
// the evidence turns and answer_session_ids naming the evidence sessions.
// Facts sit at random depths of the haystack (an early one is lost to a
// window of recent sessions); a knowledge update puts the old value early
// and the new one late; multi-session counts spread their mentions; an
// abstention question asks a detail of something mentioned that was never
// given.
func GenerateLongMemEval(cfg LongMemEvalConfig) (memqa.Dataset, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return memqa.Dataset{}, err
	}
	pool := lmeFillerPool(max(2*cfg.Sessions, 20), seeded("longmemeval/pool", cfg.Seed))
	ds := memqa.Dataset{Benchmark: memqa.LongMemEval}
	add := func(qtype string, k int, abstain bool) {
		id := lmeID(qtype, k, abstain, cfg.Seed)
		r := seeded("longmemeval/"+id, cfg.Seed)
		ds.Conversations = append(ds.Conversations, lmeQuestion(id, qtype, k, abstain, cfg, pool, r))
	}
	for _, qtype := range memqa.QuestionTypes() {
		for k := range cfg.PerType {
			add(qtype, k, false)
		}
	}
	for k := range cfg.Abstention {
		add(memqaNearMisses[k%len(memqaNearMisses)].qtype, k, true)
	}
	return ds, nil
}

// WriteLongMemEval generates the data and writes it to dir/longmemeval_s.json.
func WriteLongMemEval(dir string, cfg LongMemEvalConfig) error {
	ds, err := GenerateLongMemEval(cfg)
	if err != nil {
		return err
	}
	return writeMemQA(filepath.Join(dir, memqa.LongMemEvalS), ds, memqa.EncodeLongMemEval)
}

// lmeID is a question id in LongMemEval's style (eight hex digits), with
// the abstention suffix where it applies.
func lmeID(qtype string, k int, abstain bool, seed uint64) string {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s/%d/%t/%d", qtype, k, abstain, seed)
	id := fmt.Sprintf("%08x", h.Sum32())
	if abstain {
		id += memqa.AbstentionSuffix
	}
	return id
}

type lmeSession struct {
	id    string
	turns []memqa.Turn
}

// lmeFillerPool is the shared pool of everyday sessions haystacks draw
// from (LongMemEval's come from public chat logs; ours are requests with
// replies written for this project).
func lmeFillerPool(n int, r *rand.Rand) []lmeSession {
	out := make([]lmeSession, n)
	for i := range out {
		var turns []memqa.Turn
		for _, k := range r.Perm(len(memqaRequests))[:2] {
			turns = append(turns,
				memqa.Turn{Speaker: memqa.RoleUser, Text: memqaRequests[k][0]},
				memqa.Turn{Speaker: memqa.RoleAssistant, Text: memqaRequests[k][1]})
		}
		out[i] = lmeSession{id: fmt.Sprintf("filler_%03d", i+1), turns: turns}
	}
	return out
}

// evidence is one evidence session to place: its message, who says it,
// and where in the haystack it should go (0 = start, 1 = end).
type evidence struct {
	speaker string
	text    string
	reply   string // the assistant's answer when the user speaks; the user's request when the assistant does
	depth   float64
}

func lmeQuestion(id, qtype string, k int, abstain bool, cfg LongMemEvalConfig, pool []lmeSession, r *rand.Rand) memqa.Conversation {
	q := memqa.Question{ID: id, Type: qtype}
	var ev []evidence
	user := func(text string, depth float64) evidence {
		return evidence{speaker: memqa.RoleUser, text: text, reply: choose(r, memqaAcksAssistant), depth: depth}
	}
	anywhere := func() float64 { return r.Float64() }
	var temporal func(dates []time.Time, at []int)
	switch {
	case abstain:
		nm := memqaNearMisses[k%len(memqaNearMisses)]
		q.Question, q.Answer = nm.question, memqa.TextAnswer(nm.answer)
		ev = append(ev, user(nm.says, anywhere()))
	case qtype == memqa.SingleSessionUser:
		f := memqaUserFacts[k%len(memqaUserFacts)]
		v := choose(r, f.values)
		q.Question, q.Answer = f.question, memqa.TextAnswer(fmt.Sprintf(f.answer, v))
		ev = append(ev, user(fmt.Sprintf(f.says, v), anywhere()))
	case qtype == memqa.SingleSessionAssistant:
		rec := memqaRecommendations[k%len(memqaRecommendations)]
		q.Question, q.Answer = rec.question, memqa.TextAnswer(rec.answer)
		ev = append(ev, evidence{speaker: memqa.RoleAssistant, text: rec.reply, reply: rec.ask, depth: anywhere()})
	case qtype == memqa.SingleSessionPreference:
		pref := memqaPreferences[k%len(memqaPreferences)]
		q.Question, q.Answer = pref.question, memqa.TextAnswer(pref.answer)
		ev = append(ev, user(pref.says, anywhere()))
	case qtype == memqa.MultiSession:
		c := memqaCountables[k%len(memqaCountables)]
		n := 2 + r.IntN(3)
		q.Question, q.Answer = c.question, memqa.NumberAnswer(strconv.Itoa(n))
		for j := range n {
			ev = append(ev, user(c.mention, (float64(j)+r.Float64())/float64(n)))
		}
	case qtype == memqa.KnowledgeUpdate:
		u := memqaUpdates[k%len(memqaUpdates)]
		v := choose(r, u.values)
		q.Question, q.Answer = u.question, memqa.TextAnswer(v[1])
		ev = append(ev, user(fmt.Sprintf(u.first, v[0]), 0.4*r.Float64()), user(fmt.Sprintf(u.later, v[1]), 0.6+0.4*r.Float64()))
	case qtype == memqa.TemporalReasoning:
		m := memqaMilestones[k%len(memqaMilestones)]
		ev = append(ev, user(m.first, 0.5*r.Float64()), user(m.second, 0.5+0.5*r.Float64()))
		temporal = func(dates []time.Time, at []int) {
			day := func(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC) }
			days := int(day(dates[at[1]]).Sub(day(dates[at[0]])).Hours() / 24)
			q.Question = fmt.Sprintf("How many days passed between %s?", m.between)
			q.Answer = memqa.TextAnswer(fmt.Sprintf("%d days", days))
		}
	}

	// Lay out the haystack: evidence sessions at their depths, distinct
	// pool sessions elsewhere, dates increasing day by day.
	n := max(cfg.Sessions, len(ev)+1)
	slots := make([]int, len(ev)) // haystack position of each evidence session
	used := map[int]bool{}
	for i, e := range ev {
		pos := min(n-1, int(e.depth*float64(n)))
		for used[pos] {
			pos = (pos + 1) % n
		}
		used[pos] = true
		slots[i] = pos
	}
	// Positions must keep the order the evidence was listed in (an update
	// after its first value, the second milestone after the first).
	sorted := slices.Clone(slots)
	slices.Sort(sorted)
	copy(slots, sorted)

	fill := r.Perm(len(pool))
	start := time.Date(2023, time.February, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(200))
	c := memqa.Conversation{SampleID: id, SpeakerA: memqa.RoleUser, SpeakerB: memqa.RoleAssistant}
	dates := make([]time.Time, n)
	t := start
	for pos := range n {
		t = t.AddDate(0, 0, 1+r.IntN(5))
		dates[pos] = time.Date(t.Year(), t.Month(), t.Day(), 7+r.IntN(16), r.IntN(60), 0, 0, time.UTC)
		s := memqa.Session{Number: pos + 1, DateTime: lmeDate(dates[pos])}
		if i := slices.Index(slots, pos); i >= 0 {
			s.ID = fmt.Sprintf("answer_%s_%d", id, i+1)
			s.Turns = lmeEvidenceTurns(ev[i], r)
			q.AnswerSessionIDs = append(q.AnswerSessionIDs, s.ID)
		} else {
			f := pool[fill[pos%len(fill)]]
			s.ID = f.id
			s.Turns = slices.Clone(f.turns)
		}
		c.Sessions = append(c.Sessions, s)
	}
	if temporal != nil {
		temporal(dates, slots)
	}
	q.Date = lmeDate(dates[n-1].AddDate(0, 0, 1+r.IntN(10)))
	c.Questions = []memqa.Question{q}
	return c
}

// lmeEvidenceTurns writes an evidence session: an everyday request and its
// reply, then the evidence message and its answer, marked has_answer.
func lmeEvidenceTurns(e evidence, r *rand.Rand) []memqa.Turn {
	req := choose(r, memqaRequests)
	turns := []memqa.Turn{
		{Speaker: memqa.RoleUser, Text: req[0]},
		{Speaker: memqa.RoleAssistant, Text: req[1]},
	}
	if e.speaker == memqa.RoleAssistant {
		return append(turns,
			memqa.Turn{Speaker: memqa.RoleUser, Text: e.reply},
			memqa.Turn{Speaker: memqa.RoleAssistant, Text: e.text, HasAnswer: true})
	}
	return append(turns,
		memqa.Turn{Speaker: memqa.RoleUser, Text: e.text, HasAnswer: true},
		memqa.Turn{Speaker: memqa.RoleAssistant, Text: e.reply})
}
