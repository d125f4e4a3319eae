package memqa

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/memharness/memharness/internal/lazyre"
)

// LoCoMoFile is the file name of the LoCoMo release.
const LoCoMoFile = "locomo10.json"

// locomoAnnotations are the per-conversation fields kept verbatim.
var locomoAnnotations = []string{"event_summary", "observation", "session_summary"}

var sessionKey = lazyre.New(`^session_([1-9][0-9]*)(_date_time)?$`)

// DecodeLoCoMo reads a LoCoMo file (the layout of locomo10.json); name is
// used in errors.
func DecodeLoCoMo(name string, data []byte) (Dataset, error) {
	d := &doc{name: name, data: data}
	root, err := d.root()
	if err != nil {
		return Dataset{}, err
	}
	ds := Dataset{Benchmark: LoCoMo}
	seen := map[string]string{}
	err = root.array(func(_ int, n node) error {
		c, err := decodeLoCoMoSample(n)
		if err != nil {
			return err
		}
		if prev, dup := seen[c.SampleID]; dup {
			return n.errf("sample_id %q already used at %s", c.SampleID, prev)
		}
		seen[c.SampleID] = n.path
		ds.Conversations = append(ds.Conversations, c)
		return nil
	})
	return ds, err
}

func decodeLoCoMoSample(n node) (Conversation, error) {
	var c Conversation
	var conv, qa node
	known := append([]string{"sample_id", "conversation", "qa"}, locomoAnnotations...)
	err := n.object(known, []string{"sample_id", "conversation", "qa"}, func(key string, v node) error {
		var err error
		switch key {
		case "sample_id":
			c.SampleID, err = v.str()
			if err == nil && c.SampleID == "" {
				err = v.errf("empty sample_id")
			}
		case "conversation":
			conv = v
		case "qa":
			qa = v
		default:
			if v.kind() != "an object" {
				return v.errf("want an object, found %s", v.kind())
			}
			if c.Annotations == nil {
				c.Annotations = map[string]json.RawMessage{}
			}
			c.Annotations[key] = v.compact()
		}
		return err
	})
	if err != nil {
		return c, err
	}
	if err := decodeLoCoMoConversation(conv, &c); err != nil {
		return c, err
	}
	err = qa.array(func(i int, v node) error {
		q, err := decodeLoCoMoQA(v)
		q.ID = c.SampleID + ":" + strconv.Itoa(i)
		c.Questions = append(c.Questions, q)
		return err
	})
	return c, err
}

func decodeLoCoMoConversation(n node, c *Conversation) error {
	type partial struct {
		date, turns   node
		hasDate, hasT bool
	}
	sessions := map[int]*partial{}
	seen := map[string]bool{}
	err := n.children('{', func(key string, v node) error {
		if seen[key] {
			return v.errf("field %q given twice", key)
		}
		seen[key] = true
		var err error
		switch key {
		case "speaker_a":
			c.SpeakerA, err = v.str()
			return err
		case "speaker_b":
			c.SpeakerB, err = v.str()
			return err
		}
		m := sessionKey.FindStringSubmatch(key)
		if m == nil {
			return v.errf("unknown field %q (known: speaker_a, speaker_b, session_N, session_N_date_time)", key)
		}
		num, _ := strconv.Atoi(m[1])
		p := sessions[num]
		if p == nil {
			p = &partial{}
			sessions[num] = p
		}
		if m[2] != "" {
			p.date, p.hasDate = v, true
		} else {
			p.turns, p.hasT = v, true
		}
		return nil
	})
	if err != nil {
		return err
	}
	if c.SpeakerA == "" || c.SpeakerB == "" {
		return n.errf("missing or empty field speaker_a or speaker_b")
	}
	nums := make([]int, 0, len(sessions))
	for k := range sessions {
		nums = append(nums, k)
	}
	slices.Sort(nums)
	for _, num := range nums {
		p := sessions[num]
		s := Session{ID: "session_" + strconv.Itoa(num), Number: num}
		if !p.hasDate {
			return p.turns.errf("session_%d has no session_%d_date_time", num, num)
		}
		if s.DateTime, err = p.date.str(); err != nil {
			return err
		}
		if !p.hasT {
			s.DateOnly = true
			c.Sessions = append(c.Sessions, s)
			continue
		}
		err := p.turns.array(func(_ int, v node) error {
			t, err := decodeLoCoMoTurn(v)
			s.Turns = append(s.Turns, t)
			return err
		})
		if err != nil {
			return err
		}
		if s.Turns == nil {
			s.Turns = []Turn{}
		}
		c.Sessions = append(c.Sessions, s)
	}
	return nil
}

func decodeLoCoMoTurn(n node) (Turn, error) {
	var t Turn
	var img Image
	hasImg := false
	known := []string{"speaker", "dia_id", "text", "img_url", "blip_caption", "query", "re-download"}
	err := n.object(known, []string{"speaker", "dia_id", "text"}, func(key string, v node) error {
		var err error
		switch key {
		case "speaker":
			t.Speaker, err = v.str()
		case "dia_id":
			t.DiaID, err = v.str()
		case "text":
			t.Text, err = v.str()
		case "img_url":
			img.URLs, err = v.strings()
			hasImg = true
		case "blip_caption":
			img.Caption, err = v.str()
			hasImg = true
		case "query":
			img.Query, err = v.str()
			hasImg = true
		case "re-download":
			img.Redownload, err = v.boolean()
			hasImg = true
		}
		return err
	})
	if hasImg {
		t.Image = &img
	}
	return t, err
}

func decodeLoCoMoQA(n node) (Question, error) {
	var q Question
	hasCat := false
	known := []string{"question", "answer", "adversarial_answer", "evidence", "category"}
	err := n.object(known, []string{"question", "evidence", "category"}, func(key string, v node) error {
		var err error
		switch key {
		case "question":
			q.Question, err = v.str()
		case "answer":
			q.Answer, err = v.answer()
		case "adversarial_answer":
			q.AdversarialAnswer, err = v.answer()
		case "evidence":
			q.Evidence, err = v.strings()
		case "category":
			q.Category, err = v.integer()
			if err == nil {
				if _, ok := CategoryByNumber(q.Category); !ok {
					err = v.errf("category %d is not one of LoCoMo's 1-5", q.Category)
				}
			}
			hasCat = true
		}
		return err
	})
	if err == nil && hasCat && q.Answer.Kind == AnswerNone && q.AdversarialAnswer.Kind == AnswerNone {
		err = n.errf("neither answer nor adversarial_answer is given")
	}
	return q, err
}

// EncodeLoCoMo writes ds in the layout of locomo10.json (field order as the
// release writes it, one space of indentation).
func EncodeLoCoMo(w io.Writer, ds Dataset) error {
	if ds.Benchmark != LoCoMo {
		return fmt.Errorf("encode LoCoMo: dataset is %q", ds.Benchmark)
	}
	samples := make([]ordered, 0, len(ds.Conversations))
	for _, c := range ds.Conversations {
		qa := make([]ordered, 0, len(c.Questions))
		for _, q := range c.Questions {
			o := ordered{{"question", q.Question}}
			if q.Answer.Kind != AnswerNone {
				o = append(o, kv{"answer", answerJSON(q.Answer)})
			}
			ev := q.Evidence
			if ev == nil {
				ev = []string{}
			}
			o = append(o, kv{"evidence", ev}, kv{"category", q.Category})
			if q.AdversarialAnswer.Kind != AnswerNone {
				o = append(o, kv{"adversarial_answer", answerJSON(q.AdversarialAnswer)})
			}
			qa = append(qa, o)
		}
		conv := ordered{{"speaker_a", c.SpeakerA}, {"speaker_b", c.SpeakerB}}
		for _, s := range c.Sessions {
			key := "session_" + strconv.Itoa(s.Number)
			conv = append(conv, kv{key + "_date_time", s.DateTime})
			if s.DateOnly {
				continue
			}
			turns := make([]ordered, 0, len(s.Turns))
			for _, t := range s.Turns {
				o := ordered{{"speaker", t.Speaker}}
				if t.Image != nil {
					if t.Image.URLs != nil {
						o = append(o, kv{"img_url", t.Image.URLs})
					}
					o = append(o, kv{"blip_caption", t.Image.Caption})
					if t.Image.Query != "" {
						o = append(o, kv{"query", t.Image.Query})
					}
					if t.Image.Redownload {
						o = append(o, kv{"re-download", true})
					}
				}
				o = append(o, kv{"dia_id", t.DiaID}, kv{"text", t.Text})
				turns = append(turns, o)
			}
			conv = append(conv, kv{key, turns})
		}
		sample := ordered{{"qa", qa}, {"conversation", conv}}
		for _, k := range locomoAnnotations {
			if v, ok := c.Annotations[k]; ok {
				sample = append(sample, kv{k, v})
			}
		}
		sample = append(sample, kv{"sample_id", c.SampleID})
		samples = append(samples, sample)
	}
	return writeIndented(w, samples)
}

func answerJSON(a Answer) any {
	if a.Kind == AnswerNumber {
		return json.Number(a.Text)
	}
	return a.Text
}

// kv and ordered write a JSON object with its keys in a given order.
type kv struct {
	k string
	v any
}

type ordered []kv

func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(p.k)
		b.Write(k)
		b.WriteByte(':')
		v, err := marshal(p.v)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", p.k, err)
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal is json.Marshal without HTML escaping (the files hold plain text).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func writeIndented(w io.Writer, v any) error {
	raw, err := marshal(v)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", " "); err != nil {
		return err
	}
	b.WriteByte('\n')
	_, err = w.Write(b.Bytes())
	return err
}
