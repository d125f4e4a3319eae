package pramemrel

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/memharness/memharness/internal/pysrc"
)

// Templates renders the pack as one file of {{define}} blocks that replace
// the harness's named templates (methods/predict's and methods/pramem's),
// so the harness's own pipeline sends the release's text. Every literal is
// emitted as a quoted template constant, so nothing in the authors' text
// can be read as template syntax. The PraMem blocks use the template
// functions trimspace, trimsuffix and replace of package pramem.
func (p *Pack) Templates() (string, error) {
	b := &builder{}
	scene := map[string]string{"timestamp": "{{.Time}}", "action_type": "{{.Scene}}", "context_str": "{{.Context}}"}
	slots := map[string]string{"user_profile_short": "{{.Profile}}", "history_summary": "{{.History}}", "yes_no_question": "{{.Question}}"}

	// OmniBehavior yes/no prompt and MovieLens rating prompt.
	for _, t := range []struct {
		name  string
		parts []Part
	}{{"binary", p.BinaryParts}, {"rating", p.MovieParts}} {
		var body strings.Builder
		for i, part := range t.parts {
			if i > 0 {
				body.WriteString(lit(p.PartsSep))
			}
			switch {
			case part.Slot == "":
				body.WriteString(lit(part.Text))
			case part.Slot == "scenario_desc":
				body.WriteString(b.fill(t.name, p.Scenario, scene))
			case slots[part.Slot] != "":
				body.WriteString(slots[part.Slot])
			default:
				b.errf("%s: prompt_parts slot %q is not one the harness fills", t.name, part.Slot)
			}
		}
		b.define(t.name, body.String())
	}
	rec := map[string]string{"i": "{{.Index}}", "timestamp": "{{.Time}}", "action_type": "{{.Scene}}", "context_str": "{{.Context}}", "result_str": "{{.Result}}"}
	b.define("record", "{{if .Index}}"+b.fill("record", p.Record, rec)+"{{else}}"+b.fill("record", p.RecordCost, rec)+"{{end}}")
	// The harness puts the blank line between header and records itself.
	b.define("history_header", b.fill("history_header", strings.TrimSuffix(p.HistoryHeader, "\n"),
		map[string]string{"len(display_actions)": "{{.N}}", "current_tokens": "{{.Tokens}}"}))
	// The harness shows an empty block only when no record fits or the
	// budget is zero: the release's "records, none shown" sentence.
	b.define("no_history", lit(p.NoValidHistory))

	// PraMem: memory rendering and the evaluation block.
	if p.EvalJoin != "{prompt}\n\n{exp_memory_prompt}" {
		b.errf("evaluator.py joins the memory block as %q; the harness appends it after a blank line", p.EvalJoin)
	}
	m := p.Memory
	item := func(list string) string {
		return "{{range $i, $e := " + list + "}}" + lit(m.Sep) + b.fill("memory", m.Item, map[string]string{"i": "{{inc $i}}", "exp": "{{$e}}"}) + "{{end}}"
	}
	section := func(heading, list string) string {
		return lit(m.Sep+heading) + "{{if " + list + "}}" + item(list) + "{{else}}" + lit(m.Sep+m.None) + "{{end}}"
	}
	b.define("memory", lit(m.Title)+section(m.Pattern, ".Pattern")+section(m.Calibration, ".Calibration")+
		"{{if .WithProposal}}"+section(m.Proposals, ".Proposal")+"{{end}}")
	b.stage("eval", p.Stage["prompt_for_evaluate_after_main"], map[string]string{"memory": "{{.Memory}}"})
	b.stage("trial", p.Stage["prompt_for_predict"], map[string]string{
		"practice_item_simulated_input": "{{.Input}}", "exp_memory_text": "{{.Memory}}"})
	b.stage("reflect", p.Stage["prompt_for_reflect"], map[string]string{
		"exp_memory_text": "{{.Memory}}", "practice_item_simulated_input": "{{.Input}}",
		"predict_response": "{{.Trial}}", "practice_item_simulated_label": "{{.Label}}"})
	b.stage("review", p.Stage["prompt_for_review"], map[string]string{"exp_memory_text": "{{.Memory}}", "proposal_text": "{{.Pool}}"})
	b.stage("scenes", p.Stage["prompt_for_generate_virtual_scenes"], map[string]string{"real_scene_text": "{{.RealText}}", "num_virtual_scenes": "{{.M}}"})
	// The release joins the options with newlines; the harness passes
	// them one per line.
	b.stage("generalize", p.Stage["prompt_for_check_generalization"], map[string]string{
		"options_text": `{{trimsuffix .Options "\n"}}`, "proposals_text": "{{.Proposals}}"})
	b.stage("perturb", p.Stage["prompt_for_generate_perturbations"], map[string]string{"history_text": "{{.History}}", "num_perturbations": "{{.N}}"})
	b.stage("perturb_judge", p.Stage["prompt_for_check_perturbation"], map[string]string{
		"history_text": "{{.History}}", "perturbation_desc": "{{.Desc}}", "perturbation_details": "{{.Details}}",
		"original_proposals_text": "{{.Proposals}}"})

	// Practice input: the prompt up to the history block, stripped, a
	// blank line, then one task (the release strips the trailing blank
	// lines of the last task). A rating question adds no line of its own.
	task := strings.TrimRight(p.PracticeTask, "\n")
	part2 := b.fill("practice_task", p.Scenario, scene) + `{{range .Questions}}{{if .}}` + lit("\n") + `{{.}}{{end}}{{end}}`
	b.define("practice_task", b.fill("practice_task", task, map[string]string{"task_id": "{{.K}}", "prompt_part2": part2}))
	b.define("practice_input", b.fill("practice_input", p.PracticeJoin, map[string]string{
		"simulated_input_part1": "{{trimspace .Before}}", "simulated_input_part2": "{{.Task}}"}))
	b.define("practice_question_rating", "")
	// A target whose only questions are text ones (a search keyword, the
	// next customer-service message): the input begins as the release's
	// text-question prompt for the field, and the task lists each
	// question's line (the search one a fixed sentence, the dialogue one
	// its question with the order and the earlier turns), with no scene.
	textSlots := map[string]string{"user_profile_short": "{{.Profile}}", "history_summary": "{{.History}}", "question_text": "{{.Question}}"}
	textPrompt := func(name string, parts []Part) string {
		var body strings.Builder
		for i, part := range parts {
			if i > 0 {
				body.WriteString(lit(p.PartsSep))
			}
			switch {
			case part.Slot == "":
				body.WriteString(lit(part.Text))
			case textSlots[part.Slot] != "":
				body.WriteString(textSlots[part.Slot])
			default:
				b.errf("%s: prompt_parts slot %q is not one the harness fills", name, part.Slot)
			}
		}
		return body.String()
	}
	b.define("practice_text_prompt", `{{if eq .Field "search_keyword"}}`+textPrompt("text search", p.TextSearchParts)+
		`{{else if eq .Field "next_user_message"}}`+textPrompt("text dialogue", p.TextDialogueParts)+`{{end}}`)
	b.define("practice_text_question", `{{if eq .Field "search_keyword"}}`+lit(p.SearchPractice)+
		`{{else if eq .Field "next_user_message"}}{{if .HasDialogue}}`+
		b.fill("dialogue question", p.DialogueQuestion, map[string]string{"context_info": "{{.Context}}", "dialogue_text": "{{.Dialogue}}"})+
		"{{else}}"+b.fill("dialogue opening", p.DialogueOpening, map[string]string{"context_info": "{{.Context}}"})+"{{end}}{{end}}")
	b.define("practice_task_text", b.fill("practice_task_text", task, map[string]string{"task_id": "{{.K}}",
		"prompt_part2": `{{range $i, $q := .Questions}}{{if $i}}` + lit("\n") + `{{end}}{{$q}}{{end}}`}))
	// Every question of a practice target, in the release's order: the
	// yes/no sentence, or the continuous one (seconds watched).
	b.define("practice_field_order", lit(strings.Join(p.FieldOrder, ",")))
	var qb strings.Builder
	fields := slices.Sorted(maps.Keys(p.Questions))
	for _, f := range fields {
		fmt.Fprintf(&qb, "{{if eq .Field %s}}%s{{else}}", strconv.Quote(f), lit(p.Questions[f]))
	}
	cfields := slices.Sorted(maps.Keys(p.Continuous))
	for _, f := range cfields {
		fmt.Fprintf(&qb, "{{if eq .Field %s}}%s{{else}}", strconv.Quote(f), lit(p.Continuous[f]))
	}
	qb.WriteString("{{if .Continuous}}" + b.fill("practice_question", p.ContinuousFallback, map[string]string{"field": "{{.Field}}"}) +
		"{{else}}" + b.fill("practice_question", p.QuestionFallback, map[string]string{"field": "{{.Field}}"}) + "{{end}}")
	qb.WriteString(strings.Repeat("{{end}}", len(fields)+len(cfields)))
	b.define("practice_question", qb.String())
	// The label: the intro sentence, then the target rendered as history
	// record 1 with the release's replacement applied to every piece.
	repl := func(s string) string { return strings.ReplaceAll(s, p.LabelFrom, p.LabelTo) }
	q := func(s string) string { return strconv.Quote(s) }
	labelFields := map[string]string{"i": "{{.K}}"}
	for name, f := range map[string]string{"timestamp": ".Time", "action_type": ".Scene", "context_str": ".Context", "result_str": ".Result"} {
		labelFields[name] = "{{replace " + f + " " + q(p.LabelFrom) + " " + q(p.LabelTo) + "}}"
	}
	b.define("practice_label", lit(p.LabelIntro+"\n")+b.fillWith("practice_label", p.Record, labelFields, repl))

	// Markers the parsers use to find parts of a practice input, taken
	// from the pieces that build it.
	b.define("marker_history", lit(b.partBefore(p.BinaryParts, "history_summary", 2)))
	b.define("marker_details", lit(b.literalBefore("marker_details", p.Record, "context_str")))
	b.define("marker_scene", lit(b.literalBefore("marker_scene", p.Scenario, "context_str")))
	b.define("marker_task", lit(strings.TrimSpace(b.literalBefore("marker_task", p.PracticeTask, "task_id"))))
	if len(b.errs) > 0 {
		return "", fmt.Errorf("pramem release pack: %s", strings.Join(b.errs, "; "))
	}
	return b.out.String(), nil
}

// Question is the release's yes/no sentence for field
// (_get_yes_no_question_by_field).
func (p *Pack) Question(field string) string {
	if q, ok := p.Questions[field]; ok {
		return q
	}
	s, err := pysrc.Format(p.QuestionFallback, map[string]string{"field": field})
	if err != nil {
		return p.QuestionFallback
	}
	return s
}

type builder struct {
	out  strings.Builder
	errs []string
}

func (b *builder) errf(format string, a ...any) { b.errs = append(b.errs, fmt.Sprintf(format, a...)) }

func (b *builder) define(name, body string) {
	fmt.Fprintf(&b.out, "{{define %q}}%s{{end}}\n", name, body)
}

// stage defines a PraMem stage template from a str.format template.
func (b *builder) stage(name, tmpl string, fields map[string]string) {
	b.define(name, b.fill(name, tmpl, fields))
}

// fill turns a Python format template into template text: literals
// quoted, each field replaced by its mapped template action.
func (b *builder) fill(name, tmpl string, fields map[string]string) string {
	return b.fillWith(name, tmpl, fields, nil)
}

func (b *builder) fillWith(name, tmpl string, fields map[string]string, literal func(string) string) string {
	pieces, err := pysrc.SplitFormat(tmpl)
	if err != nil {
		b.errf("%s: %v", name, err)
		return ""
	}
	var s strings.Builder
	for _, pc := range pieces {
		if !pc.IsField {
			t := pc.Literal
			if literal != nil {
				t = literal(t)
			}
			s.WriteString(lit(t))
			continue
		}
		act, ok := fields[pc.Field]
		if !ok || pc.Conv != "" || pc.Spec != "" {
			b.errf("%s: field {%s} of the release's template has no counterpart in the harness", name, pc.Field)
			continue
		}
		s.WriteString(act)
	}
	return s.String()
}

// literalBefore is the text between the last newline before field and
// field in tmpl (a marker such as "  详情：").
func (b *builder) literalBefore(name, tmpl, field string) string {
	pieces, _ := pysrc.SplitFormat(tmpl)
	for i, pc := range pieces {
		if pc.IsField && pc.Field == field && i > 0 && !pieces[i-1].IsField {
			t := pieces[i-1].Literal
			if j := strings.LastIndex(strings.TrimSuffix(t, "\n"), "\n"); j >= 0 {
				t = t[j+1:]
			}
			return strings.TrimSuffix(t, "\n")
		}
	}
	b.errf("%s: no literal before {%s}", name, field)
	return ""
}

// partBefore is the literal part back places before slot.
func (b *builder) partBefore(parts []Part, slot string, back int) string {
	for i, pt := range parts {
		if pt.Slot == slot && i >= back && parts[i-back].Slot == "" {
			return parts[i-back].Text
		}
	}
	b.errf("no literal part %d before %s", back, slot)
	return ""
}

func lit(s string) string {
	if s == "" {
		return ""
	}
	return "{{" + strconv.Quote(s) + "}}"
}
