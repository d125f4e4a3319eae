package llm

import (
	"encoding/json"
	"fmt"
)

// ChatBody is the exact JSON body OpenAI.Generate sends for req to model
// (after the stack merged its default parameters): what a provider batch
// file carries per line, so a batched call is the request a live call
// would have been, byte for byte.
func ChatBody(model string, req Request) ([]byte, error) {
	creq, patch, err := buildChatRequest(model, req)
	if err != nil {
		return nil, err
	}
	// go-openai marshals its request with encoding/json; so do we.
	body, err := json.Marshal(creq)
	if err != nil {
		return nil, fmt.Errorf("encode chat request: %w", err)
	}
	return spliceBody(body, patch)
}

// chatReply is the part of a chat completion body the harness reads.
type chatReply struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content          string `json:"content"`
			ReasoningContent string `json:"reasoning_content"`
			Reasoning        string `json:"reasoning"`
		} `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		PromptTokensDetails *struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
}

// DecodeChat reads a chat completion body (a batch output line's
// response body) as OpenAI.Generate reads a live reply: the content with
// any <think> block split off, the server's reasoning channel, the token
// counts (replaced by our own count when they are not believable) and the
// answering model (model when the body names none).
func DecodeChat(req Request, body []byte, model, endpoint string) (Response, error) {
	body, usageBad := checkUsage(body)
	var r chatReply
	if err := json.Unmarshal(body, &r); err != nil {
		return Response{}, fmt.Errorf("chat completion body: %w", err)
	}
	if len(r.Choices) == 0 {
		return Response{}, fmt.Errorf("chat completion body has no choices")
	}
	msg := r.Choices[0].Message
	text, inline := SplitThink(msg.Content)
	server := msg.ReasoningContent
	if server == "" {
		server = msg.Reasoning
	}
	resp := Response{
		Text:      text,
		Content:   msg.Content,
		Reasoning: joinNonEmpty([]string{server, inline}, "\n"),
		Usage:     Usage{PromptTokens: r.Usage.PromptTokens, CompletionTokens: r.Usage.CompletionTokens},
		Model:     r.Model,
		Endpoint:  endpoint,
	}
	if d := r.Usage.PromptTokensDetails; d != nil {
		resp.Usage.CachedTokens = d.CachedTokens
	}
	if usageBad != "" {
		resp.Usage, resp.UsageEstimated = ownUsage(req, msg.Content), usageBad
	}
	if resp.Model == "" {
		resp.Model = model
	}
	return resp, nil
}
