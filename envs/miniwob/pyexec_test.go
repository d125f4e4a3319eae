package miniwob

import (
	"reflect"
	"testing"
)

// TestExecProgram: Synapse's exec on small programs (the parity corpus in
// releasepacks/lifememrel checks 2,200 replies against Python itself).
func TestExecProgram(t *testing.T) {
	click := Action{Kind: ClickXPath, Arg: "//a"}
	tests := []struct {
		name             string
		code             string
		want             []Action
		runErr, compiled bool
	}{
		{"calls", "agent.click_xpath(\"//a\")\nagent.type('x')", []Action{click, {Kind: TypeText, Arg: "x"}}, false, true},
		{"empty runs nothing", "", nil, false, true},
		{"loop", "for _ in range(2):\n    agent.click_xpath(\"//a\")", []Action{click, click}, false, true},
		{"bad key stops after earlier calls", "agent.click_xpath(\"//a\")\nagent.press(\"tab\")\nagent.click_xpath(\"//a\")", []Action{click}, true, true},
		{"command typed as text", "agent.press(\"command+a\")", []Action{{Kind: TypeText, Arg: "command+a"}}, false, true},
		{"unknown method", "agent.click_xpath(\"//a\")\nagent.click(\"//a\")", []Action{click}, true, true},
		{"no agent", "click_xpath(\"//a\")", nil, true, true},
		{"wrong keyword", "agent.click_xpath(path=\"//a\")", nil, true, true},
		{"prose is a syntax error", "agent.click_xpath(\"//a\")\nClick it.", nil, false, false},
		{"indented first line", "  agent.click_xpath(\"//a\")", nil, false, false},
		{"undefined range", "agent.click_xpath(\"//a\")\nfor _ in range(n):\n    agent.press(\"enter\")", []Action{click}, true, true},
		{"language label leftover", "3\nagent.click_xpath(\"//a\")", []Action{click}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			acts, runErr, compileErr := ExecProgram(tt.code)
			if (compileErr == nil) != tt.compiled || (runErr != nil) != tt.runErr {
				t.Fatalf("compile %v run %v", compileErr, runErr)
			}
			if !reflect.DeepEqual(acts, tt.want) {
				t.Errorf("actions %v, want %v", acts, tt.want)
			}
		})
	}
}
