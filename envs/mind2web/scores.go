package mind2web

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// scoreTable is the ranks half of scores_all_data, keyed by
// "<annotation_id>_<action_uid>" then backend_node_id. The scores half is
// not needed: the top-k cut uses ranks.
type scoreTable struct {
	Ranks map[string]map[string]float64
}

// readScores streams the optional ScoresFile, keeping only the steps in
// need: the converted file covers every split and runs to hundreds of MB.
// A missing file is nil.
func readScores(fsys fs.FS, label string, need map[string]bool) (*scoreTable, error) {
	f, err := fsys.Open(ScoresFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	name := path.Join(label, ScoresFile)
	if err != nil {
		return nil, fmt.Errorf("mind2web: %w", err)
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReader(f))
	fail := func(field string, err error) error {
		return fmt.Errorf("mind2web: %s: byte %d: field %s: %w", name, dec.InputOffset(), field, err)
	}
	if err := expectDelim(dec, '{'); err != nil {
		return nil, fail("(top level)", err)
	}
	var t *scoreTable
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, fail("(top level)", err)
		}
		if key != "ranks" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, fail(fmt.Sprint(key), err)
			}
			continue
		}
		t = &scoreTable{Ranks: map[string]map[string]float64{}}
		if err := expectDelim(dec, '{'); err != nil {
			return nil, fail("ranks", err)
		}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return nil, fail("ranks", err)
			}
			sid, _ := tok.(string)
			if !need[sid] {
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					return nil, fail("ranks."+sid, err)
				}
				continue
			}
			var m map[string]float64
			if err := dec.Decode(&m); err != nil {
				return nil, fail("ranks."+sid, err)
			}
			t.Ranks[sid] = m
		}
		if err := expectDelim(dec, '}'); err != nil {
			return nil, fail("ranks", err)
		}
	}
	if t == nil {
		return nil, fmt.Errorf("mind2web: %s: field ranks: missing", name)
	}
	return t, nil
}

func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != d {
		return fmt.Errorf("want %q, got %v", d, tok)
	}
	return nil
}

// Ranker names where a step's candidate ranks came from.
const (
	RankInline  = "inline"  // rank fields on the candidates (Synapse-prepared files)
	RankScores  = "scores"  // scores_all_data.json
	RankLexical = "lexical" // our stand-in: task-word overlap (no official ranks)
)

// ranked is a step's candidates in rank order.
type ranked struct {
	ids    []string        // all candidates, best first
	rank   map[string]int  // backend_node_id → 0-based rank
	pos    map[string]bool // positive ids
	source string
}

// rankStep orders a step's candidates: inline ranks, else the scores table,
// else the lexical stand-in. Ranks never look at which candidates are gold.
func rankStep(r *Record, a *Action, sc *scoreTable) ranked {
	all := make([]Candidate, 0, len(a.PosCandidates)+len(a.NegCandidates))
	all = append(all, a.PosCandidates...)
	all = append(all, a.NegCandidates...)
	out := ranked{rank: map[string]int{}, pos: map[string]bool{}}
	for _, c := range a.PosCandidates {
		out.pos[c.BackendNodeID] = true
	}
	keys := make([]float64, len(all))
	switch {
	case allRanked(all):
		out.source = RankInline
		for i, c := range all {
			keys[i] = float64(c.Rank)
		}
	case sc != nil && sc.Ranks[r.AnnotationID+"_"+a.ActionUID] != nil:
		out.source = RankScores
		m := sc.Ranks[r.AnnotationID+"_"+a.ActionUID]
		for i, c := range all {
			if v, ok := m[c.BackendNodeID]; ok {
				keys[i] = v
			} else {
				keys[i] = float64(len(all) + i) // unscored: after every scored one
			}
		}
	default:
		out.source = RankLexical
		q := words(r.ConfirmedTask)
		for i, c := range all {
			keys[i] = -float64(overlap(q, c))
		}
	}
	idx := make([]int, len(all))
	for i := range idx {
		idx[i] = i
	}
	// Ties break on the id, not on list position, so gold never wins a tie
	// by being listed first.
	sort.SliceStable(idx, func(x, y int) bool {
		i, j := idx[x], idx[y]
		if keys[i] != keys[j] {
			return keys[i] < keys[j]
		}
		return idLess(all[i].BackendNodeID, all[j].BackendNodeID)
	})
	for pos, i := range idx {
		id := all[i].BackendNodeID
		if _, dup := out.rank[id]; dup {
			continue
		}
		// Official ranks keep their numbers (gaps and ties included) so the
		// top-k cut is Synapse's `rank < k`; the stand-in ranks by position.
		if out.source == RankLexical {
			out.rank[id] = pos
		} else {
			out.rank[id] = int(keys[i])
		}
		out.ids = append(out.ids, id)
	}
	return out
}

func allRanked(cs []Candidate) bool {
	if len(cs) == 0 {
		return false
	}
	for _, c := range cs {
		if c.Rank < 0 {
			return false
		}
	}
	return true
}

// topK returns the ids with rank < k (all when k < 0), best first.
func (rk ranked) topK(k int) []string {
	var out []string
	for _, id := range rk.ids {
		if k < 0 || rk.rank[id] < k {
			out = append(out, id)
		}
	}
	return out
}

func idLess(a, b string) bool {
	na, ea := strconv.Atoi(a)
	nb, eb := strconv.Atoi(b)
	if ea == nil && eb == nil {
		return na < nb
	}
	return a < b
}

// words is the lower-cased alphanumeric words of s.
func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len(w) > 1 {
			out[w] = true
		}
	}
	return out
}

// overlap counts task words found in a candidate's tag and attribute values.
func overlap(q map[string]bool, c Candidate) int {
	var sb strings.Builder
	sb.WriteString(c.Tag)
	for k, v := range c.Attributes {
		switch k {
		case "backend_node_id", "bounding_box_rect", "data_pw_testid_buckeye":
			continue
		}
		sb.WriteByte(' ')
		sb.WriteString(v)
	}
	n := 0
	for w := range words(sb.String()) {
		if q[w] {
			n++
		}
	}
	return n
}
