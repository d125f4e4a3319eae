package lifememrel

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/alfworld"
	"github.com/memharness/memharness/envs/webshop"
	"github.com/memharness/memharness/envs/wikienv"
	"github.com/memharness/memharness/internal/pysrc"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

// ExpeL's own benchmark names (utils.ENV_NAMES in its code): its configs,
// prompt modules, few-shot files and llm_parser are keyed by them. They are
// ExpeL's identifiers, which happen to be spelled as our environment kinds
// are; our side of the map below goes through the environments' constants.
const (
	expelHotpotQA = "hotpotqa"
	expelFEVER    = "fever"
	expelALFWorld = "alfworld"
	expelWebShop  = "webshop"
)

// expelBenchmarks maps a stream environment to ExpeL's benchmark name and
// prompt module.
var expelBenchmarks = map[string]struct{ name, module string }{
	wikienv.NameHotpotQA: {expelHotpotQA, "prompts/hotpotQA.py"},
	wikienv.NameFEVER:    {expelFEVER, "prompts/fever.py"},
	alfworld.Name:        {expelALFWorld, "prompts/alfworld.py"},
	webshop.Name:         {expelWebShop, "prompts/webshop.py"},
}

// expelPrompter is ExpeL's ReactAgent (agent/react.py): every message of
// its prompt history is a human message, and collapse_prompts joins
// consecutive ones with "\n", so the model sees ONE user message:
//
//	system_template(ai_name, SYSTEM_INSTRUCTION)
//	human_instruction_fewshots_template(HUMAN_INSTRUCTION(instruction="", max_steps), "\n\n".join(FEWSHOTS))
//	[RULE_TEMPLATE(rules)]                      (ExpeL at evaluation)
//	human_task_template(task_prefix + question)
//	then each step's "Thought k: …", "Action k: …", "Observation k: …" lines.
//
// ai_name, max_steps and task_prefix come from configs/benchmark/<name>.yaml.
// Retrieved trajectories replace the fixed few-shots (as ExpeL's
// evaluation does), each rendered as its task line then its steps.
func expelPrompter(env string) func(Trees, envs.Suite, Options) (agent.Prompter, error) {
	return func(tr Trees, s envs.Suite, _ Options) (agent.Prompter, error) {
		t := tr[NameExpeL]
		b := expelBenchmarks[env]
		if u, ok := s.(interface{ UseExpeLActions() }); ok {
			// HotpotQA's and FEVER's environments read the action with
			// parse_action (and FEVER then with ReAct's WikiEnv.step).
			u.UseExpeLActions()
		}
		cfgPath := "configs/benchmark/" + b.name + ".yaml"
		raw, _ := t.Raw(cfgPath)
		cfg := yamlScalars(raw)
		aiName, prefix := cfg["ai_name"], cfg["task_prefix"]
		maxSteps := cfg["max_steps"]
		if aiName == "" || maxSteps == "" {
			return nil, fmt.Errorf("%s: no ai_name or max_steps", cfgPath)
		}
		sysTmpl, err := lookupStr(t, "prompts/templates/system.py", "", "system_template")
		if err != nil {
			return nil, err
		}
		shotsTmpl, err := lookupStr(t, "prompts/templates/human.py", "", "human_instruction_fewshots_template")
		if err != nil {
			return nil, err
		}
		taskTmpl, err := lookupStr(t, "prompts/templates/human.py", "", "human_task_template")
		if err != nil {
			return nil, err
		}
		instr, err := lookupStr(t, b.module, "", "SYSTEM_INSTRUCTION")
		if err != nil {
			return nil, err
		}
		human, err := lookupStr(t, b.module, "", "human_instruction_template")
		if err != nil {
			return nil, err
		}
		shotsFor, err := expelFewshots(t, b.name, b.module)
		if err != nil {
			return nil, err
		}
		webshopTask := func(goal string) string { return goal }
		if b.name == expelWebShop {
			if webshopTask, err = expelWebshopTasks(t); err != nil {
				return nil, err
			}
		}
		ruleTmpl, err := expelRuleTemplate(t, b.name)
		if err != nil {
			return nil, err
		}
		format := func(v pysrc.Value, args map[string]string) (string, error) {
			s, err := pysrc.Format(v.Str, args)
			if err != nil {
				return "", fmt.Errorf("line %d: %w", v.Line, err)
			}
			return s, nil
		}
		system, err := format(sysTmpl, map[string]string{"ai_name": aiName, "instruction": instr.Str})
		if err != nil {
			return nil, err
		}
		humanText, err := format(human, map[string]string{"instruction": "", "max_steps": maxSteps})
		if err != nil {
			return nil, err
		}
		giveUp, err := expelGiveUpText(t)
		if err != nil {
			return nil, err
		}
		pr := &prompter{
			label: fmt.Sprintf("%s@%.7s ReactAgent/%s", ExpeL.Repository, expelCommit, b.name),
			// ReactAgent.prompt_agent's stop list: one line per call.
			stop: []string{"\n", "\n\n"},
			build: func(in agent.PromptInput) ([]llm.Message, error) {
				fewshots := shotsFor(in.Task)
				if len(in.Exemplars) > 0 {
					fewshots = nil
					for _, ex := range in.Exemplars {
						fewshots = append(fewshots, expelTrajectory(prefix, ex))
					}
				}
				block, err := format(shotsTmpl, map[string]string{"instruction": humanText, "fewshots": strings.Join(fewshots, "\n\n")})
				if err != nil {
					return nil, err
				}
				parts := []string{system, block}
				if len(in.Rules) > 0 && ruleTmpl.Str != "" {
					var rules []string
					for i, r := range in.Rules {
						rules = append(rules, strconv.Itoa(i+1)+". "+r)
					}
					rt, err := format(ruleTmpl, map[string]string{"rules": strings.Join(rules, "\n")})
					if err != nil {
						return nil, err
					}
					parts = append(parts, rt)
				}
				taskText := prefix + in.Task.Instruction
				switch b.name {
				case expelALFWorld:
					// ExpeL's ALFWorld task is the game's opening text
					// (goal before its "___" suffix): the first observation.
					taskText = prefix + in.Turns[0].Text
				case expelWebShop:
					taskText = prefix + webshopTask(in.Task.Instruction)
				}
				task, err := format(taskTmpl, map[string]string{"task": taskText})
				if err != nil {
					return nil, err
				}
				parts = append(parts, task)
				step := 0
				for i, turn := range in.Turns[1:] {
					if turn.Role == "agent" {
						step++
						parts = append(parts, turn.Text)
						continue
					}
					if gaveUp(in.Turns[i]) {
						turn.Text = giveUp
					}
					switch b.name {
					case expelALFWorld:
						parts = append(parts, turn.Text) // OBSERVATION_FORMATTER: as is
						continue
					case expelWebShop:
						parts = append(parts, "Observation: "+turn.Text+"\n")
						continue
					}
					parts = append(parts, "Observation "+strconv.Itoa(step)+": "+strings.TrimRight(turn.Text, ":"))
				}
				// This step's thoughts so far.
				parts = append(parts, in.Pending...)
				return []llm.Message{{Role: "user", Content: strings.Join(parts, "\n")}}, nil
			},
		}
		return expelStepper{prompter: pr, bench: b.name}, nil
	}
}

// expelFewshots returns the few-shots ExpeL's ReactAgent shows for a
// task: FEWSHOTS (a list) for HotpotQA and FEVER; for ALFWorld, FEWSHOTS
// is {k: [d[f'react_{v}_{i}'] for i in range(2)] for k, v in
// PREFIXES.items()} keyed by the task type, the first of utils.ENV_NAMES
// found in the game file path (the task ID here).
func expelFewshots(t *Tree, bench, module string) (func(envs.Task) []string, error) {
	pf := t.Py(module)
	if pf == nil {
		return nil, fmt.Errorf("%s: not read", module)
	}
	fv, ok := pf.Lookup("", "FEWSHOTS")
	if !ok {
		return nil, fmt.Errorf("%s: no FEWSHOTS", module)
	}
	if bench != expelALFWorld {
		if fv.Kind != pysrc.List {
			return nil, fmt.Errorf("%s:%d: FEWSHOTS is a %s, want a list", module, fv.Line, fv.Kind)
		}
		shots, err := fv.Strings()
		if err != nil {
			return nil, fmt.Errorf("%s: FEWSHOTS: %w", module, err)
		}
		return func(envs.Task) []string { return shots }, nil
	}
	const want = "{k: [d[f'react_{v}_{i}'] for i in range(2)] for k, v in PREFIXES.items()}"
	if fv.Expr != want {
		return nil, fmt.Errorf("%s:%d: FEWSHOTS is not %s", module, fv.Line, want)
	}
	d, ok := pf.Lookup("", "d")
	prefixes, ok2 := pf.Lookup("", "PREFIXES")
	names, ok3 := t.Py("utils.py").Lookup("", "ENV_NAMES")
	if !ok || !ok2 || !ok3 || d.Kind != pysrc.Dict || prefixes.Kind != pysrc.Dict || names.Kind != pysrc.List {
		return nil, fmt.Errorf("%s: want the dicts d and PREFIXES and utils.py's ENV_NAMES list", module)
	}
	envNames, err := names.Strings()
	if err != nil {
		return nil, fmt.Errorf("utils.py: ENV_NAMES: %w", err)
	}
	return func(task envs.Task) []string {
		for _, k := range envNames {
			if !strings.Contains(task.ID, k) {
				continue
			}
			v, _ := prefixes.Get(k)
			var out []string
			for i := range 2 {
				if s, ok := d.Get("react_" + v.Str + "_" + strconv.Itoa(i)); ok {
					out = append(out, s.Str)
				}
			}
			return out
		}
		return nil
	}, nil
}

// expelWebshopTasks maps a goal to its task text in ExpeL's fixed
// sessions (data/webshop/webshop.fixed100.json: the goal, then the search
// page's " \n[Search]\n"); a goal outside them gets the same ending, the
// one every fixed session has.
func expelWebshopTasks(t *Tree) (func(goal string) string, error) {
	const file = "data/webshop/webshop.fixed100.json"
	raw, _ := t.Raw(file)
	var rows []struct {
		Task string `json:"task"`
	}
	if err := json.Unmarshal(raw, &rows); err != nil || len(rows) == 0 {
		return nil, fmt.Errorf("%s: want a list of {task: ...}: %v", file, err)
	}
	// The ending is the tasks' longest common suffix from its first
	// " \n" (the goals themselves may share their last words).
	common := rows[0].Task
	for _, r := range rows[1:] {
		for !strings.HasSuffix(r.Task, common) {
			common = common[1:]
		}
	}
	i := strings.Index(common, " \n")
	if i < 0 {
		return nil, fmt.Errorf("%s: the tasks share no search-page ending", file)
	}
	end := common[i:]
	byGoal := map[string]string{}
	for _, r := range rows {
		byGoal[strings.TrimSuffix(r.Task, end)] = r.Task
	}
	return func(goal string) string {
		if task, ok := byGoal[goal]; ok {
			return task
		}
		return goal + end
	}, nil
}

// expelTrajectory renders a retrieved trajectory as ExpeL's few-shots read:
// the task line, then the steps.
func expelTrajectory(prefix string, ex agent.Trajectory) string {
	lines := []string{prefix + ex.Task}
	step := 0
	for i, m := range ex.Messages {
		switch {
		case i == 0 && m.Role == "user":
			// the task, already shown
		case m.Role == "assistant":
			step++
			lines = append(lines, strings.TrimSpace(m.Content))
		default:
			lines = append(lines, "Observation "+strconv.Itoa(step)+": "+strings.TrimSpace(m.Content))
		}
	}
	return strings.Join(lines, "\n")
}

// expelRuleTemplate finds RULE_TEMPLATE[name]'s template: the string
// literal on the line of the "name=" entry of the dict(...) call.
func expelRuleTemplate(t *Tree, name string) (pysrc.Value, error) {
	const file = "prompts/templates/human.py"
	raw, _ := t.Raw(file)
	lines := strings.Split(string(raw), "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "RULE_TEMPLATE = dict(") {
			start = i
		}
		if start >= 0 && strings.HasPrefix(strings.TrimSpace(l), name+"=") {
			for _, lit := range t.Py(file).Literals {
				if lit.Scope == "" && lit.Value.Line == i+1 {
					return lit.Value, nil
				}
			}
		}
	}
	return pysrc.Value{}, fmt.Errorf("%s: no RULE_TEMPLATE entry %s", file, name)
}

// yamlScalars reads the top-level "key: value" lines of a YAML file
// (quoted values unquoted with Go's rules, which match YAML's for the
// escapes these files use).
func yamlScalars(b []byte) map[string]string {
	out := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if l == "" || l[0] == ' ' || l[0] == '#' {
			continue
		}
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if strings.HasPrefix(v, `"`) {
			if u, err := strconv.Unquote(v); err == nil {
				v = u
			}
		}
		out[strings.TrimSpace(k)] = v
	}
	return out
}

// expelStepper is ReactAgent.step (agent/react.py): one call per line,
// stopped at "\n" (prompt_agent's stop list), each reply cleaned as
// GPTWrapper does and read by the benchmark's LLM_PARSER (ExpeLParse); a
// thought is appended and the model asked again, at most three calls
// (thought_num > 2), after which the environment gets "N/A" and the
// next observation is the source's give-up sentence.
type expelStepper struct {
	*prompter
	bench string
}

// expelMaxCalls and expelGiveUp are ReactAgent.step's limit and the action
// it sends after it.
const (
	expelMaxCalls = 3
	expelGiveUp   = "N/A"
)

// ParseLine implements agent.LineStepper.
func (p expelStepper) ParseLine(reply string, step int) (string, bool, string) {
	return ExpeLParse(p.bench, expelClean(reply), step)
}

// MaxCalls implements agent.LineStepper.
func (p expelStepper) MaxCalls() int { return expelMaxCalls }

// GiveUp implements agent.LineStepper.
func (p expelStepper) GiveUp() string { return expelGiveUp }

// gaveUp reports whether an agent turn is ReactAgent's give-up: the
// maximum number of thought lines and "N/A" sent.
func gaveUp(turn envs.Turn) bool {
	return turn.Role == "agent" && turn.Action == expelGiveUp && strings.Count(turn.Text, "\n") == expelMaxCalls-1
}

// expelGiveUpText is the observation ReactAgent.step writes after a
// give-up: the string assigned to observation in ReactAgent.step.
func expelGiveUpText(t *Tree) (string, error) {
	const file = "agent/react.py"
	v, err := lookupStr(t, file, "ReactAgent.step", "observation")
	if err != nil {
		return "", err
	}
	return v.Str, nil
}
