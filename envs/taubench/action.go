package taubench

import (
	"errors"
	"fmt"
	"github.com/memharness/memharness/internal/pystr"
	"strings"
)

// Respond is the pseudo-tool name of a reply to the customer.
const Respond = "respond"

// Action is one parsed agent action: a tool call, or a reply to the
// customer (Name == Respond, the text in Kwargs["content"]).
type Action struct {
	Name   string
	Kwargs *Object
	// Raw holds the arguments when the agent sent something other than
	// a JSON object (Kwargs is nil then).
	Raw Value
}

// Args is what the tool call spreads with **: Kwargs, or the raw value.
func (a Action) Args() Value {
	if a.Kwargs != nil {
		return a.Kwargs
	}
	return a.Raw
}

// Content is the reply text of a Respond action.
func (a Action) Content() string {
	if a.Kwargs == nil {
		return ""
	}
	s, _ := a.Kwargs.vals["content"].(string)
	return s
}

// ParseAction reads an agent message the way τ-bench's Act/ReAct agents
// do: take the text after the last "Action:", trimmed; if it is not valid
// JSON the whole remainder is a reply to the customer. Valid JSON must be
// an object with a string "name" and an object "arguments" (the reference
// agent crashes otherwise; here it is an error for an invalid step).
func ParseAction(text string) (Action, error) {
	s := text
	if i := strings.LastIndex(s, "Action:"); i >= 0 {
		s = s[i+len("Action:"):]
	}
	s = pystr.Strip(s) // Python's str.strip()
	v, err := Decode([]byte(s))
	if errors.Is(err, ErrTooDeep) {
		// json.loads raises RecursionError, which generate_next_step does
		// not catch (only JSONDecodeError makes the text a reply).
		return Action{}, fmt.Errorf("action: %w", err)
	}
	if err != nil {
		return Action{Name: Respond, Kwargs: NewObject().Set("content", s)}, nil
	}
	o, ok := v.(*Object)
	if !ok {
		return Action{}, fmt.Errorf("action must be a JSON object with \"name\" and \"arguments\", got %s", typeName(v))
	}
	nv, ok := o.Get("name")
	if !ok {
		return Action{}, errors.New(`action has no "name"`)
	}
	name, ok := nv.(string)
	if !ok {
		return Action{}, fmt.Errorf(`action "name" must be a string, got %s`, typeName(nv))
	}
	av, ok := o.Get("arguments")
	if !ok {
		return Action{}, errors.New(`action has no "arguments"`)
	}
	kw, ok := av.(*Object)
	if !ok {
		// τ-bench builds Action(name=..., kwargs=...), whose pydantic
		// model rejects arguments that are not an object: the agent
		// raises there.
		return Action{}, fmt.Errorf(`action "arguments" must be a JSON object, got %s`, typeName(av))
	}
	// A respond's arguments are kept as sent: τ-bench reads "content"
	// only when it steps the environment (the episode checks it).
	return Action{Name: name, Kwargs: kw}, nil
}

// Format writes a tool call in the agent action syntax.
func (a Action) Format() string {
	if a.Name == Respond {
		return a.Content()
	}
	var kw Value = a.Kwargs
	if a.Kwargs == nil {
		kw = a.Raw
		if kw == nil {
			kw = NewObject()
		}
	}
	return "Action:\n" + Dumps(NewObject().Set("name", a.Name).Set("arguments", kw))
}
