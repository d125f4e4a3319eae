// Package gatewaytest is a stand-in for a child process in tests of the
// code that runs children behind the model gateway: it reaches the gateway
// only through the environment the gateway gives a child, over HTTP, as a
// Python method would.
package gatewaytest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Child makes a child's calls. Its zero value has no environment.
type Child struct {
	// Env is the child's environment as a map (from ChildEnv lines).
	Env map[string]string
	// Client sends the requests; nil means http.DefaultClient.
	Client *http.Client
}

// NewChild is a child with environment env (KEY=VALUE lines, as
// gateway.ChildEnviron returns them).
func NewChild(env []string) *Child {
	c := &Child{Env: map[string]string{}}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		c.Env[k] = v
	}
	return c
}

// Chat sends one chat completion with prompt as the user turn and returns
// the reply's content. scope and purpose go in the gateway's headers when
// not empty. A reply other than 200 is an error quoting the gateway's
// message, with the status.
func (c *Child) Chat(ctx context.Context, scope, purpose, prompt string) (string, int, error) {
	body, err := json.Marshal(map[string]any{
		"model":    c.Env["OPENAI_MODEL"],
		"messages": []any{map[string]any{"role": "user", "content": prompt}},
	})
	if err != nil {
		return "", 0, err
	}
	req, err := http.NewRequestWithContext(ctx, "POST", c.Env["OPENAI_BASE_URL"]+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return "", 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.Env["OPENAI_API_KEY"])
	if scope != "" {
		req.Header.Set("X-Memharness-Scope", scope)
	}
	if purpose != "" {
		req.Header.Set("X-Memharness-Purpose", purpose)
	}
	client := c.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", resp.StatusCode, err
	}
	var out struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return "", resp.StatusCode, fmt.Errorf("child: reply %d is not JSON: %w", resp.StatusCode, err)
	}
	if resp.StatusCode != http.StatusOK || len(out.Choices) == 0 {
		return "", resp.StatusCode, fmt.Errorf("child: gateway answered %d: %s", resp.StatusCode, out.Error.Message)
	}
	return out.Choices[0].Message.Content, resp.StatusCode, nil
}
