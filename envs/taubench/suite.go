package taubench

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/memharness/memharness/envs"
)

// MaxSteps is the paper's step limit for both domains.
const MaxSteps = 30

// Suite is one τ-bench domain with its tasks. It is immutable after
// loading and safe for concurrent episodes.
type Suite struct {
	name   string
	d      *data
	tasks  []envs.Task
	prompt string // SystemPrompt, built once
	// customerPrompt, when set, replaces the customer model's system
	// prompt (the source's, under prompts: release); it is then sent with
	// the source's request shape (no temperature, no seed).
	customerPrompt func(instruction string) string
	sourceErrors   bool // see UseSourceErrors
}

// SetCustomerPrompt makes model customers use f(instruction) as their
// system prompt and the source's request shape (no sampling parameters).
func (s *Suite) SetCustomerPrompt(f func(instruction string) string) { s.customerPrompt = f }

var (
	_ envs.Suite         = (*Suite)(nil)
	_ envs.Oracle        = (*Suite)(nil)
	_ envs.OracleOptions = (*Suite)(nil)
)

// Open loads the official data of one domain from dir (a folder laid out
// like shared/fixtures/envs/taubench/retail or .../airline); the domain is
// told by the files present.
func Open(dir string) (*Suite, error) { return open(dir, "") }

// OpenRetail loads the retail domain from dir.
func OpenRetail(dir string) (*Suite, error) { return open(dir, Retail) }

// OpenAirline loads the airline domain from dir.
func OpenAirline(dir string) (*Suite, error) { return open(dir, Airline) }

func open(dir string, domain Domain) (*Suite, error) {
	d, err := loadDir(dir, domain)
	if err != nil {
		return nil, err
	}
	return newSuite(d), nil
}

// Registry names of the two suites.
const (
	NameRetail  = "taubench-retail"
	NameAirline = "taubench-airline"
)

// EnvName is the registry name of a domain's suite.
func EnvName(d Domain) string { return "taubench-" + string(d) }

func newSuite(d *data) *Suite {
	s := &Suite{name: EnvName(d.domain), d: d}
	s.prompt = s.buildPrompt()
	for _, r := range d.tasks {
		s.tasks = append(s.tasks, envs.Task{
			ID:          fmt.Sprintf("%s-%d", r.Split, r.Index),
			Env:         s.name,
			Split:       r.Split,
			Instruction: FirstPerson(r.Instruction),
			Difficulty:  len(r.Actions),
			Data:        r,
		})
	}
	return s
}

// HidesInstruction is true: the instruction is the customer's goal, which
// the agent learns only from the conversation, as in τ-bench.
func (s *Suite) HidesInstruction() bool { return true }

// Opening is the customer's first message: what follows ConversationMarker
// in the first observation (all of it when the marker is missing).
func (s *Suite) Opening(firstObservation string) string {
	if i := strings.Index(firstObservation, ConversationMarker); i >= 0 {
		return firstObservation[i+len(ConversationMarker):]
	}
	return firstObservation
}

// Name is "taubench-retail" or "taubench-airline".
func (s *Suite) Name() string { return s.name }

// Domain is the suite's domain.
func (s *Suite) Domain() Domain { return s.d.domain }

// Tasks lists the tasks: retail test, train, dev; airline test.
func (s *Suite) Tasks() []envs.Task { return append([]envs.Task(nil), s.tasks...) }

// MaxSteps is 30 for both domains.
func (s *Suite) MaxSteps() int { return MaxSteps }

func record(t envs.Task) (*TaskRecord, error) {
	r, ok := t.Data.(*TaskRecord)
	if !ok || r == nil {
		return nil, fmt.Errorf("taubench: task %q does not come from a taubench suite", t.ID)
	}
	return r, nil
}

// ConversationMarker separates the first observation's system prompt
// from the customer's opening message.
const ConversationMarker = "\n\n#Conversation\nCustomer: "

// ToolsJSON is the tool list as τ-bench's agents show it
// (json.dumps(tools_info)).
func (s *Suite) ToolsJSON() string { return Dumps(s.d.schemas) }

// DataToolsJSON is the tool list of the data folder's tools_schema.json
// (false: the folder has none, as 'bench data fetch' lays it out), for a
// comparison with the pinned source's.
func (s *Suite) DataToolsJSON() (string, bool) {
	if !s.d.schemaFile {
		return "", false
	}
	return Dumps(s.d.schemas), true
}

// ImplementedTools lists every tool of the suite's domain the harness can
// run, sorted.
func (s *Suite) ImplementedTools() []string { return newToolset(s.d.domain.tools()).names() }

// SystemPrompt is what the agent is told before the conversation: the
// policy, the tool list and the action syntax. The first observation of
// every episode starts with it.
func (s *Suite) SystemPrompt() string { return s.prompt }

func (s *Suite) buildPrompt() string {
	var b strings.Builder
	b.WriteString(strings.TrimRight(s.d.wiki, "\n"))
	b.WriteString("\n\n#Available tools\n")
	b.WriteString(Dumps(s.d.schemas))
	b.WriteString("\n\n#Instruction\n")
	b.WriteString("You are the agent: help the customer by following the policy above. Each turn, do exactly one of:\n")
	b.WriteString("- call one tool, written as\nAction:\n{\"name\": <tool name>, \"arguments\": <arguments as a JSON object>}\n")
	b.WriteString("- write a plain message to the customer (no \"Action:\").\n")
	b.WriteString("Tool results come back as \"API output: ...\"; the customer's messages come back as they are.")
	return b.String()
}

// NewEpisode starts t on a fresh database. The customer is opts.Model when
// set, else the scripted customer.
func (s *Suite) NewEpisode(ctx context.Context, t envs.Task, opts envs.Options) (envs.Episode, error) {
	r, err := record(t)
	if err != nil {
		return nil, err
	}
	var c customer = &scriptedCustomer{instruction: r.Instruction}
	if opts.Model != nil {
		mc := newModelCustomer(opts.Model, s.name, t.ID, r.Instruction, opts.Seed)
		if s.customerPrompt != nil {
			mc.msgs[0].Content = s.customerPrompt(r.Instruction)
		}
		if opts.UserParams != nil {
			mc.params = opts.UserParams
		}
		c = mc
	}
	first, err := c.open(ctx)
	if err != nil {
		return nil, fmt.Errorf("taubench: %s: %w", t.ID, err)
	}
	e := &episode{s: s, rec: r, db: s.d.base.Fresh(), cust: c}
	e.obs = s.SystemPrompt() + ConversationMarker + first
	if strings.Contains(first, Stop) {
		e.finish()
	}
	return e, nil
}

// Gold returns the oracle's actions: every gold tool call except terminal
// ones, then a reply carrying the required outputs (which ends the
// scripted conversation), then the terminal call if the task has one.
func (s *Suite) Gold(t envs.Task) ([]string, error) {
	r, err := record(t)
	if err != nil {
		return nil, err
	}
	var out []string
	var terminal []string
	for _, a := range r.Actions {
		tl := s.d.tools[a.Name]
		if tl == nil {
			return nil, fmt.Errorf("taubench: %s: unknown gold tool %q", t.ID, a.Name)
		}
		if tl.terminal {
			terminal = append(terminal, a.Format())
			continue
		}
		out = append(out, a.Format())
	}
	reply := "Your request has been handled. Thank you for contacting us."
	if len(r.Outputs) > 0 {
		reply = "Here is what you asked for: " + strings.Join(r.Outputs, "; ") + "."
	}
	if strings.Contains(reply, "?") || strings.Contains(reply, "Action:") {
		return nil, errors.New("taubench: " + t.ID + ": an output would derail the scripted customer")
	}
	out = append(out, reply)
	return append(out, terminal...), nil
}

// GoldOptions runs oracle episodes with the scripted customer.
func (s *Suite) GoldOptions(envs.Task) envs.Options { return envs.Options{Seed: 1} }

// GoldErrors lists the tasks whose gold actions include a database write
// that fails on the suite's own data (an inconsistency of the official
// tasks: the gold state then keeps that part unchanged), with the first
// failing action and its error.
func (s *Suite) GoldErrors() map[string]string {
	out := map[string]string{}
	for _, t := range s.tasks {
		r := t.Data.(*TaskRecord)
		_, outs := s.GoldState(r)
		for i, o := range outs {
			if strings.HasPrefix(o, "Error") && isWrite(r.Actions[i].Name) {
				out[t.ID] = fmt.Sprintf("gold action %d (%s): %s", i, r.Actions[i].Name, o)
				break
			}
		}
	}
	return out
}

// isWrite tells the tools that change the database.
func isWrite(tool string) bool {
	for _, p := range []string{"cancel_", "modify_", "exchange_", "return_", "book_", "update_", "send_"} {
		if strings.HasPrefix(tool, p) {
			return true
		}
	}
	return false
}
