package lifememrel

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/alfworld"
	"github.com/memharness/memharness/envs/apibank"
	"github.com/memharness/memharness/envs/dbbench"
	"github.com/memharness/memharness/envs/mind2web"
	"github.com/memharness/memharness/envs/miniwob"
	"github.com/memharness/memharness/envs/scienceworld"
	"github.com/memharness/memharness/envs/taubench"
	"github.com/memharness/memharness/envs/toolqa"
	"github.com/memharness/memharness/envs/webshop"
	"github.com/memharness/memharness/envs/wikienv"
	"github.com/memharness/memharness/internal/pysrc"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

// Trees are the opened sources by fetch name.
type Trees map[string]*Tree

// Options choose among a source's variants.
type Options struct {
	// TauAct uses τ-bench's ACT_INSTRUCTION instead of REACT_INSTRUCTION.
	TauAct bool
}

// builder makes one environment's Prompter from the trees.
type builder struct {
	// needs are the sources the Prompter reads.
	needs []string
	build func(tr Trees, s envs.Suite, o Options) (agent.Prompter, error)
}

// builders maps a stream environment to how its source assembles prompts.
// Environments not listed here keep the harness's own prompt under
// prompts: release, and say so (Prompters returns them).
var builders = map[string]builder{
	taubench.NameRetail:  {[]string{NameTauBench}, tauPrompter("retail")},
	taubench.NameAirline: {[]string{NameTauBench}, tauPrompter("airline")},
	dbbench.Name:         {[]string{NameLifelongAgentBench}, dbPrompter},
	wikienv.NameHotpotQA: {[]string{NameExpeL}, expelPrompter(wikienv.NameHotpotQA)},
	wikienv.NameFEVER:    {[]string{NameExpeL}, expelPrompter(wikienv.NameFEVER)},
	alfworld.Name:        {[]string{NameExpeL}, expelPrompter(alfworld.Name)},
	webshop.Name:         {[]string{NameExpeL}, expelPrompter(webshop.Name)},
	miniwob.Name:         {[]string{NameSynapse}, synapseMiniwobBuilder},
	mind2web.EnvName:     {[]string{NameSynapse}, synapseMind2webBuilder},
	toolqa.Name:          {[]string{NameLifeMem}, toolqaBuilder},
	scienceworld.Name:    {[]string{NameLifeMem}, scienceworldBuilder},
	apibank.Name:         {[]string{NameLifeMem}, apibankBuilder},
}

// Needs lists the sources the named environments read, sorted; sources
// without pinned digests are left out (their environments keep the own
// prompt).
func Needs(envNames []string) []string {
	seen := map[string]bool{}
	for _, e := range envNames {
		for _, n := range builders[e].needs {
			if src, _ := Find(n); src.Pinned() {
				seen[n] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Prompters builds the release Prompter of every suite that has one and
// lists the suites left on the harness's own prompt.
func Prompters(tr Trees, suites []envs.Suite, o Options) (map[string]agent.Prompter, []string, error) {
	out := map[string]agent.Prompter{}
	var own []string
	for _, s := range suites {
		b, ok := builders[s.Name()]
		if !ok {
			own = append(own, s.Name())
			continue
		}
		usable := true
		for _, n := range b.needs {
			src, _ := Find(n)
			if tr[n] == nil && !src.Pinned() {
				// No digests recorded for this source yet: the
				// environment keeps the own prompt (and is named).
				usable = false
				continue
			}
			if tr[n] == nil {
				return nil, nil, fmt.Errorf("prompts: release: %s needs the %s pack; %s", s.Name(), n, src.FetchHint())
			}
		}
		if !usable {
			own = append(own, s.Name())
			continue
		}
		p, err := b.build(tr, s, o)
		if err != nil {
			return nil, nil, fmt.Errorf("prompts: release: %s: %w", s.Name(), err)
		}
		out[s.Name()] = p
	}
	sort.Strings(own)
	return out, own, nil
}

// prompter is a Prompter made of a fixed opening and a per-step function.
type prompter struct {
	label string
	stop  []string
	build func(in agent.PromptInput) ([]llm.Message, error)
}

func (p *prompter) Label() string  { return p.label }
func (p *prompter) Stop() []string { return p.stop }
func (p *prompter) Messages(in agent.PromptInput) ([]llm.Message, error) {
	if len(in.Turns) == 0 {
		return nil, fmt.Errorf("%s: no first observation", p.label)
	}
	return p.build(in)
}

// lookup reads a string assignment, naming the file and scope on failure.
func lookupStr(t *Tree, file, scope, name string) (pysrc.Value, error) {
	pf := t.Py(file)
	if pf == nil {
		return pysrc.Value{}, fmt.Errorf("%s: not read", file)
	}
	v, ok := pf.Lookup(scope, name)
	if !ok {
		return pysrc.Value{}, fmt.Errorf("%s: no assignment to %s in %q", file, name, scope)
	}
	if v.Kind != pysrc.Str {
		return pysrc.Value{}, fmt.Errorf("%s:%d: %s is a %s, want a string", file, v.Line, name, v.Kind)
	}
	return v, nil
}

// episode appends the turns after the first observation: the agent's
// replies as assistant messages and the environment's answers as user
// messages, each as the environment wrote it.
func episode(msgs []llm.Message, turns []envs.Turn) []llm.Message {
	for _, t := range turns[1:] {
		role := "user"
		if t.Role == "agent" {
			role = "assistant"
		}
		msgs = append(msgs, llm.Message{Role: role, Content: t.Text})
	}
	return msgs
}

// memoryBlock renders retrieved experience for sources that have no place
// for it (τ-bench, LifelongAgentBench: the release ships no code for them,
// so where LifeMem put its memory there is unknown). The wording is the
// harness's; it is empty without experience, so the memory-free prompt
// stays the source's exactly.
func memoryBlock(in agent.PromptInput) string {
	var b strings.Builder
	b.WriteString(rulesBlock(in))
	for i, ex := range in.Exemplars {
		fmt.Fprintf(&b, "\nSolved example %d\nTask: %s\n", i+1, ex.Task)
		for _, m := range ex.Messages {
			who := "User"
			if m.Role == "assistant" {
				who = "Assistant"
			}
			b.WriteString(who + ": " + m.Content + "\n")
		}
	}
	return b.String()
}

// rulesBlock renders the skills or insights for sources that place
// exemplars but have no place for rules (Synapse's agents): the harness's
// wording, appended to the system message, empty without rules.
func rulesBlock(in agent.PromptInput) string {
	if len(in.Rules) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\nSkills learned from past experience:\n")
	for i, r := range in.Rules {
		fmt.Fprintf(&b, "%d. %s\n", i+1, r)
	}
	return b.String()
}

// tauPrompter is ChatReActAgent (tau_bench/agents/chat_react_agent.py):
// the system message is wiki + "\n#Available tools\n" +
// json.dumps(tools_info) + REACT_INSTRUCTION, the first user message is the
// customer's opening, then the model's replies and "API output: …" or the
// customer's answers. tools_info is the pinned source's (TauTools), not
// the data folder's; every tool it lists must be one the suite can run.
func tauPrompter(domain string) func(Trees, envs.Suite, Options) (agent.Prompter, error) {
	return func(tr Trees, s envs.Suite, o Options) (agent.Prompter, error) {
		t := tr[NameTauBench]
		tools, names, err := TauTools(tr, domain)
		if err != nil {
			return nil, err
		}
		if ts, ok := s.(interface{ ImplementedTools() []string }); ok {
			have := ts.ImplementedTools()
			for _, n := range names {
				if !slices.Contains(have, n) {
					return nil, fmt.Errorf("the pinned τ-bench %s tools list %q, which the harness cannot run", domain, n)
				}
			}
		}
		wiki, ok := t.Raw("tau_bench/envs/" + domain + "/wiki.md")
		if !ok {
			return nil, fmt.Errorf("tau_bench/envs/%s/wiki.md: not read", domain)
		}
		name, variant := "REACT_INSTRUCTION", "chat_react_agent"
		if o.TauAct {
			name, variant = "ACT_INSTRUCTION", "chat_react_agent (act)"
		}
		instr, err := lookupStr(t, "tau_bench/agents/chat_react_agent.py", "", name)
		if err != nil {
			return nil, err
		}
		args := map[string]string{}
		for _, n := range []string{"RESPOND_ACTION_NAME", "RESPOND_ACTION_FIELD_NAME"} {
			v, err := lookupStr(t, "tau_bench/types.py", "", n)
			if err != nil {
				return nil, err
			}
			args[n] = v.Str
		}
		react := instr.Str
		if instr.FString {
			if react, err = pysrc.Format(instr.Str, args); err != nil {
				return nil, fmt.Errorf("chat_react_agent.py:%d: %s: %w", instr.Line, name, err)
			}
		}
		system := string(wiki) + "\n#Available tools\n" + tools + react
		if u, ok := s.(interface{ UseSourceErrors() }); ok {
			// What the source's agent raises on ends its task (run.py).
			u.UseSourceErrors()
		}
		return tauReplies{&prompter{
			label: fmt.Sprintf("%s@%.7s %s", TauBench.Repository, tauCommit, variant),
			build: func(in agent.PromptInput) ([]llm.Message, error) {
				first := in.Turns[0].Text
				if i := strings.Index(first, taubench.ConversationMarker); i >= 0 {
					first = first[i+len(taubench.ConversationMarker):]
				}
				msgs := []llm.Message{{Role: "system", Content: system + memoryBlock(in)}, {Role: "user", Content: first}}
				return episode(msgs, in.Turns), nil
			},
		}}, nil
	}
}

// tauReplies hands the model's reply to the environment unchanged:
// generate_next_step reads message.content as it came (its own
// split("Action:") and strip; no "Assistant:" removal, reasoning blocks
// included) and keeps that message in the conversation.
type tauReplies struct{ *prompter }

// ParseReply implements agent.ReplyParser.
func (tauReplies) ParseReply(reply string) string { return reply }

// dbPrompter is LifelongAgentBench's DB task with the standard chat
// history (construct.py): user = TASK_REQUIREMENT_DICT[DB_BENCH] + the
// standard suffix, agent = "OK.", then the question (instruction, then the
// table's name and headers: the task's Instruction). Its
// LanguageModelAgent puts its system_prompt first (openai_language_model.py
// prefixes it when non-empty); no assignment config of the repository
// overrides language_model_agent.yaml's, so the LifeMem runs sent it too.
func dbPrompter(tr Trees, s envs.Suite, _ Options) (agent.Prompter, error) {
	t := tr[NameLifelongAgentBench]
	const reqFile = "src/factories/chat_history_item/offline/task_requirement.py"
	const conFile = "src/factories/chat_history_item/offline/construct.py"
	pf := t.Py(reqFile)
	if pf == nil {
		return nil, fmt.Errorf("%s: not read", reqFile)
	}
	d, ok := pf.Lookup("", "TASK_REQUIREMENT_DICT")
	if !ok || d.Kind != pysrc.Dict {
		return nil, fmt.Errorf("%s: no TASK_REQUIREMENT_DICT dict", reqFile)
	}
	requirement := ""
	for i, k := range d.Keys {
		if k.Expr == "TaskName.DB_BENCH" && d.Items[i].Kind == pysrc.Str {
			requirement = d.Items[i].Str
		}
	}
	if requirement == "" {
		return nil, fmt.Errorf("%s: TASK_REQUIREMENT_DICT has no TaskName.DB_BENCH string", reqFile)
	}
	suffix, err := lookupStr(t, conFile, "main", "standard_requirement_suffix")
	if err != nil {
		return nil, err
	}
	ack := ""
	for _, l := range t.Py(conFile).LiteralsIn("construct_offline") {
		if strings.HasSuffix(l.Str, ".") && len(l.Str) <= 4 {
			ack = l.Str
		}
	}
	if ack == "" {
		return nil, fmt.Errorf("%s: no agent acknowledgement in construct_offline", conFile)
	}
	opening := requirement + suffix.Str
	system, err := agentSystemPrompt(t)
	if err != nil {
		return nil, err
	}
	if a, ok := s.(interface{ AskPastLimit() }); ok {
		// The source's round check runs after the model call: at the limit
		// it asks once more and discards the reply.
		a.AskPastLimit()
	}
	return dbReplies{&prompter{
		label: fmt.Sprintf("%s@%.7s db_bench", LifelongAgentBench.Repository, lifelongCommit),
		build: func(in agent.PromptInput) ([]llm.Message, error) {
			var msgs []llm.Message
			if system != "" {
				msgs = append(msgs, llm.Message{Role: "system", Content: system})
			}
			msgs = append(msgs,
				llm.Message{Role: "user", Content: opening + memoryBlock(in)},
				llm.Message{Role: "assistant", Content: ack},
				llm.Message{Role: "user", Content: in.Task.Instruction},
			)
			return episode(msgs, in.Turns), nil
		},
	}}, nil
}

// dbReplies hands the model's reply to the task unchanged:
// openai_language_model.py puts choice.message.content into the chat
// history as it came, and DBBench._parse_agent_response reads that (no
// strip, no "Assistant:" removal, which the agent's default clean-up
// would do and which moves a leading "\nFinal Answer:" out of reach).
type dbReplies struct{ *prompter }

// ParseReply implements agent.ReplyParser.
func (dbReplies) ParseReply(reply string) string { return reply }

// TauCustomerPrompt is LLMUserSimulationEnv.build_system_prompt
// (tau_bench/envs/user.py): its f-string with instruction_display =
// "\n\nInstruction: " + instruction + "\n".
func TauCustomerPrompt(tr Trees) (func(instruction string) string, error) {
	t := tr[NameTauBench]
	if t == nil {
		return nil, fmt.Errorf("prompts: release: the customer needs the %s pack; %s", NameTauBench, TauBench.FetchHint())
	}
	const file, scope = "tau_bench/envs/user.py", "LLMUserSimulationEnv.build_system_prompt"
	pf := t.Py(file)
	if pf == nil {
		return nil, fmt.Errorf("%s: not read", file)
	}
	lits := pf.LiteralsIn(scope)
	// The literals in order: the two halves around the instruction, the
	// empty alternative, then the f-string.
	if len(lits) != 4 || !lits[3].FString || lits[2].Str != "" {
		return nil, fmt.Errorf("%s (%s): want 3 literals and an f-string, found %d", file, scope, len(lits))
	}
	fields, err := pysrc.Fields(lits[3].Str)
	if err != nil || strings.Join(fields, ",") != "instruction_display" {
		return nil, fmt.Errorf("%s:%d: the f-string's fields are %v, want instruction_display", file, lits[3].Line, fields)
	}
	before, after, tmpl := lits[0].Str, lits[1].Str, lits[3].Str
	return func(instruction string) string {
		out, _ := pysrc.Format(tmpl, map[string]string{"instruction_display": before + instruction + after})
		return out
	}, nil
}

// ToolSchemaWarnings names each τ-bench suite whose data folder carries a
// tools_schema.json that differs from the pinned source's tool list (the
// prompt shows the source's; the folder's is ignored), for the console
// and the manifest.
func ToolSchemaWarnings(tr Trees, suites []envs.Suite) []string {
	var out []string
	for _, s := range suites {
		ds, ok := s.(interface {
			DataToolsJSON() (string, bool)
			Domain() taubench.Domain
		})
		if !ok || tr[NameTauBench] == nil {
			continue
		}
		data, ok := ds.DataToolsJSON()
		if !ok {
			continue
		}
		src, _, err := TauTools(tr, string(ds.Domain()))
		if err != nil || src == data {
			continue
		}
		out = append(out, fmt.Sprintf("%s: the data folder's tools_schema.json differs from the pinned %s tool list (%d vs %d characters, first difference at %d); the prompt shows the source's",
			s.Name(), TauBench.Pin(), len(data), len(src), firstDiff(data, src)))
	}
	return out
}

// firstDiff is the byte offset of the first difference of a and b.
func firstDiff(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// agentSystemPrompt is LanguageModelAgent's system_prompt in
// configs/components/agents/language_model_agent.yaml (a double-quoted
// scalar under parameters).
func agentSystemPrompt(t *Tree) (string, error) {
	const file = "configs/components/agents/language_model_agent.yaml"
	raw, ok := t.Raw(file)
	if !ok {
		return "", fmt.Errorf("%s: not read", file)
	}
	for _, l := range strings.Split(string(raw), "\n") {
		v, ok := strings.CutPrefix(strings.TrimSpace(l), "system_prompt:")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if u, err := strconv.Unquote(v); err == nil {
			return u, nil
		}
		return "", fmt.Errorf("%s: system_prompt is not a double-quoted string: %s", file, v)
	}
	return "", fmt.Errorf("%s: no system_prompt", file)
}
