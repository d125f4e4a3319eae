package pramemrel

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/memharness/memharness/internal/pysrc"
)

// FetchHint is the command that downloads the pack.
const FetchHint = "run 'bench data fetch " + FetchName + "' (or point prompts.release_dir at a checkout of " +
	Repository + " at commit " + Commit + ")"

// ErrMismatch is wrapped by every digest mismatch.
var ErrMismatch = errors.New("release file does not match its pinned SHA-256")

// Part is one element of a prompt-parts list: literal text, or the name of
// the variable the release puts there (Slot).
type Part struct {
	Text string
	Slot string
}

// Pack holds the text pieces of the release, as read from its source. Every
// string here is the authors' text, held in memory only.
type Pack struct {
	Dir string
	// Digests of the files read, by repository path.
	Digests map[string]string

	// OmniBehavior yes/no prompt and MovieLens prompt: the prompt_parts
	// lists of build_single_binary_prompt and build_movie_prompt, joined by
	// PartsSep.
	BinaryParts, MovieParts []Part
	PartsSep                string
	// Questions maps a field to its yes/no sentence (yes_no_questions);
	// QuestionFallback is the f-string for other fields ({field}).
	Questions        map[string]string
	QuestionFallback string
	// Continuous maps a continuous field to its question (practice input);
	// ContinuousFallback is the f-string for other fields ({field}).
	Continuous         map[string]string
	ContinuousFallback string
	// FieldOrder lists the question fields in the order
	// build_prediction_questions asks them (practice tasks list every
	// question of a target in this order).
	FieldOrder []string
	// TextSearchParts and TextDialogueParts are build_single_text_prompt's
	// prompt_parts for the search keyword and for the next customer-service
	// message (a practice target with only text questions shows the first
	// part of these, not of the yes/no prompt).
	TextSearchParts, TextDialogueParts []Part
	// DialogueOpening and DialogueQuestion are next_user_message's question
	// f-strings (build_prediction_questions): without earlier turns
	// ({context_info}) and with them ({context_info}, {dialogue_text}).
	DialogueOpening, DialogueQuestion string
	// Scenario is build_test_action_description's f-string.
	Scenario string
	// Record is a history record as shown ({i}), RecordCost as costed.
	Record, RecordCost string
	// MovieContext and MovieResult render a MovieLens record (the 电影评分
	// branches of format_action_context and format_action_result).
	MovieContext, MovieResult string
	// HistoryHeader is the f-string of the history block's first line.
	HistoryHeader string
	// NoHistory and NoValidHistory replace an empty history block (no
	// record at all; records, none shown).
	NoHistory, NoValidHistory string

	// PraMem (utils/prompts.py): the stage templates by variable name.
	Stage map[string]string
	// Memory rendering (format_exp_memory).
	Memory MemoryText
	// EvalJoin is evaluator.py's f-string placing the memory block after
	// the question prompt.
	EvalJoin string
	// Practice input and label (z_2).
	PracticeTask, PracticeJoin string
	SearchPractice             string
	LabelIntro                 string
	LabelFrom, LabelTo         string
	// PracticeMaxTokens is z_5's --max_tokens default, sent as
	// max_completion_tokens.
	PracticeMaxTokens int
	// ShuffleSeed is z_2's random.seed argument before the shuffle.
	ShuffleSeed int64
}

// MemoryText are the lines format_exp_memory writes.
type MemoryText struct {
	Title, Pattern, Calibration, Proposals, None, Item string
	Sep                                                string
}

// StageNames are the utils/prompts.py constants the pack reads.
var StageNames = []string{
	"prompt_for_predict", "prompt_for_reflect", "prompt_for_review", "prompt_for_evaluate_after_main",
	"prompt_for_generate_perturbations", "prompt_for_check_perturbation",
	"prompt_for_generate_virtual_scenes", "prompt_for_check_generalization",
}

// Open reads the pack in dir (a fetched pack or a checkout), checking every
// file against Files.
func Open(dir string) (*Pack, error) { return OpenPinned(dir, Files) }

// OpenPinned is Open against other pins (tests use stand-in files).
func OpenPinned(dir string, pins []File) (*Pack, error) {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return nil, fmt.Errorf("pramem release pack: %s is not a folder; %s", dir, FetchHint)
	}
	p := &Pack{Dir: dir, Digests: map[string]string{}}
	files := map[string]*pysrc.File{}
	for _, f := range pins {
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		b, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("pramem release pack: %s is missing; %s", path, FetchHint)
		}
		if err != nil {
			return nil, fmt.Errorf("pramem release pack: %w", err)
		}
		sum := sha256.Sum256(b)
		got := hex.EncodeToString(sum[:])
		if got != f.SHA256 {
			return nil, fmt.Errorf("pramem release pack: %s has SHA-256 %s, want %s (commit %.12s): %w; %s",
				path, got, f.SHA256, Commit, ErrMismatch, FetchHint)
		}
		p.Digests[f.Path] = got
		pf, err := pysrc.Parse(b)
		if err != nil {
			return nil, fmt.Errorf("pramem release pack: %s: %w", path, err)
		}
		files[f.Path] = pf
	}
	r := reader{dir: dir, files: files}
	p.read(&r)
	if len(r.errs) > 0 {
		return nil, fmt.Errorf("pramem release pack %s does not have the expected shape:\n  %s", dir, strings.Join(r.errs, "\n  "))
	}
	return p, nil
}

// reader looks pieces up and collects every shape error, so one run of
// Open lists all of them.
type reader struct {
	dir   string
	files map[string]*pysrc.File
	errs  []string
}

func (r *reader) fail(file, scope, format string, a ...any) {
	where := file
	if scope != "" {
		where += " (" + scope + ")"
	}
	r.errs = append(r.errs, where+": "+fmt.Sprintf(format, a...))
}

func (r *reader) file(name string) *pysrc.File {
	if f := r.files[name]; f != nil {
		return f
	}
	return &pysrc.File{}
}

func (r *reader) value(file, scope, name string, kind pysrc.Kind) pysrc.Value {
	v, ok := r.file(file).Lookup(scope, name)
	if !ok {
		r.fail(file, scope, "no assignment to %s", name)
		return pysrc.Value{}
	}
	if v.Kind != kind {
		r.fail(file, scope, "line %d: %s is a %s, want a %s", v.Line, name, v.Kind, kind)
	}
	return v
}

func (r *reader) str(file, scope, name string) string {
	return r.value(file, scope, name, pysrc.Str).Str
}

// parts reads a list of string literals and names.
func (r *reader) parts(file, scope, name string) []Part {
	v := r.value(file, scope, name, pysrc.List)
	var out []Part
	for i, it := range v.Items {
		switch it.Kind {
		case pysrc.Str:
			out = append(out, Part{Text: it.Str})
		case pysrc.Name:
			out = append(out, Part{Slot: it.Expr})
		default:
			r.fail(file, scope, "line %d: %s[%d] is a %s, want a string or a name", it.Line, name, i, it.Kind)
		}
	}
	return out
}

// dict reads a dict of string keys and string values, keeping key order.
func (r *reader) dict(file, scope, name string) (map[string]string, []string) {
	v := r.value(file, scope, name, pysrc.Dict)
	m := map[string]string{}
	var order []string
	for i, k := range v.Keys {
		if k.Kind != pysrc.Str || v.Items[i].Kind != pysrc.Str {
			r.fail(file, scope, "line %d: %s holds a non-string entry", k.Line, name)
			continue
		}
		m[k.Str] = v.Items[i].Str
		order = append(order, k.Str)
	}
	return m, order
}

// fstring finds the f-string of scope whose fields are exactly fields.
func (r *reader) fstring(file, scope string, fields ...string) string {
	want := strings.Join(fields, ",")
	for _, l := range r.file(file).LiteralsIn(scope) {
		if !l.FString {
			continue
		}
		got, err := pysrc.Fields(l.Str)
		if err == nil && strings.Join(got, ",") == want {
			return l.Str
		}
	}
	r.fail(file, scope, "no f-string with the fields {%s}", want)
	return ""
}

// after returns the n literals that follow the first literal equal to
// anchor in scope.
func (r *reader) after(file, scope, anchor string, n int) []string {
	lits := r.file(file).LiteralsIn(scope)
	for i, l := range lits {
		if l.Str == anchor && i+n < len(lits) {
			out := make([]string, n)
			for j := range out {
				out[j] = lits[i+1+j].Str
			}
			return out
		}
	}
	r.fail(file, scope, "no %d literals after %q", n, anchor)
	return make([]string, n)
}

// expr checks that name is assigned the expression want (the code shapes
// the assembly relies on, e.g. how a list is joined).
func (r *reader) expr(file, scope, name, want string) {
	v, ok := r.file(file).Lookup(scope, name)
	if !ok || v.Kind != pysrc.Other || v.Expr != want {
		r.fail(file, scope, "%s is not assigned %s", name, want)
	}
}

// hasLiteral checks that scope holds the literal s.
func (r *reader) hasLiteral(file, scope, s string) bool {
	for _, l := range r.file(file).LiteralsIn(scope) {
		if l.Str == s {
			return true
		}
	}
	return false
}

func (p *Pack) read(r *reader) {
	const pb = "prompt_builder.py"
	p.BinaryParts = r.parts(pb, "build_single_binary_prompt", "prompt_parts")
	p.MovieParts = r.parts(pb, "build_movie_prompt", "prompt_parts")
	p.PartsSep = "\n"
	r.expr(pb, "build_single_binary_prompt", "prompt", `"\n".join(prompt_parts)`)
	r.expr(pb, "build_movie_prompt", "prompt", `"\n".join(prompt_parts)`)
	p.readTextPrompts(r)
	p.Questions, _ = r.dict(pb, "_get_yes_no_question_by_field", "yes_no_questions")
	p.QuestionFallback = r.fstring(pb, "_get_yes_no_question_by_field", "field")
	p.Continuous, _ = r.dict(pb, "build_single_continuous_prompt", "continuous_questions")
	p.ContinuousFallback = r.fstring(pb, "build_single_continuous_prompt", "field")
	lits := r.file(pb).LiteralsIn("build_prediction_questions")
	for i := 0; i+1 < len(lits); i++ {
		if lits[i].Str == "field" && isIdent(lits[i+1].Str) {
			p.FieldOrder = append(p.FieldOrder, lits[i+1].Str)
		}
	}
	if len(p.FieldOrder) == 0 {
		r.fail(pb, "build_prediction_questions", "no \"field\": NAME entries")
	}
	p.Scenario = r.fstring(pb, "build_test_action_description", "timestamp", "action_type", "context_str")
	p.Record = r.fstring(pb, "build_history_summary", "i", "timestamp", "action_type", "context_str", "result_str")
	p.RecordCost = r.fstring(pb, "get_actual_used_history", "timestamp", "action_type", "context_str", "result_str")
	p.HistoryHeader = r.fstring(pb, "build_history_summary", "len(display_actions)", "current_tokens")
	p.MovieContext = r.fstring(pb, "format_action_context", "context['movie_title']", "context['release_year']", "context['genres']")
	p.MovieResult = r.fstring(pb, "format_action_result", "act['rating']")
	empty := r.after(pb, "build_history_summary", "original_count", 2)
	p.NoHistory, p.NoValidHistory = empty[0], empty[1]
	if !strings.HasSuffix(p.HistoryHeader, "\n") {
		r.fail(pb, "build_history_summary", "the history header does not end with a newline")
	}
	if !r.hasLiteral(pb, "build_history_summary", "\n") {
		r.fail(pb, "build_history_summary", "the history lines are not joined by a newline")
	}

	const pr = "utils/prompts.py"
	p.Stage = map[string]string{}
	for _, n := range StageNames {
		p.Stage[n] = r.str(pr, "", n)
	}

	const z5 = "z_5_practice_with_self_check.py"
	const fm = "SelfPractice.format_exp_memory"
	lits = r.file(z5).LiteralsIn(fm)
	var texts []string
	for _, l := range lits {
		texts = append(texts, l.Str)
	}
	// The literals of format_exp_memory in source order: title, pattern
	// heading, dict keys, item, none, calibration heading, ..., proposals
	// heading, ..., and the join separator last.
	p.Memory.Title = first(texts, func(s string) bool { return strings.HasPrefix(s, "#") && !strings.Contains(s, "\n") })
	heads := filter(texts, func(s string) bool { return strings.HasPrefix(s, "\n#") })
	if len(heads) == 3 {
		p.Memory.Pattern, p.Memory.Calibration, p.Memory.Proposals = heads[0], heads[1], heads[2]
	} else {
		r.fail(z5, fm, "want 3 section headings, found %d", len(heads))
	}
	p.Memory.Item = r.fstring(z5, fm, "i", "exp")
	p.Memory.None = first(texts, func(s string) bool { return strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") })
	if len(texts) > 0 {
		p.Memory.Sep = texts[len(texts)-1]
	}
	if p.Memory.Title == "" || p.Memory.None == "" || p.Memory.Sep != "\n" {
		r.fail(z5, fm, "the memory lines are not in the expected shape")
	}
	p.PracticeMaxTokens = r.argDefault(z5, "--max_tokens")

	const ev = "evaluator.py"
	p.EvalJoin = ""
	for _, l := range r.file(ev).Literals {
		if got, err := pysrc.Fields(l.Value.Str); l.Value.FString && err == nil && strings.Join(got, ",") == "prompt,exp_memory_prompt" {
			p.EvalJoin = l.Value.Str
			break
		}
	}
	if p.EvalJoin == "" {
		r.fail(ev, "", "no f-string joining {prompt} and {exp_memory_prompt}")
	}

	const z2 = "z_2_get_practice_data.py"
	p.PracticeTask = r.fstring(z2, "get_simulated_input", "task_id", "prompt_part2")
	p.PracticeJoin = r.fstring(z2, "get_simulated_input", "simulated_input_part1", "simulated_input_part2")
	p.SearchPractice = r.after(z2, "get_simulated_input_single", "search_keyword", 1)[0]
	lab := r.file(z2).LiteralsIn("get_simulated_label")
	// "\n" (the join), the intro sentence, then the replace pair.
	if len(lab) >= 4 {
		p.LabelIntro, p.LabelFrom, p.LabelTo = lab[len(lab)-3].Str, lab[len(lab)-2].Str, lab[len(lab)-1].Str
	} else {
		r.fail(z2, "get_simulated_label", "want the intro sentence and a replace pair, found %d literals", len(lab))
	}
	p.ShuffleSeed = r.seedCall(z2, "random.seed(")
	// The practice client sends one user message with
	// max_completion_tokens and nothing else (no temperature, no stream).
	const api = "utils/use_my_api.py"
	if !r.hasLiteral(api, "LocalClient.call_openai", "user") {
		r.fail(api, "LocalClient.call_openai", "no user message")
	}
	if src := r.source(api); !strings.Contains(src, "max_completion_tokens=max_completion_tokens") || strings.Contains(src, "stream") || strings.Contains(src, "temperature") {
		r.fail(api, "LocalClient.call_openai", "the request is not (model, messages, max_completion_tokens)")
	}
}

func (r *reader) source(file string) string {
	b, err := os.ReadFile(filepath.Join(r.dir, filepath.FromSlash(file)))
	if err != nil {
		r.fail(file, "", "%v", err)
	}
	return string(b)
}

// MovieRecord renders a MovieLens rating as the release does: the title,
// release year and genres as the data holds them (genres '|'-separated as
// in ml-1m's movies.dat; the release ships no MovieLens converter, so this
// representation is the harness's assumption), and the rating.
func (p *Pack) MovieRecord(title, year, genres string, rating int) (context, result string) {
	context, _ = pysrc.Format(p.MovieContext, map[string]string{
		"context['movie_title']": title, "context['release_year']": year, "context['genres']": genres})
	result, _ = pysrc.Format(p.MovieResult, map[string]string{"act['rating']": strconv.Itoa(rating)})
	return context, result
}

// argDefault reads the default= of an argparse option from the source.
func (r *reader) argDefault(file, option string) int {
	for _, line := range strings.Split(r.source(file), "\n") {
		if !strings.Contains(line, `"`+option+`"`) {
			continue
		}
		_, rest, ok := strings.Cut(line, "default=")
		if !ok {
			break
		}
		end := strings.IndexAny(rest, ",)")
		if end < 0 {
			break
		}
		n, err := strconv.Atoi(strings.TrimSpace(rest[:end]))
		if err != nil {
			break
		}
		return n
	}
	r.fail(file, "", "no integer default for %s", option)
	return 0
}

// seedCall reads the integer argument of the first call starting with
// prefix (e.g. "random.seed(").
func (r *reader) seedCall(file, prefix string) int64 {
	s := r.source(file)
	i := strings.Index(s, prefix)
	if i < 0 {
		r.fail(file, "", "no %s…) call", prefix)
		return 0
	}
	rest := s[i+len(prefix):]
	end := strings.IndexByte(rest, ')')
	n, err := strconv.ParseInt(strings.TrimSpace(rest[:max(end, 0)]), 10, 64)
	if end < 0 || err != nil {
		r.fail(file, "", "the %s…) argument is not an integer", prefix)
		return 0
	}
	return n
}

// isIdent reports whether s looks like a field name (lower-case words
// joined by underscores).
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

func first(ss []string, ok func(string) bool) string {
	for _, s := range ss {
		if ok(s) {
			return s
		}
	}
	return ""
}

func filter(ss []string, ok func(string) bool) []string {
	var out []string
	for _, s := range ss {
		if ok(s) {
			out = append(out, s)
		}
	}
	return out
}

// readTextPrompts reads build_single_text_prompt's three prompt_parts
// lists (search keyword, next customer-service message, other text
// fields, in the order of its if/elif/else) and next_user_message's
// question f-strings.
func (p *Pack) readTextPrompts(r *reader) {
	const pb, fn = "prompt_builder.py", "build_single_text_prompt"
	var lists [][]Part
	for _, a := range r.file(pb).Assigns {
		if a.Scope != fn || a.Name != "prompt_parts" {
			continue
		}
		var parts []Part
		for _, it := range a.Value.Items {
			switch it.Kind {
			case pysrc.Str:
				parts = append(parts, Part{Text: it.Str})
			case pysrc.Name:
				parts = append(parts, Part{Slot: it.Expr})
			default:
				r.fail(pb, fn, "line %d: a prompt_parts item is a %s, want a string or a name", it.Line, it.Kind)
			}
		}
		lists = append(lists, parts)
	}
	slots := func(parts []Part) string {
		var s []string
		for _, pt := range parts {
			if pt.Slot != "" {
				s = append(s, pt.Slot)
			}
		}
		return strings.Join(s, ",")
	}
	if len(lists) != 3 || slots(lists[0]) != "user_profile_short,history_summary" ||
		slots(lists[1]) != "user_profile_short,history_summary,question_text" {
		r.fail(pb, fn, "want three prompt_parts lists (search keyword: profile, history; next message: profile, history, question), found %d", len(lists))
		return
	}
	r.expr(pb, fn, "prompt", `"\n".join(prompt_parts)`)
	p.TextSearchParts, p.TextDialogueParts = lists[0], lists[1]
	p.DialogueOpening = r.fstring(pb, "build_prediction_questions", "context_info")
	p.DialogueQuestion = r.fstring(pb, "build_prediction_questions", "context_info", "dialogue_text")
}
