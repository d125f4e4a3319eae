package scienceworld

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// proto binds the HTTP client to one server's request shapes.
type proto struct {
	c         *client
	spec      kindSpec
	kind      Kind
	worldType string
}

func (p proto) create(ctx context.Context) (int, error) {
	data, err := p.c.call(ctx, http.MethodPost, "/create", nil, p.spec.createBody, true)
	if err != nil {
		return 0, err
	}
	return decodeID(data)
}

func (p proto) reset(ctx context.Context, id, index int) (reply, error) {
	body := map[string]any{p.spec.family.idKey(): id, p.spec.resetKey: index}
	if p.kind == ALFWorld {
		body["world_type"] = p.worldType
	}
	// A reset reloads the task from scratch, so repeating it is harmless.
	data, err := p.c.call(ctx, http.MethodPost, "/reset", nil, body, true)
	if err != nil {
		return reply{}, err
	}
	return decodeReply("/reset", data)
}

func (p proto) step(ctx context.Context, id int, action string) (reply, error) {
	body := map[string]any{p.spec.family.idKey(): id, "action": action}
	data, err := p.c.call(ctx, http.MethodPost, "/step", nil, body, false)
	if err != nil {
		return reply{}, err
	}
	r, err := decodeReply("/step", data)
	if err != nil {
		return r, err
	}
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		return r, fmt.Errorf("/step: %w: want an object", ErrMalformed)
	}
	return r, nil
}

func (p proto) close(ctx context.Context, id int) error {
	if !p.spec.hasClose {
		return nil
	}
	_, err := p.c.call(ctx, http.MethodPost, "/close", nil, map[string]any{p.spec.family.idKey(): id}, false)
	return err
}

// observation fetches the current observation (GET /observation).
func (p proto) observation(ctx context.Context, id int) (string, error) {
	q := map[string][]string{p.spec.family.idKey(): {fmt.Sprint(id)}}
	data, err := p.c.call(ctx, http.MethodGet, "/observation", q, nil, true)
	if err != nil {
		return "", err
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return "", fmt.Errorf("/observation: %w: want a string, got %s", ErrMalformed, snippet(data))
	}
	return s, nil
}
