package scienceworld

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// reply is the union of what reset and step return across servers.
type reply struct {
	Observation string
	Reward      float64
	// Score is sciworld's 0–100 score; HasScore says it was sent.
	Score    float64
	HasScore bool
	Done     bool
	// TaskDescription is sciworld's goal text (reset only).
	TaskDescription  string
	AvailableActions []string
	Info             map[string]any
}

// decodeReply reads a reset or step reply: an object (family A, and family
// B steps), a [observation, info] pair (webshop/sqlgym resets) or a bare
// string (searchqa resets). The observation sits under "observation" or,
// for webshop/sqlgym steps, "state".
func decodeReply(route string, data []byte) (reply, error) {
	var r reply
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return r, fmt.Errorf("%s: %w: empty reply", route, ErrMalformed)
	}
	bad := func(format string, args ...any) (reply, error) {
		return reply{}, fmt.Errorf("%s: %w: "+format, append([]any{route, ErrMalformed}, args...)...)
	}
	switch data[0] {
	case '"':
		if err := json.Unmarshal(data, &r.Observation); err != nil {
			return bad("%v", err)
		}
		return r, nil
	case '[':
		var pair []json.RawMessage
		if err := json.Unmarshal(data, &pair); err != nil {
			return bad("%v", err)
		}
		if len(pair) == 0 || json.Unmarshal(pair[0], &r.Observation) != nil {
			return bad("want [observation, info], got %s", snippet(data))
		}
		return r, nil
	case '{':
	default:
		return bad("want an object, a pair or a string, got %s", snippet(data))
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return bad("%v", err)
	}
	obsKey := "observation"
	if _, ok := m[obsKey]; !ok {
		obsKey = "state"
	}
	raw, ok := m[obsKey]
	if !ok {
		return bad("no observation or state field in %s", snippet(data))
	}
	if err := json.Unmarshal(raw, &r.Observation); err != nil {
		return bad("field %s: want a string, got %s", obsKey, snippet(raw))
	}
	var err error
	if r.Reward, _, err = number(m, "reward"); err != nil {
		return bad("%v", err)
	}
	if r.Score, r.HasScore, err = number(m, "score"); err != nil {
		return bad("%v", err)
	}
	if r.Done, err = boolean(m, "done"); err != nil {
		return bad("%v", err)
	}
	if raw, ok := m["task_description"]; ok && json.Unmarshal(raw, &r.TaskDescription) != nil {
		return bad("field task_description: want a string, got %s", snippet(raw))
	}
	if raw, ok := m["available_actions"]; ok && string(raw) != "null" && json.Unmarshal(raw, &r.AvailableActions) != nil {
		return bad("field available_actions: want a list of strings, got %s", snippet(raw))
	}
	if raw, ok := m["info"]; ok && string(raw) != "null" {
		// info is free-form; keep it when it is an object.
		_ = json.Unmarshal(raw, &r.Info)
	}
	return r, nil
}

// number reads an optional numeric field (null counts as absent); numeric
// strings are accepted because the gold files store scores that way.
func number(m map[string]json.RawMessage, key string) (float64, bool, error) {
	raw, ok := m[key]
	if !ok || string(raw) == "null" {
		return 0, false, nil
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err == nil {
		return f, true, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f, true, nil
		}
	}
	return 0, false, fmt.Errorf("field %s: want a number, got %s", key, snippet(raw))
}

// boolean reads an optional boolean field (absent or null is false).
func boolean(m map[string]json.RawMessage, key string) (bool, error) {
	raw, ok := m[key]
	if !ok || string(raw) == "null" {
		return false, nil
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err != nil {
		return false, fmt.Errorf("field %s: want true or false, got %s", key, snippet(raw))
	}
	return b, nil
}

// decodeID reads /create's reply: {"id": n} (family A) or a bare n (family B).
func decodeID(data []byte) (int, error) {
	data = bytes.TrimSpace(data)
	var n json.Number
	if len(data) > 0 && data[0] == '{' {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(data, &m); err != nil {
			return 0, fmt.Errorf("/create: %w: %v", ErrMalformed, err)
		}
		raw, ok := m["id"]
		if !ok {
			return 0, fmt.Errorf("/create: %w: no id field in %s", ErrMalformed, snippet(data))
		}
		data = raw
	}
	if err := json.Unmarshal(data, &n); err != nil {
		return 0, fmt.Errorf("/create: %w: want an integer id, got %s", ErrMalformed, snippet(data))
	}
	id, err := strconv.ParseInt(n.String(), 10, 64)
	if err != nil || id < 0 || id > 1<<53 {
		return 0, fmt.Errorf("/create: %w: want a non-negative integer id, got %s", ErrMalformed, snippet(data))
	}
	return int(id), nil
}
