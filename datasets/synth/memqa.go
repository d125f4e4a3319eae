package synth

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/internal/atomicfile"
)

// MemQAVersion changes whenever the conversational-memory generators'
// output for a given config changes; callers that cache generated files key
// them on it.
const MemQAVersion = 1

// LoCoMoConfig sizes the synthetic LoCoMo data. The zero value is the
// embedded default: 2 conversations of 12 sessions, 15 questions each.
type LoCoMoConfig struct {
	Conversations int    // default 2; each adds 15 questions
	Sessions      int    // sessions per conversation, default 12, at least 6
	SmallTalk     int    // small-talk turns per session besides the planted ones, default 6
	Seed          uint64 // the same config gives the same data, byte for byte
}

func (c LoCoMoConfig) withDefaults() (LoCoMoConfig, error) {
	if c.Conversations == 0 {
		c.Conversations = 2
	}
	if c.Sessions == 0 {
		c.Sessions = 12
	}
	if c.SmallTalk == 0 {
		c.SmallTalk = 6
	}
	if c.Conversations < 0 || c.Sessions < 6 || c.SmallTalk < 0 {
		return c, fmt.Errorf("synth: LoCoMo config %+v: want conversations >= 1, sessions >= 6, small talk >= 0", c)
	}
	return c, nil
}

// seeded is the generator's random source for one named part, from the
// part's id and the seed, so parts do not shift when others are added.
func seeded(id string, seed uint64) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(id))
	return rand.New(rand.NewPCG(h.Sum64(), seed))
}

// GenerateLoCoMo builds synthetic conversations in LoCoMo's model. Each
// conversation plants, across its sessions, facts of both speakers that
// are updated or corrected later (the latest value is the answer), facts
// spread over two sessions (multi-hop answers joined by commas), dated
// events told relative to the session's date, habits to infer from, a fact
// shown only in a shared photo's caption, and adversarial questions that
// ask one speaker about the other's facts. See docs/DESIGN_NOTES.md.
func GenerateLoCoMo(cfg LoCoMoConfig) (memqa.Dataset, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return memqa.Dataset{}, err
	}
	ds := memqa.Dataset{Benchmark: memqa.LoCoMo}
	for i := range cfg.Conversations {
		id := "syn-" + strconv.Itoa(i+1)
		ds.Conversations = append(ds.Conversations, locomoConversation(id, cfg, seeded("locomo/"+id, cfg.Seed)))
	}
	return ds, nil
}

// WriteLoCoMo generates the data and writes it to dir/locomo10.json.
func WriteLoCoMo(dir string, cfg LoCoMoConfig) error {
	ds, err := GenerateLoCoMo(cfg)
	if err != nil {
		return err
	}
	return writeMemQA(filepath.Join(dir, memqa.LoCoMoFile), ds, memqa.EncodeLoCoMo)
}

func writeMemQA(path string, ds memqa.Dataset, encode func(io.Writer, memqa.Dataset) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	var b bytes.Buffer
	if err := encode(&b, ds); err != nil {
		return fmt.Errorf("synth: %s: %w", path, err)
	}
	return atomicfile.Write(path, b.Bytes())
}

// plant is a message placed in a session; its dia_id is known once the
// session is laid out.
type plant struct {
	session int
	speaker string
	text    string
	image   *memqa.Image
	// follows: said right after the plant before it, in reply to it (no
	// small talk or acknowledgement between).
	follows bool
	diaID   string
}

type locomoPlan struct {
	rng    *rand.Rand
	n      int
	plants []*plant
}

func (p *locomoPlan) put(session int, speaker, text string) *plant {
	pl := &plant{session: session, speaker: speaker, text: text}
	p.plants = append(p.plants, pl)
	return pl
}

// early, middle and late pick a session in the first, middle or last
// third, so a window of recent sessions loses the early facts.
func (p *locomoPlan) early() int  { return p.rng.IntN(max(1, p.n/3)) }
func (p *locomoPlan) middle() int { return p.n/3 + p.rng.IntN(max(1, p.n/3)) }
func (p *locomoPlan) late() int   { return p.n - 1 - p.rng.IntN(max(1, p.n/3)) }

// locomoDate writes a session's date as LoCoMo does: "1:56 pm on 8 May, 2023".
func locomoDate(t time.Time) string { return t.Format(memqa.LoCoMoDateLayout) }

// locomoDay writes a day as LoCoMo's answers do: "7 May 2023".
func locomoDay(t time.Time) string { return fmt.Sprintf("%d %s %d", t.Day(), t.Month(), t.Year()) }

func choose[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// distinct returns k distinct elements of xs in random order.
func distinct[T any](r *rand.Rand, xs []T, k int) []T {
	out := make([]T, 0, k)
	for _, i := range r.Perm(len(xs))[:k] {
		out = append(out, xs[i])
	}
	return out
}

func locomoConversation(id string, cfg LoCoMoConfig, r *rand.Rand) memqa.Conversation {
	names := distinct(r, memqaNames, 2)
	a, b := names[0], names[1]
	p := &locomoPlan{rng: r, n: cfg.Sessions}
	dates := make([]time.Time, cfg.Sessions)
	t := time.Date(2023, time.January, 2, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(120))
	for i := range dates {
		t = t.AddDate(0, 0, 4+r.IntN(18))
		dates[i] = time.Date(t.Year(), t.Month(), t.Day(), 9+r.IntN(12), r.IntN(60), 0, 0, time.UTC)
	}

	type qa struct {
		q           string
		answer      memqa.Answer
		adversarial memqa.Answer
		category    int
		evidence    []*plant
	}
	var qs []qa
	ask := func(cat int, q string, ans memqa.Answer, ev ...*plant) {
		qs = append(qs, qa{q: q, answer: ans, category: cat, evidence: ev})
	}
	trap := func(q string, ans memqa.Answer, ev ...*plant) {
		qs = append(qs, qa{q: q, adversarial: ans, category: 5, evidence: ev})
	}

	// Single-hop: A changes jobs, B moves and renames a pet; the latest
	// value is the answer. A's craft is shown only in a photo's caption.
	jobs := distinct(r, memqaJobs, 2)
	places := distinct(r, memqaWorkplaces, 2)
	p.put(p.early(), a, fmt.Sprintf("I started a new job, I'm a %s at %s now.", jobs[0], places[0]))
	jobNow := p.put(p.late(), a, fmt.Sprintf("Quick update: I left %s. I'm working as a %s now, at %s.", places[0], jobs[1], places[1]))
	ask(4, fmt.Sprintf("What does %s work as now?", a), memqa.TextAnswer(jobs[1]), jobNow)

	cities := distinct(r, memqaCities, 6) // home, new home, two trips, and the contradiction's pair
	p.put(p.early(), b, fmt.Sprintf("We finally settled in %s, I love the neighbourhood.", cities[0]))
	moved := p.put(p.late(), b, fmt.Sprintf("Big change: we moved to %s last month, the flat is tiny but bright.", cities[1]))
	ask(4, fmt.Sprintf("Where does %s live now?", b), memqa.TextAnswer(cities[1]), moved)

	species := choose(r, memqaSpecies)
	pets := distinct(r, memqaPetNames, 2)
	p.put(p.early(), b, fmt.Sprintf("We adopted a %s and named him %s!", species, pets[0]))
	renamed := p.put(p.middle(), b, fmt.Sprintf("Confession: we renamed the %s. %s never suited him, so now he's %s.", species, pets[0], pets[1]))
	ask(4, fmt.Sprintf("What is the name of %s's %s?", b, species), memqa.TextAnswer(pets[1]), renamed)
	trap(fmt.Sprintf("What is the name of %s's %s?", a, species), memqa.TextAnswer(pets[1]), renamed)

	craft, colour := choose(r, memqaCrafts), choose(r, memqaColours)
	photo := p.put(p.middle(), a, fmt.Sprintf("Look what I made in my %s class!", craft.class))
	photo.image = &memqa.Image{
		Caption: fmt.Sprintf("a photo of a %s %s on a wooden table", colour, craft.thing),
		Query:   fmt.Sprintf("%s handmade %s", colour, craft.thing),
	}
	ask(4, fmt.Sprintf("What colour is the %s %s made in the %s class?", craft.thing, a, craft.class), memqa.TextAnswer(colour), photo)

	// Contradicted: B misremembers where A grew up and A corrects it at
	// once; the correction is the answer, the wrong claim a trap for a
	// memory that stores whatever was said.
	homes := cities[4:6]
	sc := p.middle()
	p.put(sc, b, fmt.Sprintf("You grew up in %s, right? I keep telling people that.", homes[0]))
	fix := p.put(sc, a, fmt.Sprintf("No, I grew up in %s! %s is where my cousins live.", homes[1], homes[0]))
	fix.follows = true
	ask(4, fmt.Sprintf("Where did %s grow up?", a), memqa.TextAnswer(homes[1]), fix)

	// Multi-hop: two sessions each give one part of the answer.
	inst := distinct(r, memqaInstruments, 2)
	i1 := p.put(p.early(), a, fmt.Sprintf("I've started taking %s lessons, my fingers hurt already.", inst[0]))
	i2 := p.put(p.late(), a, fmt.Sprintf("I picked up the %s too, my neighbours must love me.", inst[1]))
	ask(1, fmt.Sprintf("What instruments does %s play?", a), memqa.TextAnswer(inst[0]+", "+inst[1]), i1, i2)
	trap(fmt.Sprintf("What instruments does %s play?", b), memqa.TextAnswer(inst[0]+", "+inst[1]), i1, i2)
	t1 := p.put(p.early(), b, fmt.Sprintf("Just back from a week in %s, I'm still dreaming about it.", cities[2]))
	t2 := p.put(p.middle(), b, fmt.Sprintf("I spent the long weekend in %s, the food was amazing.", cities[3]))
	ask(1, fmt.Sprintf("Which cities has %s travelled to for a holiday?", b), memqa.TextAnswer(cities[2]+", "+cities[3]), t1, t2)

	// Temporal: events told relative to the session's date.
	events := distinct(r, memqaEvents, 2)
	sa := p.middle()
	ea := p.put(sa, a, fmt.Sprintf("I %s yesterday!", events[0].did))
	dayA := dates[sa].AddDate(0, 0, -1)
	ask(2, fmt.Sprintf("When did %s %s?", a, events[0].question), memqa.TextAnswer(locomoDay(dayA)), ea)
	trap(fmt.Sprintf("When did %s %s?", b, events[0].question), memqa.TextAnswer(locomoDay(dayA)), ea)
	sb := p.early()
	eb := p.put(sb, b, fmt.Sprintf("I %s yesterday, what a day.", events[1].did))
	ask(2, fmt.Sprintf("When did %s %s?", b, events[1].question), memqa.TextAnswer(locomoDay(dates[sb].AddDate(0, 0, -1))), eb)
	past := choose(r, memqaPastEvents)
	sp := p.late()
	ep := p.put(sp, b, fmt.Sprintf("I %s last year, still my proudest moment.", past.did))
	ask(2, fmt.Sprintf("In which year did %s %s?", b, past.question), memqa.NumberAnswer(strconv.Itoa(dates[sp].Year()-1)), ep)

	// Open-domain: an inference from a habit.
	inf := distinct(r, memqaInferences, 2)
	for k, who := range []string{a, b} {
		h := p.put(r.IntN(p.n), who, inf[k].says)
		ans := strings.ReplaceAll(inf[k].answer, "%s", who)
		ask(3, fmt.Sprintf(inf[k].question, who), memqa.TextAnswer(ans), h)
	}

	sessions := layOutLoCoMo(p, cfg, dates, a, b)
	c := memqa.Conversation{SampleID: id, SpeakerA: a, SpeakerB: b, Sessions: sessions}
	for i, q := range qs {
		ev := make([]string, 0, len(q.evidence))
		for _, pl := range q.evidence {
			ev = append(ev, pl.diaID)
		}
		c.Questions = append(c.Questions, memqa.Question{
			ID: id + ":" + strconv.Itoa(i), Question: q.q, Answer: q.answer, AdversarialAnswer: q.adversarial,
			Category: q.category, Evidence: ev,
		})
	}
	return c
}

// layOutLoCoMo writes the sessions: small talk with the planted messages
// among it, each answered by the other speaker, the speakers alternating.
func layOutLoCoMo(p *locomoPlan, cfg LoCoMoConfig, dates []time.Time, a, b string) []memqa.Session {
	r := p.rng
	other := func(s string) string {
		if s == a {
			return b
		}
		return a
	}
	var out []memqa.Session
	for si := range p.n {
		s := memqa.Session{ID: "session_" + strconv.Itoa(si+1), Number: si + 1, DateTime: locomoDate(dates[si])}
		last := ""
		say := func(speaker, text string, img *memqa.Image) string {
			if speaker == last {
				s.Turns = append(s.Turns, memqa.Turn{Speaker: other(speaker), Text: choose(r, memqaSmallTalk)})
			}
			id := "D" + strconv.Itoa(si+1) + ":" + strconv.Itoa(len(s.Turns)+1)
			s.Turns = append(s.Turns, memqa.Turn{Speaker: speaker, DiaID: id, Text: text, Image: img})
			last = speaker
			return id
		}
		first := a
		if r.IntN(2) == 1 {
			first = b
		}
		say(first, fmt.Sprintf("Hey %s! Good to hear from you.", other(first)), nil)
		var here []*plant
		for _, pl := range p.plants {
			if pl.session == si {
				here = append(here, pl)
			}
		}
		talk := cfg.SmallTalk
		for k, pl := range here {
			if !pl.follows {
				for range talk / (len(here) + 1) {
					say(other(last), choose(r, memqaSmallTalk), nil)
				}
			}
			pl.diaID = say(pl.speaker, pl.text, pl.image)
			if k+1 == len(here) || !here[k+1].follows {
				say(other(pl.speaker), choose(r, memqaAcks), nil)
			}
		}
		for range talk - len(here)*(talk/(len(here)+1)) {
			say(other(last), choose(r, memqaSmallTalk), nil)
		}
		// Filler inserted to keep the speakers alternating has no id yet.
		for k := range s.Turns {
			s.Turns[k].DiaID = "D" + strconv.Itoa(si+1) + ":" + strconv.Itoa(k+1)
		}
		out = append(out, s)
	}
	return out
}
