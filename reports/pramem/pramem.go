package pramem

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/internal/fsname"
	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/kinds"
	"github.com/memharness/memharness/reports/paper"
	"github.com/memharness/memharness/reports/scored"
)

// PraMem's studies beyond Table 1 (spec §7): the ablation Table 2, the memory
// evolution by practice round (Figure 4), the twofold-experience and
// self-review ablations (Figures 5 and 6) and the efficiency Table 3. They
// are written when a run holds the methods they compare, and silently
// skipped otherwise.
//
// A method's role comes from the manifest's resolved config (its kind and
// pramem block) rather than from its name, so a sweep may name methods
// freely; only a config that does not describe a method (older manifests)
// falls back to the conventional names (pramem_no_trial, pramem_r10, ...).

// kindRoles are the method kinds the studies compare, read from the paper
// rows the kinds' entries declare (the reports read run logs and the
// entries they are handed, never the methods' code).
type kindRoles struct {
	// praMem is the kind with a row in Table 2: the ablations turn its
	// switches (empty: no kind has one, and no study is written).
	praMem string
	// systems are the other kinds of Table 3 (the memory systems), in the
	// paper's row order.
	systems []string
}

func rolesOf(rows kinds.PaperRows) kindRoles {
	var r kindRoles
	for _, k := range slices.Sorted(maps.Keys(rows)) {
		if _, ok := rows.Label(k, paper.Table2Name); ok {
			r.praMem = k
			break
		}
	}
	for _, e := range paper.Table3() {
		if k, ok := rows.KindOf(paper.Table3Name, e.Label); ok && k != r.praMem {
			r.systems = append(r.systems, k)
		}
	}
	return r
}

// studied reports whether a method of kind takes part in the studies.
func (r kindRoles) studied(kind string) bool {
	return r.isPraMem(kind) || slices.Contains(r.systems, kind)
}

func (r kindRoles) isPraMem(kind string) bool { return kind != "" && kind == r.praMem }

// pmVariant is the role of a PraMem method in the studies.
type pmVariant string

const (
	pmFull             pmVariant = "full"
	pmNoTrial          pmVariant = "no_trial"
	pmNoReflection     pmVariant = "no_reflection"
	pmNoConsensus      pmVariant = "no_consensus"
	pmOnlyPattern      pmVariant = "only_pattern"
	pmOnlyBias         pmVariant = "only_bias"
	pmNoGroundedness   pmVariant = "no_groundedness"
	pmNoGeneralization pmVariant = "no_generalization"
	// pmEvolution evaluates the memory after fewer rounds than configured.
	pmEvolution pmVariant = "evolution"
	// pmOther combines several switches, or reproduces release defects: it
	// belongs to no study.
	pmOther pmVariant = "other"
)

// label is the variant as the paper words it.
func (v pmVariant) label() string {
	switch v {
	case pmFull:
		return "PraMem"
	case pmNoTrial:
		return "w/o deep-thinking trial"
	case pmNoReflection:
		return "w/o reflective proposal"
	case pmNoConsensus:
		return "w/o consensual adjustment"
	case pmOnlyPattern:
		return "only pattern experience"
	case pmOnlyBias:
		return "only bias-alert experience"
	case pmNoGroundedness:
		return "w/o groundedness review"
	case pmNoGeneralization:
		return "w/o generalizability review"
	case pmEvolution:
		return "PraMem (earlier snapshot)"
	}
	return "PraMem (other variant)"
}

// defaultPraMemRounds is the paper's (and the code's) number of practice
// rounds, used when a config leaves pramem.rounds at 0.
const defaultPraMemRounds = 80

// pmKnobs is the part of a method's pramem block that decides its role.
type pmKnobs struct {
	Rounds               int    `json:"rounds"`
	NoTrial              bool   `json:"no_trial"`
	NoReflection         bool   `json:"no_reflection"`
	NoConsensus          bool   `json:"no_consensus"`
	NoGroundedness       bool   `json:"no_groundedness"`
	NoGeneralization     bool   `json:"no_generalization"`
	Sections             string `json:"sections"`
	EvalRound            int    `json:"eval_round"`
	ReproduceReleaseLeak bool   `json:"reproduce_release_leak"`
	ReleaseNoopGrounding bool   `json:"release_noop_grounding"`
}

// pmMethod is one method of the run as the studies see it.
type pmMethod struct {
	Name  string
	Kind  string
	Knobs pmKnobs
	// Variant, Round (the practice rounds behind the evaluated memory) and
	// Total (the rounds configured) are set for kind pramem.
	Variant     pmVariant
	Round       int
	Total       int
	Inferred    bool // role taken from the name: the config does not describe the method
	unknownName bool // inferred, but the name has a suffix we do not know
}

// cfgMethod is a method entry of the resolved config (predict.Spec's JSON).
type cfgMethod struct {
	Name   string   `json:"name"`
	Kind   string   `json:"kind"`
	PraMem *pmKnobs `json:"pramem"`
}

// configMethods decodes the methods of a manifest's resolved config, keyed
// by name. Entries it cannot read (an older manifest listing plain names)
// are skipped, so those methods fall back to their names.
func configMethods(cfg any) map[string]cfgMethod {
	out := map[string]cfgMethod{}
	b, err := json.Marshal(cfg)
	if err != nil {
		return out
	}
	var c struct {
		Methods []json.RawMessage `json:"methods"`
	}
	if json.Unmarshal(b, &c) != nil {
		return out
	}
	for _, raw := range c.Methods {
		var m cfgMethod
		if json.Unmarshal(raw, &m) != nil || m.Kind == "" {
			continue
		}
		if m.Name == "" {
			m.Name = m.Kind // predict.Spec: the name defaults to the kind
		}
		if _, dup := out[m.Name]; !dup {
			out[m.Name] = m
		}
	}
	return out
}

var evalRoundSuffix = lazyre.New(`^(?:r|round|rounds|evalround)(\d+)$`)

// inferFromName reads a method's kind and PraMem switches from the
// conventional names of configs/paper/pramem_*.yaml. unknown is true when
// the name starts with "pramem" but its suffix is none we know, so that a
// method such as "pramem_qwen" is not mistaken for the full PraMem.
func (r kindRoles) inferFromName(name string) (kind string, k pmKnobs, unknown bool) {
	n := paper.Normalize(name)
	for _, kd := range r.systems {
		if n == paper.Normalize(kd) {
			return kd, k, false
		}
	}
	if r.praMem == "" {
		return "", k, false
	}
	kindPraMem := r.praMem
	rest, ok := strings.CutPrefix(n, paper.Normalize(kindPraMem))
	if !ok {
		return "", k, false
	}
	switch {
	case rest == "" || rest == "full":
	case rest == "notrial" || rest == "nodeepthinking":
		k.NoTrial = true
	case rest == "noreflection" || rest == "noreflect":
		k.NoReflection = true
	case rest == "noconsensus":
		k.NoConsensus = true
	case rest == "onlypattern":
		k.Sections = "pattern"
	case rest == "onlybias":
		k.Sections = "bias"
	case rest == "nogroundedness" || rest == "nogrounding":
		k.NoGroundedness = true
	case rest == "nogeneralization" || rest == "nogeneralizability":
		k.NoGeneralization = true
	default:
		m := evalRoundSuffix.FindStringSubmatch(rest)
		if m == nil {
			return kindPraMem, k, true
		}
		k.EvalRound, _ = strconv.Atoi(m[1])
		// The name cannot say how many rounds were configured; the paper's
		// 80 is the natural reading of pramem_r10/r40/r80.
		k.Rounds = max(defaultPraMemRounds, k.EvalRound)
	}
	return kindPraMem, k, false
}

// classify places a PraMem configuration in the studies: the full method,
// a single-switch ablation, an earlier snapshot, or none (pmOther). round
// is the number of practice rounds behind the evaluated memory.
func classify(k pmKnobs) (v pmVariant, round, total int) {
	total = k.Rounds
	if total <= 0 {
		total = defaultPraMemRounds
	}
	var diffs []pmVariant
	for _, d := range []struct {
		on bool
		v  pmVariant
	}{
		{k.NoTrial, pmNoTrial}, {k.NoReflection, pmNoReflection}, {k.NoConsensus, pmNoConsensus},
		{k.NoGroundedness, pmNoGroundedness}, {k.NoGeneralization, pmNoGeneralization},
	} {
		if d.on {
			diffs = append(diffs, d.v)
		}
	}
	switch k.Sections {
	case "", "both":
	case "pattern":
		diffs = append(diffs, pmOnlyPattern)
	case "bias":
		diffs = append(diffs, pmOnlyBias)
	default:
		return pmOther, total, total
	}
	// An eval round at or past the configured total is the final memory.
	final := k.EvalRound <= 0 || k.EvalRound >= total
	switch {
	case k.ReproduceReleaseLeak || k.ReleaseNoopGrounding:
		return pmOther, total, total
	case len(diffs) == 0 && final:
		return pmFull, total, total
	case len(diffs) == 0:
		return pmEvolution, k.EvalRound, total
	case len(diffs) == 1 && final:
		return diffs[0], total, total
	}
	return pmOther, total, total
}

// identify describes every method of the run, in report order.
func (r kindRoles) identify(names []string, cfg map[string]cfgMethod) []pmMethod {
	out := make([]pmMethod, 0, len(names))
	for _, name := range names {
		m := pmMethod{Name: name}
		if c, ok := cfg[name]; ok {
			m.Kind = c.Kind
			if c.PraMem != nil {
				m.Knobs = *c.PraMem
			}
		} else {
			m.Kind, m.Knobs, m.unknownName = r.inferFromName(name)
			m.Inferred = true
		}
		if r.isPraMem(m.Kind) {
			m.Variant, m.Round, m.Total = classify(m.Knobs)
			if m.unknownName {
				m.Variant = pmOther
			}
		}
		out = append(out, m)
	}
	return out
}

// pramemStudy is what the PraMem writers share: the methods' roles, their
// Table 1 scores (point values) and, loaded on demand, their memory files.
type pramemStudy struct {
	s       *summary
	runDir  string
	methods []pmMethod
	full    *pmMethod // the full PraMem the ablations are compared with
	scores  map[string]t1Agg
	present [4]bool
	fields  []string // Table 1 fields scored
	mem     map[string]*memStats
	t1      *table1Once // Table 1, whose intervals the figures draw
}

// newPraMemStudy returns nil when the run has no OmniBehavior binary field
// or no method of the studies' kinds.
func (s *summary) newPraMemStudy(runDir string, t1 *table1Once) (*pramemStudy, error) {
	st := &pramemStudy{s: s, runDir: runDir, t1: t1, mem: map[string]*memStats{},
		methods: s.roles.identify(s.Run.Methods, configMethods(s.Run.Manifest.Config))}
	relevant := slices.ContainsFunc(st.methods, func(m pmMethod) bool { return s.roles.studied(m.Kind) })
	if !relevant {
		return nil, nil
	}
	fields, sceneOf, present := s.t1Fields()
	if len(fields) == 0 {
		return nil, nil
	}
	st.present = present
	for _, f := range fields {
		st.fields = append(st.fields, f.Name)
	}
	st.scores = map[string]t1Agg{}
	for _, m := range st.methods {
		a, err := s.t1Point(m.Name, fields, sceneOf, present)
		if err != nil {
			return nil, err
		}
		st.scores[m.Name] = a
	}
	// The full PraMem: the method literally named pramem when it is one,
	// else the first full configuration.
	for i := range st.methods {
		m := &st.methods[i]
		if m.Variant != pmFull {
			continue
		}
		named := paper.Normalize(s.roles.praMem)
		if st.full == nil || paper.Normalize(m.Name) == named && paper.Normalize(st.full.Name) != named {
			st.full = m
		}
	}
	return st, nil
}

// t1Fields are the run's Table 1 fields in Table 1 order (scene, then name).
func (s *summary) t1Fields() (fields []scored.Field, sceneOf []int, present [4]bool) {
	for _, f := range s.Run.Fields {
		if sc, ok := t1SceneOf(f); ok {
			fields = append(fields, f)
			sceneOf = append(sceneOf, sc)
			present[sc] = true
		}
	}
	order := seq(len(fields))
	slices.SortStableFunc(order, func(a, b int) int { return sceneOf[a] - sceneOf[b] })
	fs, so := make([]scored.Field, len(order)), make([]int, len(order))
	for i, j := range order {
		fs[i], so[i] = fields[j], sceneOf[j]
	}
	return fs, so, present
}

// t1Point is Table 1's aggregation of one method without intervals: the
// studies compare point values, and table1.md already carries every
// method's intervals.
func (s *summary) t1Point(method string, fields []scored.Field, sceneOf []int, present [4]bool) (t1Agg, error) {
	counts := make([]binCounts, len(fields))
	for i, f := range fields {
		items, _, err := scored.ScoredItems(s.Run.Samples, method, f)
		if err != nil {
			return t1Agg{}, err
		}
		for _, it := range items {
			if it.Pred == "" {
				continue
			}
			counts[i].add(t1Item{pos: it.Label == s.Opts.Positive, predPos: it.Pred == s.Opts.Positive})
		}
	}
	return aggregateT1(sceneOf, counts, present), nil
}

// byVariant returns the first method of a variant (config order), and the
// names of any others, which the tables mention in a note.
func (st *pramemStudy) byVariant(v pmVariant) (*pmMethod, []string) {
	if v == pmFull {
		if st.full == nil {
			return nil, nil
		}
		var others []string
		for _, m := range st.methods {
			if m.Variant == pmFull && m.Name != st.full.Name {
				others = append(others, m.Name)
			}
		}
		return st.full, others
	}
	var first *pmMethod
	var others []string
	for i := range st.methods {
		if st.methods[i].Variant != v {
			continue
		}
		if first == nil {
			first = &st.methods[i]
		} else {
			others = append(others, st.methods[i].Name)
		}
	}
	return first, others
}

// inferredNote names the methods whose role came from their names.
func (st *pramemStudy) inferredNote(ms []*pmMethod) []string {
	var names []string
	for _, m := range ms {
		if m != nil && m.Inferred {
			names = append(names, m.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	return []string{"The run's config does not describe " + strings.Join(names, ", ") + "; their roles were read from their names."}
}

// meanOf accumulates a mean.
type meanOf struct {
	sum float64
	n   int
}

func (m *meanOf) add(v float64) { m.sum += v; m.n++ }

// mean is NaN when nothing was added.
func (m meanOf) mean() float64 {
	if m.n == 0 {
		return math.NaN()
	}
	return m.sum / float64(m.n)
}

// memStats summarises a method's per-user memory files
// (<run>/memory/<method>/<user>.json, predict.Memory's JSON).
type memStats struct {
	Users    int // users the method answered for
	Files    int // memory files read
	Tokens   meanOf
	Calls    meanOf
	Prompt   meanOf
	Complete meanOf
	Seconds  meanOf // meta construction_seconds, where present
	// Curve is the memory's token count after each practice round (meta),
	// averaged over the users that report it.
	Curve    map[int]*meanOf
	Problems []string // unreadable files, left out
}

// memFile is the part of predict.Memory the reports read.
type memFile struct {
	Tokens int `json:"tokens"`
	Calls  int `json:"calls"`
	Usage  struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Meta map[string]any `json:"meta"`
}

// storeName is how bench names a method's folder in the run directory
// (bench.safeName; bench imports this package, so it is repeated here
// rather than imported). User files are named by internal/fsname.
var storeName = strings.NewReplacer("/", "_", `\`, "_", "..", "_", ":", "_", " ", "_").Replace

// memory loads (once) the memory files of a method's users. A missing file
// is counted (memoryless methods write none); an unreadable one is noted
// and left out rather than failing the whole report.
func (st *pramemStudy) memory(method string) *memStats {
	if ms, ok := st.mem[method]; ok {
		return ms
	}
	ms := &memStats{Curve: map[int]*meanOf{}}
	st.mem[method] = ms
	seen := map[string]bool{}
	var users []string
	for _, smp := range st.s.Run.Samples {
		if smp.Method == method && !seen[smp.User] {
			seen[smp.User] = true
			users = append(users, smp.User)
		}
	}
	slices.Sort(users)
	ms.Users = len(users)
	for _, u := range users {
		rel := filepath.Join("memory", storeName(method), fsname.Encode(u)+".json")
		b, err := os.ReadFile(filepath.Join(st.runDir, rel))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		var mf memFile
		if err == nil {
			err = json.Unmarshal(b, &mf)
		}
		if err != nil {
			ms.Problems = append(ms.Problems, fmt.Sprintf("%s: %v", filepath.ToSlash(rel), err))
			continue
		}
		ms.Files++
		ms.Tokens.add(float64(mf.Tokens))
		ms.Calls.add(float64(mf.Calls))
		ms.Prompt.add(float64(mf.Usage.PromptTokens))
		ms.Complete.add(float64(mf.Usage.CompletionTokens))
		if v, ok := metaNumber(mf.Meta, "construction_seconds"); ok {
			ms.Seconds.add(v)
		}
		// rounds (completed) tells a per-round list with the initial memory
		// from one without.
		rounds, _ := metaNumber(mf.Meta, "rounds")
		for r, tok := range roundTokens(mf.Meta, int(rounds)) {
			if ms.Curve[r] == nil {
				ms.Curve[r] = &meanOf{}
			}
			ms.Curve[r].add(tok)
		}
	}
	return ms
}

// metaNumber reads a numeric meta value (a JSON number, or a number in a
// string); anything else is absent.
func metaNumber(meta map[string]any, key string) (float64, bool) {
	return asNumber(meta[key])
}

func asNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	return 0, false
}

var trailingInt = lazyre.New(`(\d+)\D*$`)

// roundTokens reads the memory's token count after each practice round from
// a memory's meta. Accepted shapes, keyed by completed rounds (1 = after the
// first round):
//   - an object {"10": 412, "20": 655} (keys may carry text, e.g. "round_10");
//   - a list of numbers, element i after round i+1 (with rounds+1 elements,
//     element 0 is the memory before practice, round 0);
//   - a list of objects {"round": 10, "tokens": 412}.
//
// Shapes it cannot read give nothing.
func roundTokens(meta map[string]any, rounds int) map[int]float64 {
	// The keys tried, in order; after them, any key naming tokens together
	// with rounds or snapshots.
	keysTried := []string{"snapshot_tokens", "memory_tokens_by_round", "round_tokens", "tokens_by_round",
		"snapshot_memory_tokens", "memory_tokens_per_round", "round_memory_tokens"}
	var val any
	for _, k := range keysTried {
		if v, ok := meta[k]; ok {
			val = v
			break
		}
	}
	if val == nil {
		keys := make([]string, 0, len(meta))
		for k := range meta {
			keys = append(keys, k)
		}
		slices.Sort(keys) // deterministic choice among candidates
		for _, k := range keys {
			l := strings.ToLower(k)
			if strings.Contains(l, "token") && (strings.Contains(l, "round") || strings.Contains(l, "snapshot")) {
				if _, scalar := asNumber(meta[k]); !scalar {
					val = meta[k]
					break
				}
			}
		}
	}
	out := map[int]float64{}
	switch v := val.(type) {
	case map[string]any:
		for k, x := range v {
			m := trailingInt.FindStringSubmatch(k)
			f, ok := asNumber(x)
			if m == nil || !ok {
				continue
			}
			r, err := strconv.Atoi(m[1])
			if err == nil {
				out[r] = f
			}
		}
	case []any:
		offset := 1
		if rounds > 0 && len(v) == rounds+1 {
			offset = 0
		}
		for i, x := range v {
			if f, ok := asNumber(x); ok {
				out[i+offset] = f
				continue
			}
			obj, ok := x.(map[string]any)
			if !ok {
				continue
			}
			r, okR := asNumber(obj["round"])
			var tok float64
			okT := false
			for _, tk := range []string{"tokens", "memory_tokens"} {
				if tok, okT = asNumber(obj[tk]); okT {
					break
				}
			}
			if okR && okT {
				out[int(r)] = tok
			}
		}
	}
	return out
}
