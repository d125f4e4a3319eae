package sim_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/sim"
)

// notesHint is the hint type of a made-up method the sim has never seen.
type notesHint struct{ Note string }

// TestReadPromptUnknownMethod sends the requests of a made-up method
// ("keynotes", no hint or a hint type of its own) and checks that each
// gets a non-empty answer in the format its prompt asks for.
func TestReadPromptUnknownMethod(t *testing.T) {
	tests := []struct {
		name   string
		hint   any
		prompt string
		check  func(string) bool
	}{
		{"yes/no follows the answers shown", nil,
			"Past answers: Yes, Yes, No, Yes.\nWill the user like the next video? Answer Yes or No.",
			func(s string) bool { return s == "Yes" }},
		{"yes/no tie says No", nil, "Will it rain? Reply yes or no.", func(s string) bool { return s == "No" }},
		{"yes/no in Chinese", nil, "用户会点赞这个视频吗？请回答是或否。", func(s string) bool { return s == "否" }},
		{"rating is the mean of the shown ratings", notesHint{"x"},
			"The user rated Alien 5, rated Heat 4 and rated Ran 4.\nRate the film Solaris on a scale from 1 to 5. Reply with the number only.",
			func(s string) bool { return s == "4" }},
		{"rating as points given, on a range of points", nil,
			"以下是该用户过去的评分记录：\n  反应：该用户给这部电影打了5分（满分5分）。\n  反应：该用户给这部电影打了4分（满分5分）。\n  反应：该用户给这部电影打了5分（满分5分）。\n该用户会给这部电影打几分（1-5分）？",
			func(s string) bool { return s == "5" }},
		{"rating without evidence is the middle", nil, "Give a rating from 1 to 5 for this movie.", func(s string) bool { return s == "3" }},
		{"action from a one-line list, the one the goal names", nil,
			"Your task is to: put a clean mug in the coffee machine.\nAvailable actions: go to drawer 1, take mug 1 from countertop 1, open fridge 1\n>",
			func(s string) bool { return s == "take mug 1 from countertop 1" }},
		{"action from a bulleted list", struct{}{},
			"Goal: buy a red shirt.\nChoose one of the following:\n- search[blue jeans]\n- click[red shirt]\n- click[back]\n",
			func(s string) bool { return s == "click[red shirt]" }},
		{"action list with no overlap gives the first", nil, "Valid actions: [\"north\", \"south\"]",
			func(s string) bool { return s == "north" }},
		{"JSON keeps the example's shape", "a hint string",
			"Extract the key facts of the episode below.\nReturn JSON like {\"facts\": [\"...\"], \"confidence\": 0.5}.\nEpisode: the user watched three cooking streams.",
			func(s string) bool {
				var v struct {
					Facts      []string `json:"facts"`
					Confidence float64  `json:"confidence"`
				}
				return json.Unmarshal([]byte(s), &v) == nil && len(v.Facts) == 1 && v.Facts[0] != "" && v.Confidence == 0.5
			}},
		{"JSON without an example", nil, "Answer in JSON.",
			func(s string) bool {
				var v map[string]string
				return json.Unmarshal([]byte(s), &v) == nil && v["answer"] != ""
			}},
		{"free text is a short extract", nil, strings.Repeat("The user prefers late-night cooking streams. ", 40),
			func(s string) bool {
				return s != "" && len(strings.Fields(s)) <= 60 && strings.HasPrefix(s, "The user prefers")
			}},
		{"empty prompt", nil, "", func(s string) bool { return s == "OK" }},
	}
	s := sim.New(sim.Config{}, testReaders())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := llm.Request{Purpose: "keynotes.extract", Hint: tt.hint, SampleID: "u1/0",
				Messages: []llm.Message{{Role: "system", Content: "You are a helpful assistant."}, {Role: "user", Content: tt.prompt}}}
			resp, err := s.Generate(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(resp.Text) {
				t.Errorf("answer %q does not fit the asked format", resp.Text)
			}
			again, _ := s.Generate(context.Background(), req)
			if again.Text != resp.Text || resp.Usage.CompletionTokens < 1 {
				t.Errorf("not deterministic (%q then %q) or no usage %+v", resp.Text, again.Text, resp.Usage)
			}
		})
	}
}
